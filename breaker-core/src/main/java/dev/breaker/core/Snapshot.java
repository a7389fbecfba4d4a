package dev.breaker.core;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * An immutable picture of one breaker: its state, its window's counts and its recent
 * transitions.
 *
 * <p>
 * Window counts ({@code calls}, {@code failures}...) cover the current sliding window;
 * {@code calls} are successes, failures and timeouts (the calls that count toward the
 * rates); rates are percentages in [0, 100], 0 with no calls, timeouts weighted by
 * {@code timeoutWeight}; {@code latency} covers the same calls, and is null when the
 * breaker keeps no latency.
 */
public record Snapshot(String name, State state, Instant since, List<BucketCounts> buckets, long calls, long failures,
		long timeouts, long ignored, long throttled, long slowCalls, double failureRate, double slowCallRate,
		@Nullable Latency latency, int consecutiveFailures, int inFlight, Probes probes, @Nullable Instant openUntil,
		long trips, List<Transition> transitions, BreakerConfig config, RetryBudget retryBudget, Traffic traffic) {

	/**
	 * The durations of the calls in the window, within about 10 % (the longest exactly):
	 * each the nearest-rank percentile; 0 for calls too short to time and with no calls.
	 */
	public record Latency(Duration p50, Duration p90, Duration p99, Duration p999, Duration max) {
	}

	/** The counts of one bucket of the window. */
	public record BucketCounts(Instant start, long successes, long failures, long timeouts, long ignored,
			long throttled, long slow) {
	}

	/**
	 * The retry budget over the window: {@code retries} made of the {@code allowed}
	 * (retryBudgetRatio x {@code firstAttempts} + retryBudgetMinPerSecond x window
	 * seconds). A registry child shows its group's budget, which it shares:
	 * {@code breaker} names whose budget it is.
	 */
	public record RetryBudget(String breaker, long firstAttempts, long allowed, long retries) {

		/** Retries still allowed in the window now. */
		public long remaining() {
			return Math.max(0, allowed - retries);
		}
	}

	/**
	 * Thresholds that follow traffic: the calls a rate rule needs now
	 * ({@code minimumCalls}, raised by minimumCallsRatio) and the most probes of the
	 * current half-open episode, or of one starting now ({@code maxProbes}, sized from
	 * traffic with auto probes); with {@code tracked}, the peaks of the last hour they
	 * follow: the most calls one window held and the highest average concurrency of one
	 * bucket.
	 */
	public record Traffic(boolean tracked, long peakCallsPerWindow, double peakConcurrentCalls, int minimumCalls,
			int maxProbes) {
	}

	/**
	 * Half-open progress: the current concurrent probe limit, probes in flight, verdicts
	 * so far.
	 */
	public record Probes(int limit, int inFlight, int successes, int failures) {

		static final Probes NONE = new Probes(0, 0, 0, 0);

	}
}
