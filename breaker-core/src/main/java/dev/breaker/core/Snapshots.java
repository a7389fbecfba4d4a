package dev.breaker.core;

import dev.breaker.core.internal.BucketWindow;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** Builds a {@link Snapshot} from a breaker's live structures. */
final class Snapshots {

	private Snapshots() {
	}

	static Snapshot of(Breaker breaker, BreakerState state, BucketWindow window, TripRules rules, TrafficPeaks peaks,
			Latencies latencies, List<Transition> transitions, long now) {
		Instant wallNow = breaker.config().clock().instant();
		long current = window.epoch(now) + state.era;
		long bucketNanos = window.bucketNanos();
		List<Snapshot.BucketCounts> buckets = new ArrayList<>(window.buckets());
		long[] sums = new long[BucketWindow.FINISHED_KINDS];
		for (long e = current - window.buckets() + 1; e <= current; e++) {
			long realEpoch = e - state.era;
			long[] c = new long[BucketWindow.FINISHED_KINDS];
			for (int k = 0; k <= BucketWindow.SLOW; k++) {
				c[k] = window.count(k, e);
				sums[k] += c[k];
			}
			Instant start = wallNow.minusNanos(now - realEpoch * bucketNanos);
			buckets.add(new Snapshot.BucketCounts(start, c[BucketWindow.SUCCESS], c[BucketWindow.FAILURE],
					c[BucketWindow.TIMEOUT], c[BucketWindow.IGNORED], c[BucketWindow.THROTTLED], c[BucketWindow.SLOW]));
		}
		long calls = sums[BucketWindow.SUCCESS] + sums[BucketWindow.FAILURE] + sums[BucketWindow.TIMEOUT];
		double failureRate = rules.failureRate(sums[BucketWindow.SUCCESS], sums[BucketWindow.FAILURE],
				sums[BucketWindow.TIMEOUT]);
		double slowCallRate = TripRules.slowCallRate(sums[BucketWindow.SLOW], calls);
		long finished = calls + sums[BucketWindow.IGNORED] + sums[BucketWindow.THROTTLED];
		Snapshot.Latency latency = latencies == null ? null : latencies.snapshot(now, state.era, finished);
		int consecutive = state instanceof ClosedState closed ? closed.consecutive() : 0;
		Snapshot.Probes probes = state instanceof HalfOpenState halfOpen ? halfOpen.probes() : Snapshot.Probes.NONE;
		Instant openUntil = state instanceof OpenState open ? open.untilInstant() : null;
		return new Snapshot(breaker.name(), state.state, state.since, List.copyOf(buckets), calls,
				sums[BucketWindow.FAILURE], sums[BucketWindow.TIMEOUT], sums[BucketWindow.IGNORED],
				sums[BucketWindow.THROTTLED], sums[BucketWindow.SLOW], failureRate, slowCallRate, latency, consecutive,
				(int) Math.min(Integer.MAX_VALUE, breaker.inFlight()), probes, openUntil, breaker.totals().trips(),
				transitions, breaker.config(), breaker.retryBudget(now), traffic(breaker, state, rules, peaks, now));
	}

	/**
	 * The traffic thresholds now: peaks (when followed), the effective minimum calls and
	 * probe count.
	 */
	private static Snapshot.Traffic traffic(Breaker breaker, BreakerState state, TripRules rules, TrafficPeaks peaks,
			long now) {
		int probes = state instanceof HalfOpenState halfOpen ? halfOpen.maxProbes() : breaker.maxProbes(now);
		if (peaks == null) {
			return new Snapshot.Traffic(false, 0, 0, rules.minimumCalls(now), probes);
		}
		return new Snapshot.Traffic(true, peaks.peakCallsPerWindow(now), peaks.peakConcurrentCalls(now),
				rules.minimumCalls(now), probes);
	}

}
