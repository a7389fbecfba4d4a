package dev.breaker.redis;

import java.net.SocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import dev.breaker.redis.FleetScripts.Script;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisChannelHandler;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisConnectionStateListener;
import io.lettuce.core.RedisNoScriptException;
import io.lettuce.core.RedisURI;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.pubsub.RedisPubSubAdapter;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.Delay;

/**
 * Fleet mode's two Lettuce connections (commands, and the channel's subscription), kept connected, and kept honest:
 * a cheap periodic {@code TIME} makes {@link SharedStoreStatus} true within twice the reconnect interval, also while
 * Redis hangs with its connections open, and keeps {@link RedisClock} current. A command that times out, or a lost
 * connection, marks the store down; an error reply (Redis answered) is counted but leaves it up. Whenever Redis
 * answers again after it did not, the listener hears of it, so the fleet's state is read again.
 */
final class StoreConnection implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(StoreConnection.class.getName());

    private final RedisClient client;
    private final ClientResources resources;
    private final String channel;
    private final Duration reconnectInterval;
    private final long pingMillis;
    private final long pingTimeoutMillis;
    private final SharedStoreStatus status;
    private final RedisClock clock;
    private final ScheduledExecutorService executor;
    private final RedisBreakerStore.Listener listener;

    private volatile StatefulRedisConnection<String, String> commands;
    private volatile StatefulRedisPubSubConnection<String, String> subscription;
    private volatile boolean closed;

    StoreConnection(RedisURI uri, String channel, Duration timeout, Duration reconnectInterval, SharedStoreStatus status,
            RedisClock clock, ScheduledExecutorService executor, RedisBreakerStore.Listener listener) {
        this.channel = Objects.requireNonNull(channel, "channel");
        this.reconnectInterval = reconnectInterval;
        // status is true within twice the reconnect interval: a ping every half interval, failing within half of it
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
        this.client = RedisClient.create(resources, uri);
        this.client.setOptions(ClientOptions.builder()
                .autoReconnect(true)
                .disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
                .timeoutOptions(TimeoutOptions.enabled(timeout))
                .socketOptions(SocketOptions.builder().connectTimeout(timeout).build())
                .build());
        this.client.addListener(new RedisConnectionStateListener() {
            @Override
            public void onRedisConnected(RedisChannelHandler<?, ?> connection, SocketAddress address) {
                // the first connect is reported by connect() itself; this is a reconnect
                if (connection == commands) {
                    reachable();
                } else if (connection == subscription) {
                    listener.onReachable(); // resubscribed: messages sent meanwhile were missed
                }
            }

            @Override
            public void onRedisDisconnected(RedisChannelHandler<?, ?> connection) {
                if (connection == commands && !closed) {
                    status.markDown(null);
                }
            }
        });
    }

    /** Connects in the background, retrying every reconnect interval until Redis answers; returns at once. */
    public void start() {
        executor.execute(this::connect);
        executor.scheduleWithFixedDelay(this::ping, pingMillis, pingMillis, TimeUnit.MILLISECONDS);
    }

    /** True once connected (Lettuce then reconnects on its own after an outage). */
    public boolean connected() {
        StatefulRedisConnection<String, String> connection = commands;
        return connection != null && connection.isOpen();
    }

    private void connect() {
        if (closed || commands != null) {
            return;
        }
        StatefulRedisPubSubConnection<String, String> pubSub = null;
        try {
            StatefulRedisConnection<String, String> connection = client.connect(StringCodec.UTF8);
            for (Script script : FleetScripts.ALL) {
                connection.sync().scriptLoad(script.body()); // so that the first trip does not wait for a NOSCRIPT
            }
            long sent = System.nanoTime();
            List<String> time = connection.sync().time();
            clock.sample(redisMillis(time), sent, System.nanoTime());
            pubSub = client.connectPubSub(StringCodec.UTF8);
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
        } catch (RuntimeException unreachable) {
            if (pubSub != null) {
                pubSub.closeAsync();
            }
            status.markDown(unreachable);
            if (!closed) {
                executor.schedule(this::connect, reconnectInterval.toMillis(), TimeUnit.MILLISECONDS);
            }
        }
    }

    /** The periodic ping: {@code TIME}, failing after half a reconnect interval; cheap, and it keeps the clock. */
    private void ping() {
        StatefulRedisConnection<String, String> connection = commands;
        if (closed || connection == null) {
            return;
        }
        long sent = System.nanoTime();
        CompletableFuture<List<String>> time;
        try {
            time = connection.async().time().toCompletableFuture();
        } catch (RuntimeException rejected) {
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

    /** What a command's outcome says about the store: up unless it timed out or the connection failed. */
    private void observe(Throwable error) {
        Throwable cause = unwrap(error);
        if (cause == null) {
            reachable();
        } else if (cause instanceof RedisCommandExecutionException answered) {
            status.countError(answered);
            LOG.log(System.Logger.Level.DEBUG, "a fleet command failed in Redis: {0}", answered.getMessage());
            reachable();
        } else if (!(cause instanceof RedisBreakerStore.MalformedException)) {
            status.markDown(cause);
        }
    }

    static Throwable unwrap(Throwable error) {
        Throwable cause = error;
        while ((cause instanceof CompletionException || cause instanceof ExecutionException) && cause.getCause() != null) {
            cause = cause.getCause();
        }
        return cause instanceof CancellationException ? new IllegalStateException("command cancelled") : cause;
    }

    StatefulRedisConnection<String, String> commands() {
        return commands;
    }

    /** Runs a script by its SHA, sending the body only when Redis does not have it (see {@link Script}). */
    <T> CompletableFuture<T> run(Script script, ScriptOutputType type, String[] scriptKeys, String... args) {
        StatefulRedisConnection<String, String> connection = commands;
        if (connection == null) {
            return notConnected();
        }
        CompletableFuture<T> result;
        try {
            result = connection.async().<T>evalsha(script.sha(), type, scriptKeys, args).toCompletableFuture()
                    .exceptionallyCompose(error -> unwrap(error) instanceof RedisNoScriptException
                            ? connection.async().<T>eval(script.body(), type, scriptKeys, args).toCompletableFuture()
                            : CompletableFuture.failedFuture(error));
        } catch (RuntimeException rejected) {
            result = CompletableFuture.failedFuture(rejected);
        }
        return observed(result);
    }

    <T> CompletableFuture<T> observed(CompletableFuture<T> result) {
        return result.whenComplete((value, error) -> observe(error));
    }

    <T> CompletableFuture<T> notConnected() {
        IllegalStateException error = new IllegalStateException("not connected to Redis");
        observe(error);
        return CompletableFuture.failedFuture(error);
    }

    @Override
    public void close() {
        closed = true;
        StatefulRedisPubSubConnection<String, String> pubSub = subscription;
        StatefulRedisConnection<String, String> connection = commands;
        if (pubSub != null) {
            pubSub.close();
        }
        if (connection != null) {
            connection.close();
        }
        client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
        resources.shutdown(0, 2, TimeUnit.SECONDS);
    }
}
