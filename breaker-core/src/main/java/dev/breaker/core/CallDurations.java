package dev.breaker.core;

import java.time.Duration;
import java.util.List;

/**
 * The durations of every call a breaker recorded, by outcome, as a cumulative histogram
 * for metrics: never reset, never decreasing, read from the engine without costing a call
 * anything.
 */
public interface CallDurations {

	/**
	 * The upper bounds of the histogram's buckets, ascending: 1ms, 2.5ms, 5ms, 10ms,
	 * 25ms, 50ms, 100ms, 250ms, 500ms, 1s, 2.5s, 5s, 10s, 30s, 1m, and the breaker's
	 * {@code slowCallDuration} among them.
	 */
	List<Duration> bounds();

	/**
	 * Calls with {@code outcome} that took at most {@code bounds().get(bound)}; with
	 * {@code bound ==
	 * bounds().size()}, all of them (as {@link Totals#calls(Outcome)}). Never decreases,
	 * and never exceeds the count of a higher bound read after it.
	 */
	long count(Outcome outcome, int bound);

	/**
	 * The time the calls with {@code outcome} took, in seconds (each call to the
	 * microsecond, at most 24 h).
	 */
	double totalSeconds(Outcome outcome);

	/**
	 * Every call recorded so far, whatever its outcome, in log-scale bins: subtract an
	 * earlier one for any period.
	 */
	LatencyHistogram histogram();

}
