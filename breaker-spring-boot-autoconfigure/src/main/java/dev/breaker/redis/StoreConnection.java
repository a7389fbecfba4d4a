package dev.breaker.redis;

import java.net.SocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

import dev.breaker.core.CauseChain;
import dev.breaker.redis.FleetScripts.Script;
import dev.breaker.redis.StoreClient.Commands;
import io.lettuce.core.KeyScanArgs;
import io.lettuce.core.KeyScanCursor;
import io.lettuce.core.RedisChannelHandler;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisConnectionStateListener;
import io.lettuce.core.RedisNoScriptException;
import io.lettuce.core.ScanCursor;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.lettuce.core.pubsub.RedisPubSubAdapter;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.Delay;

/**
 * Fleet mode's two Lettuce connections (commands, and the channel's subscription), kept
 * connected, and kept honest: a cheap periodic {@code TIME} makes
 * {@link SharedStoreStatus} true within twice the reconnect interval, also while Redis
 * hangs with its connections open, and keeps {@link RedisClock} current. A command that
 * times out, or a lost connection, marks the store down; an error reply (Redis answered)
 * is counted but leaves it up. Whenever Redis answers again after it did not, the
 * listener hears of it, so the fleet's state is read again. The topology (one server,
 * Sentinel, a Cluster) is {@link StoreClient}'s business: behind Sentinel a reconnect
 * finds the promoted replica, in a Cluster the ping asks every primary.
 */
final class StoreConnection implements AutoCloseable {

	private static final System.Logger LOG = System.getLogger(StoreConnection.class.getName());

	private final StoreClient client;

	private final ClientResources resources;

	private final String channel;

	private final Duration reconnectInterval;

	private final long timeoutMillis;

	private final long pingMillis;

	private final long pingTimeoutMillis;

	private final SharedStoreStatus status;

	private final RedisClock clock;

	private final ScheduledExecutorService executor;

	private final RedisBreakerStore.Listener listener;

	private volatile Commands commands;

	private volatile StatefulRedisPubSubConnection<String, String> subscription;

	private volatile boolean closed;

	StoreConnection(FleetRedis redis, String channel, Duration timeout, Duration reconnectInterval,
			SharedStoreStatus status, RedisClock clock, ScheduledExecutorService executor,
			RedisBreakerStore.Listener listener) {
		this.channel = Objects.requireNonNull(channel, "channel");
		this.reconnectInterval = reconnectInterval;
		// status is true within twice the reconnect interval: a ping every half interval,
		// failing within half of it
		this.timeoutMillis = timeout.toMillis();
		this.pingMillis = Math.max(20, reconnectInterval.toMillis() / 2);
		this.pingTimeoutMillis = Math.max(10, Math.min(timeout.toMillis(), reconnectInterval.toMillis() / 2));
		this.status = status;
		this.clock = clock;
		this.executor = executor;
		this.listener = listener;
		this.resources = ClientResources.builder()
			.ioThreadPoolSize(2)
			.computationThreadPoolSize(2)
			.reconnectDelay(Delay.exponential(Duration.ofMillis(20), reconnectInterval, 2, TimeUnit.MILLISECONDS))
			.build();
		this.client = StoreClient.of(redis, resources, timeout, reconnectInterval);
		this.client.addListener(new RedisConnectionStateListener() {
			@Override
			public void onRedisConnected(RedisChannelHandler<?, ?> connection, SocketAddress address) {
				// the first connect is reported by connect() itself; this is a reconnect
				Commands current = commands;
				if (current != null && connection == current.connection()) {
					if (client.cluster()) {
						// one node is back: up only when every primary answers
						executor.execute(StoreConnection.this::ping);
					}
					else {
						reachable();
					}
				}
				else if (connection == subscription) {
					// resubscribed: messages sent meanwhile were missed
					listener.onReachable();
				}
			}

			@Override
			public void onRedisDisconnected(RedisChannelHandler<?, ?> connection) {
				Commands current = commands;
				if (current != null && connection == current.connection() && !closed) {
					status.markDown(null);
				}
			}
		});
	}

	/**
	 * Connects in the background, retrying every reconnect interval until Redis answers;
	 * returns at once.
	 */
	public void start() {
		executor.execute(this::connect);
		executor.scheduleWithFixedDelay(this::ping, pingMillis, pingMillis, TimeUnit.MILLISECONDS);
	}

	/** True once connected (Lettuce then reconnects on its own after an outage). */
	public boolean connected() {
		Commands connection = commands;
		return connection != null && connection.connection().isOpen();
	}

