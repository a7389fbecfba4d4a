package dev.breaker.redis;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import dev.breaker.redis.FleetScripts.Script;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.KeyScanArgs;
import io.lettuce.core.KeyScanCursor;
import io.lettuce.core.RedisClient;
import io.lettuce.core.ScanCursor;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.resource.ClientResources;

/**
 * One server: named directly, or the primary the Sentinels name. Behind Sentinel every
 * (re)connect asks the Sentinels again, so after a failover the connections find the
 * promoted replica by themselves.
 */
final class ServerClient implements StoreClient {

	private final RedisClient client;

	ServerClient(FleetRedis redis, ClientResources resources, Duration timeout) {
		this.client = RedisClient.create(resources, redis.uris().get(0));
		this.client.setOptions(StoreClient.options(ClientOptions.builder(), redis, timeout).build());
	}

	@Override
	public Commands connect() {
		StatefulRedisConnection<String, String> connection = client.connect(StringCodec.UTF8);
		try {
			// so that the first trip does not wait for a NOSCRIPT
			for (Script script : FleetScripts.ALL) {
				connection.sync().scriptLoad(script.body());
			}
		}
		catch (RuntimeException e) {
			connection.closeAsync();
			throw e;
		}
		return new Commands(connection, connection.async());
	}

	@Override
	public CompletableFuture<List<String>> time(Commands commands) {
		return commands.async().time().toCompletableFuture();
	}

	@Override
	public CompletableFuture<KeyScanCursor<String>> scan(Commands commands, ScanCursor cursor, KeyScanArgs args) {
		return commands.async().scan(cursor, args).toCompletableFuture();
	}

	@Override
	public CompletableFuture<String> serverId(Commands commands) {
		return commands.async().info("server").toCompletableFuture().thenApply(ServerClient::runId);
	}

	static String runId(String info) {
		for (String line : info.split("\r?\n")) {
			if (line.startsWith("run_id:")) {
				return line.substring("run_id:".length()).trim();
			}
		}
		return "";
	}

	@Override
	public RedisClient lettuce() {
		return client;
	}

}
