package dev.breaker.redis;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import io.lettuce.core.RedisClient;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.ScanIterator;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.pubsub.RedisPubSubAdapter;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;

/**
 * What an operator or an attacker with a {@code redis-cli} can do to the fleet's Redis:
 * read and write any key, publish anything, flush everything, freeze the server process.
 * Tests use it to play the chaos the fleet must survive.
 */
public final class RedisAdmin implements AutoCloseable {

	private final RedisClient client;

	private final StatefulRedisConnection<String, String> connection;

	private final List<StatefulRedisPubSubConnection<String, String>> subscriptions = new CopyOnWriteArrayList<>();

	public RedisAdmin(RedisServerHarness redis) {
		this.client = RedisClient.create(redis.url());
		this.connection = client.connect();
	}

	/** The synchronous commands, for anything not wrapped here. */
	public RedisCommands<String, String> redis() {
		return connection.sync();
	}

	/** Every key matching a glob pattern (SCAN, so it works on a big keyspace too). */
	public List<String> keys(String pattern) {
		List<String> keys = new ArrayList<>();
		ScanIterator<String> scan = ScanIterator.scan(redis(), ScanArgs.Builder.matches(pattern).limit(1000));
		scan.forEachRemaining(keys::add);
		return keys;
	}

	/**
	 * Publishes a message on a channel as anybody could; returns the number of
	 * subscribers that got it.
	 */
	public long publish(String channel, String message) {
		return redis().publish(channel, message);
	}

	/**
	 * Collects every message published on {@code channel} from now on, until this admin
	 * is closed.
	 */
	public List<String> listen(String channel) {
		List<String> heard = new CopyOnWriteArrayList<>();
		StatefulRedisPubSubConnection<String, String> pubSub = client.connectPubSub();
		pubSub.addListener(new RedisPubSubAdapter<>() {
			@Override
			public void message(String from, String message) {
				heard.add(message);
			}
		});
		pubSub.sync().subscribe(channel);
		subscriptions.add(pubSub);
		return heard;
	}

	/** The process id of the redis-server, as the server itself reports it. */
	public long serverPid() {
		for (String line : redis().info("server").split("\r?\n")) {
			if (line.startsWith("process_id:")) {
				return Long.parseLong(line.substring("process_id:".length()).trim());
			}
		}
		throw new IllegalStateException("redis-server did not report its process_id");
	}

	/**
	 * Freezes the redis-server process (SIGSTOP): connections stay open, nothing answers.
	 */
	public static void freeze(long pid) {
		signal(pid, "-STOP");
	}

	/** Lets a frozen redis-server run again (SIGCONT). */
	public static void thaw(long pid) {
		signal(pid, "-CONT");
	}

	private static void signal(long pid, String signal) {
		try {
			// the shell's own kill: no procps package needed on a minimal machine
			Process kill = new ProcessBuilder("sh", "-c", "kill " + signal + " " + pid).inheritIO().start();
			if (!kill.waitFor(5, TimeUnit.SECONDS) || kill.exitValue() != 0) {
				throw new IllegalStateException("kill " + signal + " " + pid + " failed");
			}
		}
		catch (IOException e) {
			throw new UncheckedIOException(e);
		}
		catch (InterruptedException e) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(e);
		}
	}

	@Override
	public void close() {
		subscriptions.forEach(StatefulRedisPubSubConnection::close);
		connection.close();
		client.shutdown();
	}

}
