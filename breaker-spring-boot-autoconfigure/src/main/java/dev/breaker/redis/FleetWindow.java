package dev.breaker.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

import dev.breaker.core.Breaker;
import dev.breaker.core.BreakerConfig;
import dev.breaker.core.BreakerRegistry;
import dev.breaker.core.Numbers;
import dev.breaker.core.Outcome;
import dev.breaker.core.State;
import dev.breaker.core.Totals;

/**
 * The fleet-wide window: every flush interval each replica stores its breakers' counts of
 * the current bucket in Redis and reads back every replica's counts over the breaker's
 * window; a closed breaker whose fleet failure rate (the engine's own formula, timeouts
 * weighted) crosses its threshold trips as its own rule would (counted, open wait with
 * backoff and jitter), and the fleet opens with it, whatever the quorum.
 *
 * <p>
 * Many low-traffic replicas that would each stay under {@code minimumCalls} can so trip
 * together. The cost is delay: a replica's calls reach the fleet window up to one flush
 * interval late. Each replica writes only its own field per bucket
 * ({@code <bucket>:<replica>}, absolute counts, signed when signing is on), so a write is
 * idempotent and one replica cannot alter another's counts. Buckets are numbered by
 * Redis's clock as this replica estimates it ({@link RedisClock}): a count that lands in
 * a neighbouring bucket still counts in the window (in a Cluster, the primaries' clocks
 * must agree to within a bucket, as NTP keeps them). Top-level breakers only (tenant
 * children would multiply the keys).
 */
public final class FleetWindow implements AutoCloseable {

	private static final int BATCH = 100;

	/**
	 * What one breaker has counted: its totals at the last flush, and this replica's
	 * counts per Redis bucket.
	 */
	private static final class Counted {

		long[] flushed;

		final TreeMap<Long, long[]> buckets = new TreeMap<>();

		Counted(long[] flushed) {
			this.flushed = flushed;
		}

	}

	private final FleetSync sync;

	private final BreakerRegistry registry;

	private final RedisBreakerStore store;

	private final Trust trust;

	private final Duration flushInterval;

	private final Map<String, Counted> counted = new ConcurrentHashMap<>();

	private ScheduledFuture<?> task;

	public FleetWindow(FleetSync sync, Duration flushInterval) {
		this.sync = sync;
		this.registry = sync.registry();
		this.store = sync.store();
		this.trust = sync.trust();
		this.flushInterval = flushInterval;
	}

	/**
	 * Counts from now on (existing totals are history, not news) and flushes every flush
	 * interval on the sync thread.
	 */
	public void start() {
		for (Breaker breaker : registry.breakers()) {
			counted.putIfAbsent(breaker.name(), new Counted(counts(breaker.totals())));
		}
		registry.onCreated(breaker -> {
			if (breaker.parent() == null && breaker.key() == null) {
				counted.putIfAbsent(breaker.name(), new Counted(counts(breaker.totals())));
			}
		});
		registry.onRemoved(breaker -> counted.remove(breaker.name()));
		long millis = flushInterval.toMillis();
		task = sync.thread()
			.executor()
			.scheduleWithFixedDelay(() -> sync.thread().submit(this::flush), millis, millis, TimeUnit.MILLISECONDS);
	}

