package dev.breaker.redis;

import java.net.SocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisChannelHandler;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisConnectionStateListener;
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
 * The Redis side of fleet mode: a few Lua scripts run with asynchronous Lettuce commands, and one
 * subscription to the fleet's channel.
 *
 * <p>Nothing here blocks a caller: every command returns a future that completes on Lettuce's I/O
 * thread, fails at once while disconnected (commands are rejected, not queued) and times out after
 * {@code timeout}. Keys, all under the prefix ({@code breaker:} by default):
 * <ul>
 * <li>{@code breaker:<name>} — a hash (state, gen, replica, reason) present only while the fleet's circuit
 * is open, with a TTL equal to the open wait: when the replica that tripped dies, the key still expires.</li>
 * <li>{@code breaker:<name>:gen} — the fleet generation, bumped by every shared trip and close (7-day TTL).</li>
 * <li>{@code breaker:<name>:probes:<gen>} — half-open probe slots handed out for the episode that began with
 * the open of generation {@code gen} (TTL: the half-open max wait).</li>
 * </ul>
 */
public final class RedisBreakerStore implements AutoCloseable {

    /** Told of what arrives from Redis; called on a Lettuce I/O thread, so implementations hand off at once. */
    public interface Listener {
        void onMessage(FleetMessage message);

        /** The connection (re)opened: state may have changed while it was down. */
        void onConnected();
    }

    /** The fleet's view of one breaker, read by {@link #read(String)}. */
    public record SharedState(boolean open, long generation, long ttlMillis, String replica, String reason, long fleetGeneration) {
    }

    private static final long GENERATION_TTL_MILLIS = TimeUnit.DAYS.toMillis(7);

    private final RedisClient client;
    private final ClientResources resources;
    private final String keyPrefix;
    private final String channel;
    private final Duration reconnectInterval;
    private final SharedStoreStatus status;
    private final ScheduledExecutorService executor;
    private final Listener listener;

    private volatile StatefulRedisConnection<String, String> commands;
    private volatile StatefulRedisPubSubConnection<String, String> subscription;
    private volatile boolean closed;