	private void connect() {
		if (closed || commands != null) {
			return;
		}
		StatefulRedisPubSubConnection<String, String> pubSub = null;
		Commands connection = null;
		try {
			connection = client.connect();
			long sent = System.nanoTime();
			List<String> time = client.time(connection).get(timeoutMillis, TimeUnit.MILLISECONDS);
			clock.sample(redisMillis(time), sent, System.nanoTime());
			pubSub = client.connectPubSub();
			pubSub.addListener(new RedisPubSubAdapter<>() {
				@Override
				public void message(String from, String text) {
					listener.onMessage(text);
				}
			});
			pubSub.sync().subscribe(channel);
			subscription = pubSub;
			commands = connection;
			reachable();
		}
		catch (Exception unreachable) {
			if (unreachable instanceof InterruptedException) {
				Thread.currentThread().interrupt();
			}
			if (pubSub != null) {
				pubSub.closeAsync();
			}
			if (connection != null) {
				connection.connection().closeAsync();
			}
			status.markDown(unwrap(unreachable));
			if (!closed) {
				executor.schedule(this::connect, reconnectInterval.toMillis(), TimeUnit.MILLISECONDS);
			}
		}
	}

	/**
	 * The periodic ping: {@code TIME}, failing after half a reconnect interval; cheap,
	 * and it keeps the clock.
	 */
	private void ping() {
		Commands connection = commands;
		if (closed || connection == null) {
			return;
		}
		long sent = System.nanoTime();
		CompletableFuture<List<String>> time;
		try {
			time = client.time(connection);
		}
		catch (RuntimeException rejected) {
			observe(rejected);
			return;
		}
		time.orTimeout(pingTimeoutMillis, TimeUnit.MILLISECONDS).whenComplete((reply, error) -> {
			if (error == null) {
				clock.sample(redisMillis(reply), sent, System.nanoTime());
			}
			observe(error);
		});
	}

	private static long redisMillis(List<String> time) {
		return Long.parseLong(time.get(0)) * 1000 + Long.parseLong(time.get(1)) / 1000;
	}

	void reachable() {
		if (status.markUp()) {
			listener.onReachable();
		}
	}

	/**
	 * What a command's outcome says about the store: up unless it timed out or the
	 * connection failed.
	 */
	private void observe(Throwable error) {
		Throwable cause = unwrap(error);
		if (cause == null) {
			reachable();
		}
		else if (cause instanceof RedisCommandExecutionException answered) {
			status.countError(answered);
			LOG.log(System.Logger.Level.DEBUG, "a fleet command failed in Redis: {0}", answered.getMessage());
			reachable();
		}
		else if (!(cause instanceof StoreReplies.MalformedException)) {
			status.markDown(cause);
		}
	}

	static Throwable unwrap(Throwable error) {
		Throwable cause = CauseChain.unwrapAsync(error);
		return cause instanceof CancellationException ? new IllegalStateException("command cancelled") : cause;
	}

	/** One SCAN step: see {@link StoreClient#scan}. */
	CompletableFuture<KeyScanCursor<String>> scan(ScanCursor cursor, KeyScanArgs args) {
		return send(connection -> client.scan(connection, cursor, args));
	}

	/**
	 * The server's run id, or every primary's in a Cluster: see
	 * {@link StoreClient#serverId}.
	 */
	CompletableFuture<String> serverId() {
		return send(client::serverId);
	}

	/** Whether the keys of different breakers may be on different servers. */
	boolean cluster() {
		return client.cluster();
	}

	/**
	 * Runs a script by its SHA, sending the body only when Redis does not have it (see
	 * {@link Script}).
	 */
	<T> CompletableFuture<T> run(Script script, ScriptOutputType type, String[] scriptKeys, String... args) {
		return send(connection -> {
			RedisClusterAsyncCommands<String, String> async = connection.async();
			return async.<T>evalsha(script.sha(), type, scriptKeys, args)
				.toCompletableFuture()
				.exceptionallyCompose(error -> unwrap(error) instanceof RedisNoScriptException
						? async.<T>eval(script.body(), type, scriptKeys, args).toCompletableFuture()
						: CompletableFuture.failedFuture(error));
		});
	}

	/**
	 * Sends {@code command} on the command connection, and observes what its outcome says
	 * about the store; fails at once, never throws, before the first connect and when
	 * Lettuce rejects the command.
	 */
	<T> CompletableFuture<T> send(Function<Commands, CompletableFuture<T>> command) {
		Commands connection = commands;
		CompletableFuture<T> result;
		if (connection == null) {
			result = CompletableFuture.failedFuture(new IllegalStateException("not connected to Redis"));
		}
		else {
			try {
				result = command.apply(connection);
			}
			catch (RuntimeException rejected) {
				result = CompletableFuture.failedFuture(rejected);
			}
		}
		return result.whenComplete((value, error) -> observe(error));
	}

	@Override
	public void close() {
		closed = true;
		StatefulRedisPubSubConnection<String, String> pubSub = subscription;
		Commands connection = commands;
		if (pubSub != null) {
			pubSub.close();
		}
		if (connection != null) {
			connection.connection().close();
		}
		client.shutdown();
		resources.shutdown(0, 2, TimeUnit.SECONDS);
	}

}