	/**
	 * One flush: all breakers in batches of one script each (a single round trip per
	 * batch). In a Cluster a script may only touch one hash slot, so a batch holds
	 * breakers of one slot (each breaker's keys share its slot).
	 */
	void flush() {
		long redisNow = trust.clock().now();
		if (redisNow < 0) {
			return; // Redis's clock is not known yet: nothing can be placed in a bucket
		}
		Map<Integer, Batch> batches = new HashMap<>();
		boolean cluster = store.cluster();
		for (Breaker breaker : registry.breakers()) {
			Counted c = counted.computeIfAbsent(breaker.name(), n -> new Counted(counts(breaker.totals())));
			BreakerConfig config = breaker.config();
			long bucketMillis = config.bucket().toMillis();
			long buckets = config.window().toMillis() / bucketMillis;
			long bucket = Math.floorDiv(redisNow, bucketMillis);
			long[] now = counts(breaker.totals());
			long[] delta = { now[0] - c.flushed[0], now[1] - c.flushed[1], now[2] - c.flushed[2] };
			c.flushed = now;
			c.buckets.headMap(bucket - buckets, true).clear();
			String field = "";
			String value = "";
			if (delta[0] != 0 || delta[1] != 0 || delta[2] != 0) {
				long[] own = c.buckets.computeIfAbsent(bucket, b -> new long[3]);
				own[0] += delta[0];
				own[1] += delta[1];
				own[2] += delta[2];
				field = bucket + ":" + sync.replicaId();
				value = trust.windowCounts(breaker.name(), field, own[0], own[1], own[2]);
			}
			String key = store.keys().window(breaker.name());
			int group = cluster ? RedisBreakerStore.slot(key) : 0;
			Batch batch = batches.computeIfAbsent(group, slot -> new Batch());
			batch.add(breaker, key, Long.toString(bucketMillis), Long.toString(buckets), field, value);
			if (batch.breakers.size() == BATCH) {
				send(batches.remove(group));
			}
		}
		batches.values().forEach(this::send);
	}

	/**
	 * Breakers whose window keys go to Redis in one script, with the script's keys and
	 * arguments.
	 */
	private static final class Batch {

		final List<Breaker> breakers = new ArrayList<>();

		final List<String> keys = new ArrayList<>();

		final List<String> args = new ArrayList<>();

		void add(Breaker breaker, String key, String... breakerArgs) {
			breakers.add(breaker);
			keys.add(key);
			args.addAll(List.of(breakerArgs));
		}

	}

	private static long[] counts(Totals totals) {
		return new long[] { totals.calls(Outcome.SUCCESS), totals.calls(Outcome.FAILURE),
				totals.calls(Outcome.TIMEOUT) };
	}

	private void send(Batch batch) {
		List<Breaker> breakers = batch.breakers;
		store.window(batch.keys.toArray(String[]::new), batch.args.toArray(String[]::new))
			.whenComplete((rows, error) -> {
				if (error != null) {
					// these counts reach the fleet window with the next flush; the local
					// window counted them
					return;
				}
				sync.thread().submit(() -> {
					for (int i = 0; i < breakers.size(); i++) {
						Breaker breaker = breakers.get(i);
						long[] sum = new long[3];
						List<?> fields = (List<?>) rows.get(i);
						for (int j = 0; j + 1 < fields.size(); j += 2) {
							long[] c = trust.windowCounts(breaker.name(), String.valueOf(fields.get(j)),
									String.valueOf(fields.get(j + 1)));
							if (c != null) {
								sum[0] += c[0];
								sum[1] += c[1];
								sum[2] += c[2];
							}
						}
						judge(breaker, sum[0], sum[1], sum[2]);
					}
				});
			});
	}

	/**
	 * Trips a closed breaker whose fleet-wide failure rate, by the engine's formula,
	 * crosses its own threshold.
	 */
	void judge(Breaker breaker, long successes, long failures, long timeouts) {
		BreakerConfig config = breaker.config();
		long calls = successes + failures + timeouts;
		if (config.failureRateThreshold() == 0 || calls == 0 || calls < config.minimumCalls()) {
			return;
		}
		double rate = config.failureRate(successes, failures, timeouts);
		if (rate < config.failureRateThreshold() || breaker.state() != State.CLOSED) {
			return;
		}
		String reason = String.format(Locale.ROOT, "fleet failure rate %.1f%% >= %s%% over %d calls", rate,
				Numbers.exact(config.failureRateThreshold()), calls);
		sync.tripFromFleetWindow(breaker, reason);
	}

	@Override
	public void close() {
		if (task != null) {
			task.cancel(false);
		}
	}

}
