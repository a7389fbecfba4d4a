package dev.breaker.core;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * An immutable picture of one breaker: its state, its window's counts and its recent transitions.
 *
 * <p>Window counts ({@code calls}, {@code failures}...) cover the current sliding window;
 * {@code calls} are successes, failures and timeouts (the calls that count toward the rates);
 * rates are percentages in [0, 100], 0 with no calls, timeouts weighted by {@code timeoutWeight};
 * {@code latency} covers the same calls, and is null when the breaker keeps no latency.
 */
public record Snapshot(
        String name, State state, Instant since,
        List<BucketCounts> buckets,
        long calls, long failures, long timeouts, long ignored, long throttled, long slowCalls,
        double failureRate, double slowCallRate,
        Latency latency,
        int consecutiveFailures, int inFlight,
        Probes probes,
        Instant openUntil,
        long trips,
        List<Transition> transitions,
        BreakerConfig config) {

    /** A snapshot without latency, as before latency was kept. */
    public Snapshot(String name, State state, Instant since, List<BucketCounts> buckets, long calls, long failures,
                    long timeouts, long ignored, long throttled, long slowCalls, double failureRate,
                    double slowCallRate, int consecutiveFailures, int inFlight, Probes probes, Instant openUntil,
                    long trips, List<Transition> transitions, BreakerConfig config) {
        this(name, state, since, buckets, calls, failures, timeouts, ignored, throttled, slowCalls, failureRate,
                slowCallRate, null, consecutiveFailures, inFlight, probes, openUntil, trips, transitions, config);
    }

    /**
     * The durations of the calls in the window, within about 10 % (the longest exactly): each the
     * nearest-rank percentile; 0 for calls too short to time and with no calls.
     */
    public record Latency(Duration p50, Duration p90, Duration p99, Duration p999, Duration max) {
    }

    /** The counts of one bucket of the window. */
    public record BucketCounts(Instant start, long successes, long failures, long timeouts,
                               long ignored, long throttled, long slow) {
    }

    /** Half-open progress: the current concurrent probe limit, probes in flight, verdicts so far. */
    public record Probes(int limit, int inFlight, int successes, int failures) {

        static final Probes NONE = new Probes(0, 0, 0, 0);
    }
}
