package dev.breaker.redis;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.KeyScanArgs;
import io.lettuce.core.KeyScanCursor;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisConnectionStateListener;
import io.lettuce.core.ScanCursor;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import io.lettuce.core.resource.ClientResources;

/**
 * The Lettuce client of one Redis topology, as {@link StoreConnection} needs it: the same
 * operations whatever the servers are ({@link ServerClient}: one server, or the primary
 * Sentinel names; {@link ClusterClient}: a Cluster).
 */
sealed interface StoreClient permits ServerClient, ClusterClient {

	/**
	 * A command connection and its asynchronous commands (what a server and a Cluster
	 * have in common).
	 */
	record Commands(StatefulConnection<String, String> connection, RedisClusterAsyncCommands<String, String> async) {
	}

	static StoreClient of(FleetRedis redis, ClientResources resources, Duration timeout, Duration reconnectInterval) {
		return redis.topology() == FleetRedis.Topology.CLUSTER
				? new ClusterClient(redis, resources, timeout, reconnectInterval)
				: new ServerClient(redis, resources, timeout);
	}

	/**
	 * Connects the command connection and loads the scripts; blocks for at most a few
	 * connect timeouts (the topology is discovered first in a Cluster, the primary asked
	 * of the Sentinels first behind Sentinel).
	 */
	Commands connect();

	/**
	 * Connects the connection the channel is subscribed on: the same UTF-8 pub/sub
	 * connection of the Lettuce client whatever the topology (in a Cluster it lives on
	 * one node, and hears every node's announcements).
	 */
	default StatefulRedisPubSubConnection<String, String> connectPubSub() {
		AbstractRedisClient client = lettuce();
		return (client instanceof RedisClusterClient cluster) ? cluster.connectPubSub(StringCodec.UTF8)
				: ((RedisClient) client).connectPubSub(StringCodec.UTF8);
	}

	/**
	 * The cheap periodic ping: {@code TIME} as the clock's server answers it. In a
	 * Cluster every primary is asked, and the ping fails unless every one answers: the
	 * fleet shares only while every slot can be reached.
	 */
	CompletableFuture<List<String>> time(Commands commands);

	/**
	 * One step of a SCAN over every key the fleet may hold: of the server, or of every
	 * primary in turn in a Cluster (pass the returned cursor back as it is; it knows
	 * which primary comes next).
	 */
	CompletableFuture<KeyScanCursor<String>> scan(Commands commands, ScanCursor cursor, KeyScanArgs args);

	/**
	 * What names the data Redis holds right now: the server's run id, or every primary's
	 * in a Cluster. It changes when a server restarts (and, without persistence, forgets
	 * every key) or a replica is promoted (and may lack the last writes its primary
	 * took).
	 */
	CompletableFuture<String> serverId(Commands commands);

	/** The Lettuce client underneath. */
	AbstractRedisClient lettuce();

	/**
	 * Whether keys of different breakers may live on different servers (a script then
	 * takes one slot's keys only).
	 */
	default boolean cluster() {
		return lettuce() instanceof RedisClusterClient;
	}

	default void addListener(RedisConnectionStateListener listener) {
		lettuce().addListener(listener);
	}

	default void shutdown() {
		lettuce().shutdown(Duration.ZERO, Duration.ofSeconds(2));
	}

	/**
	 * The options of the fleet's connections whatever the topology: they reconnect by
	 * themselves, reject commands while disconnected instead of queueing them, time out
	 * commands and connects after {@code timeout}, and use the TLS material of
	 * {@code redis}.
	 */
	static <B extends ClientOptions.Builder> B options(B options, FleetRedis redis, Duration timeout) {
		options.autoReconnect(true)
			.disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
			.timeoutOptions(TimeoutOptions.enabled(timeout))
			.socketOptions(SocketOptions.builder().connectTimeout(timeout).build());
		if (redis.ssl() != null) {
			options.sslOptions(redis.ssl());
		}
		return options;
	}

}