    /**
     * @param executor runs the (re)connect attempts; the store never blocks it for longer than one connect timeout
     */
    public RedisBreakerStore(RedisURI uri, String keyPrefix, String channel, Duration timeout, Duration reconnectInterval,
            SharedStoreStatus status, ScheduledExecutorService executor, Listener listener) {
        this.keyPrefix = Objects.requireNonNull(keyPrefix, "keyPrefix");
        this.channel = Objects.requireNonNull(channel, "channel");
        this.reconnectInterval = reconnectInterval;
        this.status = status;
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
                // the first connect is reported by connect() itself; this one is a reconnect
                // the pub/sub connection resubscribes by itself; either way, re-read what changed meanwhile
                if (connection == commands || connection == subscription) {
                    if (connection == commands) {
                        status.markUp();
                    }
                    listener.onConnected();
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
            pubSub = client.connectPubSub(StringCodec.UTF8);
            pubSub.addListener(new RedisPubSubAdapter<>() {
                @Override
                public void message(String from, String text) {
                    FleetMessage message = FleetMessage.decode(text);
                    if (message != null) {
                        listener.onMessage(message);
                    }
                }
            });
            pubSub.sync().subscribe(channel);
            StatefulRedisConnection<String, String> connection = client.connect(StringCodec.UTF8);
            subscription = pubSub;
            commands = connection;
            status.markUp();
            listener.onConnected();
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

    /**
     * Stores the open circuit with a TTL and tells the fleet, in one atomic script.
     *
     * @param onlyIfAbsent write only when the fleet has no open circuit for it (re-sync after an outage)
     * @return the new fleet generation, or 0 when {@code onlyIfAbsent} found one already there
     */
    public CompletableFuture<Long> publishOpen(String breaker, long ttlMillis, String replica, String reason, boolean onlyIfAbsent) {
        return eval(FleetScripts.OPEN, ScriptOutputType.INTEGER, new String[] {stateKey(breaker), generationKey(breaker)},
                Long.toString(Math.max(1, ttlMillis)), replica, reason, channel, breaker, onlyIfAbsent ? "1" : "0",
                Long.toString(GENERATION_TTL_MILLIS));
    }

    /** Removes the open circuit and tells the fleet it closed; returns the new fleet generation. */
    public CompletableFuture<Long> publishClose(String breaker, String replica, String reason) {
        return eval(FleetScripts.CLOSE, ScriptOutputType.INTEGER, new String[] {stateKey(breaker), generationKey(breaker)},
                replica, reason, channel, breaker, Long.toString(GENERATION_TTL_MILLIS));
    }

    /** Reads the fleet's state of one breaker (open or not, with the remaining TTL). */
    public CompletableFuture<SharedState> read(String breaker) {
        CompletableFuture<List<Object>> reply = eval(FleetScripts.READ, ScriptOutputType.MULTI,
                new String[] {stateKey(breaker), generationKey(breaker)});
        return reply.thenApply(fields -> {
            List<String> f = new ArrayList<>(fields.size());
            fields.forEach(field -> f.add(String.valueOf(field)));
            long ttl = Long.parseLong(f.get(2));
            boolean open = "OPEN".equals(f.get(0)) && ttl > 0;
            return new SharedState(open, Long.parseLong(f.get(1)), open ? ttl : 0, f.get(3), f.get(4), Long.parseLong(f.get(5)));
        });
    }

    /** Every circuit the fleet holds open right now, as OPEN messages (generation, remaining TTL, replica, reason). */
    public CompletableFuture<List<FleetMessage>> scanOpen() {
        CompletableFuture<List<Object>> reply = eval(FleetScripts.SCAN, ScriptOutputType.MULTI, new String[0], globEscape(keyPrefix) + "*");
        return reply.thenApply(rows -> {
            List<FleetMessage> open = new ArrayList<>(rows.size());
            for (Object row : rows) {
                List<?> f = (List<?>) row;
                String key = String.valueOf(f.get(0));
                open.add(new FleetMessage(FleetMessage.Kind.OPEN, key.substring(keyPrefix.length()),
                        Long.parseLong(String.valueOf(f.get(1))), Long.parseLong(String.valueOf(f.get(2))),
                        String.valueOf(f.get(3)), String.valueOf(f.get(4))));
            }
            return open;
        });
    }

    /** The server's run id: it changes when Redis restarts (and, without persistence, forgets every key). */
    public CompletableFuture<String> serverRunId() {
        StatefulRedisConnection<String, String> connection = commands;
        if (connection == null) {
            return CompletableFuture.failedFuture(new IllegalStateException("not connected to Redis"));
        }
        return connection.async().info("server").toCompletableFuture().thenApply(info -> {
            for (String line : info.split("\r?\n")) {
                if (line.startsWith("run_id:")) {
                    return line.substring("run_id:".length()).trim();
                }
            }
            return "";
        });
    }

    private static String globEscape(String text) {
        return text.replaceAll("([*?\\[\\]\\\\])", "\\\\$1");
    }

    /**
     * Claims up to {@code want} of the {@code max} concurrent half-open probes the whole fleet may run in the
     * episode that began with the open of {@code generation}. The slots stay this replica's while it renews its
     * lease ({@link #renewProbeLease}); slots of a replica whose lease lapsed are handed out again.
     *
     * @return how many this replica got (0 when live replicas hold them all)
     */
    public CompletableFuture<Integer> claimProbes(String breaker, long generation, String replica, int max, int want,
            long leaseMillis, long ttlMillis) {
        CompletableFuture<Long> granted = eval(FleetScripts.CLAIM, ScriptOutputType.INTEGER,
                new String[] {probesKey(breaker, generation)}, Integer.toString(max), Integer.toString(want), replica,
                Long.toString(Math.max(1, leaseMillis)), Long.toString(Math.max(1, ttlMillis)));
        return granted.thenApply(Long::intValue);
    }

    /** Keeps this replica's probe slots of that episode for another lease; false if the lease had already lapsed. */
    public CompletableFuture<Boolean> renewProbeLease(String breaker, long generation, String replica, long leaseMillis) {
        StatefulRedisConnection<String, String> connection = commands;
        if (connection == null) {
            return CompletableFuture.failedFuture(new IllegalStateException("not connected to Redis"));
        }
        return connection.async().pexpire(probesKey(breaker, generation) + ":lease:" + replica, leaseMillis)
                .toCompletableFuture();
    }

    private String probesKey(String breaker, long generation) {
        return keyPrefix + breaker + ":probes:" + generation;
    }

    /** Runs a script; the future fails at once when not connected. Failures are counted in the status. */
    <T> CompletableFuture<T> eval(String script, ScriptOutputType type, String[] keys, String... args) {
        StatefulRedisConnection<String, String> connection = commands;
        CompletableFuture<T> result;
        if (connection == null) {
            result = CompletableFuture.failedFuture(new IllegalStateException("not connected to Redis"));
        } else {
            try {
                result = connection.async().<T>eval(script, type, keys, args).toCompletableFuture();
            } catch (RuntimeException rejected) {
                result = CompletableFuture.failedFuture(rejected);
            }
        }
        return result.whenComplete((value, error) -> {
            if (error != null) {
                status.markDown(error);
            } else {
                status.markUp();
            }
        });
    }

    /** The connection for pipelined batches (fleet window); {@code null} while not connected. */
    StatefulRedisConnection<String, String> connection() {
        return commands;
    }

    String stateKey(String breaker) {
        return keyPrefix + breaker;
    }

    String generationKey(String breaker) {
        return keyPrefix + breaker + ":gen";
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
