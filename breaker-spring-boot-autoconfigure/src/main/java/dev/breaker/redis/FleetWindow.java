package dev.breaker.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

import dev.breaker.core.Breaker;
import dev.breaker.core.BreakerConfig;
import dev.breaker.core.BreakerRegistry;
import dev.breaker.core.Outcome;
import dev.breaker.core.State;
import dev.breaker.core.Totals;
import io.lettuce.core.ScriptOutputType;

/**
 * The fleet-wide window: every flush interval each replica adds the calls its breakers finished since the last
 * flush to Redis, and reads back the whole fleet's counts over the breaker's window; a closed breaker whose fleet
 * failure rate crosses its threshold opens, and tells the others.
 *
 * <p>Many low-traffic replicas that would each stay under {@code minimumCalls} can so trip together. The cost
 * is delay: a replica's calls reach the fleet window up to one flush interval late, so fleet-wide detection
 * comes up to one flush interval after the failures. Buckets are numbered by Redis's own clock ({@code TIME}),
 * so replica clocks never need to agree. Top-level breakers only (tenant children would multiply the keys).
 */
public final class FleetWindow implements AutoCloseable {

    private static final int BATCH = 100;

    // Per breaker i: KEYS[i] = window key base; ARGV[5i+1..5i+5] = bucketMs, buckets, successes, failures, timeouts (deltas).
    // Adds the deltas to the bucket Redis's clock is in, then returns {successes, failures, timeouts} over the window.
    private static final String FLUSH_SCRIPT = """
            local now = redis.call('TIME')
            local nowMs = tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000)
            local out = {}
            for i, base in ipairs(KEYS) do
              local o = (i - 1) * 5
              local bucketMs = tonumber(ARGV[o + 1])
              local n = tonumber(ARGV[o + 2])
              local current = math.floor(nowMs / bucketMs)
              if ARGV[o + 3] ~= '0' or ARGV[o + 4] ~= '0' or ARGV[o + 5] ~= '0' then
                local key = base .. current
                redis.call('HINCRBY', key, 's', ARGV[o + 3])
                redis.call('HINCRBY', key, 'f', ARGV[o + 4])
                redis.call('HINCRBY', key, 't', ARGV[o + 5])
                redis.call('PEXPIRE', key, bucketMs * (n + 1))
              end
              local s, f, t = 0, 0, 0
              for b = current - n + 1, current do
                local h = redis.call('HMGET', base .. b, 's', 'f', 't')
                s = s + (tonumber(h[1]) or 0)
                f = f + (tonumber(h[2]) or 0)
                t = t + (tonumber(h[3]) or 0)
              end
              out[i] = {s, f, t}
            end
            return out
            """;

    private final FleetSync sync;
    private final BreakerRegistry registry;
    private final RedisBreakerStore store;
    private final Duration flushInterval;
    private final Map<String, long[]> flushed = new ConcurrentHashMap<>();
    private ScheduledFuture<?> task;

    public FleetWindow(FleetSync sync, Duration flushInterval) {
        this.sync = sync;
        this.registry = sync.registry();
        this.store = sync.store();
        this.flushInterval = flushInterval;
    }

    /** Counts from now on (existing totals are history, not news) and flushes every flush interval on the sync thread. */
    public void start() {
        for (Breaker breaker : registry.breakers()) {
            flushed.putIfAbsent(breaker.name(), counts(breaker.totals()));
        }
        registry.onCreated(breaker -> {
            if (breaker.parent() == null) {
                flushed.putIfAbsent(breaker.name(), counts(breaker.totals()));
            }
        });
        registry.onRemoved(breaker -> flushed.remove(breaker.name()));
        long millis = flushInterval.toMillis();
        task = sync.executor().scheduleWithFixedDelay(this::flush, millis, millis, TimeUnit.MILLISECONDS);
    }

    /** One flush: all breakers in batches of one script each (a single round trip per batch). */
    void flush() {
        List<Breaker> batch = new ArrayList<>(BATCH);
        List<long[]> deltas = new ArrayList<>(BATCH);
        for (Breaker breaker : registry.breakers()) {
            long[] delta = delta(breaker);
            if (delta == null) {
                continue;
            }
            batch.add(breaker);
            deltas.add(delta);
            if (batch.size() == BATCH) {
                send(batch, deltas);
                batch = new ArrayList<>(BATCH);
                deltas = new ArrayList<>(BATCH);
            }
        }
        if (!batch.isEmpty()) {
            send(batch, deltas);
        }
    }

    /** Calls finished since the last flush (or since the window started counting this breaker). */
    private long[] delta(Breaker breaker) {
        long[] now = counts(breaker.totals());
        long[] before = flushed.put(breaker.name(), now);
        if (before == null) {
            return new long[3]; // created before start() attached: its history stays out
        }
        return new long[] {now[0] - before[0], now[1] - before[1], now[2] - before[2]};
    }

    private static long[] counts(Totals totals) {
        return new long[] {totals.calls(Outcome.SUCCESS), totals.calls(Outcome.FAILURE), totals.calls(Outcome.TIMEOUT)};
    }

    private void send(List<Breaker> breakers, List<long[]> deltas) {
        String[] keys = new String[breakers.size()];
        String[] args = new String[breakers.size() * 5];
        for (int i = 0; i < breakers.size(); i++) {
            BreakerConfig config = breakers.get(i).config();
            long bucketMillis = config.bucket().toMillis();
            keys[i] = store.stateKey(breakers.get(i).name()) + ":window:";
            args[i * 5] = Long.toString(bucketMillis);
            args[i * 5 + 1] = Long.toString(config.window().toMillis() / bucketMillis);
            args[i * 5 + 2] = Long.toString(deltas.get(i)[0]);
            args[i * 5 + 3] = Long.toString(deltas.get(i)[1]);
            args[i * 5 + 4] = Long.toString(deltas.get(i)[2]);
        }
        store.<List<Object>>eval(FLUSH_SCRIPT, ScriptOutputType.MULTI, keys, args).whenComplete((rows, error) -> {
            if (error != null) {
                // these calls never reach the fleet window; the local window still counted them
                return;
            }
            sync.executor().execute(() -> {
                for (int i = 0; i < breakers.size(); i++) {
                    List<?> row = (List<?>) rows.get(i);
                    judge(breakers.get(i), ((Number) row.get(0)).longValue(), ((Number) row.get(1)).longValue(),
                            ((Number) row.get(2)).longValue());
                }
            });
        });
    }

    /** Opens a closed breaker whose fleet-wide failure rate crosses its own threshold. */
    void judge(Breaker breaker, long successes, long failures, long timeouts) {
        BreakerConfig config = breaker.config();
        long calls = successes + failures + timeouts;
        if (config.failureRateThreshold() == 0 || calls == 0 || calls < config.minimumCalls()) {
            return;
        }
        double rate = 100.0 * Math.min(calls, failures + config.timeoutWeight() * timeouts) / calls;
        if (rate < config.failureRateThreshold() || breaker.state() != State.CLOSED) {
            return;
        }
        String reason = String.format(java.util.Locale.ROOT, "fleet failure rate %.1f%% >= %s%% over %d calls",
                rate, trim(config.failureRateThreshold()), calls);
        breaker.openFromPeer(config.openWait(), reason);
        sync.publishFleetTrip(breaker, reason);
    }

    private static String trim(double value) {
        return value == Math.rint(value) ? Long.toString((long) value) : Double.toString(value);
    }

    @Override
    public void close() {
        if (task != null) {
            task.cancel(false);
        }
    }
}
