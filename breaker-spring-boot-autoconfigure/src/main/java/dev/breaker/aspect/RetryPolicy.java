package dev.breaker.aspect;

import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

import dev.breaker.core.Outcome;

/**
 * How a guarded call is retried: the pauses between attempts, their jitter and which
 * outcomes retry.
 *
 * @param intervals the pause before each retry; as many retries as intervals, empty for
 * none
 * @param jitter each pause is drawn from
 * {@code [interval * (1 - jitter), interval * (1 + jitter)]}; in [0, 1]
 * @param on the outcomes that retry (FAILURE, TIMEOUT, THROTTLED); a rejection never
 * retries
 * @param recordEachAttempt {@code false} (the default): the breaker sits outside the
 * retry and records the whole sequence once; {@code true}: every attempt asks the breaker
 * and is recorded
 */
public record RetryPolicy(List<Duration> intervals, double jitter, Set<Outcome> on, boolean recordEachAttempt) {

	/** No retries. */
	public static final RetryPolicy NONE = new RetryPolicy(List.of(), 0, EnumSet.noneOf(Outcome.class), false);

	public RetryPolicy {
		intervals = List.copyOf(intervals);
		on = (on.isEmpty()) ? EnumSet.noneOf(Outcome.class) : EnumSet.copyOf(on);
	}

	/**
	 * How many retries follow the first attempt.
	 * @return the number of intervals
	 */
	public int maxRetries() {
		return this.intervals.size();
	}

	/**
	 * Whether an attempt that ended with this outcome is retried (when retries are left).
	 * @param outcome the attempt's outcome
	 * @return whether to retry
	 */
	public boolean retries(Outcome outcome) {
		return this.on.contains(outcome);
	}

	/**
	 * The pause before retry number {@code retry} (0-based), jittered.
	 * @param retry the retry number, 0 for the first retry
	 * @param random a uniform random number in [0, 1)
	 * @return the pause
	 */
	public Duration pause(int retry, double random) {
		return jittered(this.intervals.get(retry), this.jitter, random);
	}

	/**
	 * An interval with jitter, the one way every retry (aspect and HTTP) draws its pause.
	 * @param interval the configured pause
	 * @param jitter the fraction in [0, 1] the pause may move either way
	 * @param random a uniform random number in [0, 1)
	 * @return a pause in {@code [interval * (1 - jitter), interval * (1 + jitter)]}
	 */
	public static Duration jittered(Duration interval, double jitter, double random) {
		double factor = 1 + jitter * (2 * random - 1);
		return Duration.ofNanos(Math.round(interval.toNanos() * factor));
	}

}
