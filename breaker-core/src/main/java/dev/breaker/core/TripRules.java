package dev.breaker.core;

import dev.breaker.core.internal.BucketWindow;
import java.time.Duration;

/**
 * The trip rules of one config: each answers with the reason to trip ("which rule, which
 * numbers"), or null.
 */
final class TripRules {

	final int consecutiveFailures;

	final double failureRateThreshold;

	final double slowCallRateThreshold;

	final int minimumCalls;

	final double timeoutWeight;

	final long slowNanos;

	final int stallCalls;

	private final String slowText;

	/**
	 * The traffic of the last hour when the breaker follows it (see
	 * TrafficPeaks#minimumCalls), else null.
	 */
	private final TrafficPeaks peaks;

	TripRules(BreakerConfig config, TrafficPeaks peaks) {
		consecutiveFailures = config.consecutiveFailures();
		failureRateThreshold = config.failureRateThreshold();
		slowCallRateThreshold = config.slowCallRateThreshold();
		minimumCalls = config.minimumCalls();
		timeoutWeight = config.timeoutWeight();
		slowNanos = config.slowCallDuration().toNanos();
		stallCalls = config.stallCalls();
		slowText = Numbers.format(config.slowCallDuration());
		this.peaks = peaks;
	}

	/**
	 * The calls a rate rule needs at {@code now}: minimumCalls, raised with traffic by
	 * minimumCallsRatio.
	 */
	int minimumCalls(long now) {
		return peaks == null ? minimumCalls : peaks.minimumCalls(now);
	}

	/** Whether an outcome counts as a failure (a TIMEOUT does unless its weight is 0). */
	boolean isFailure(Outcome outcome) {
		return outcome == Outcome.FAILURE || outcome == Outcome.TIMEOUT && timeoutWeight > 0;
	}

	/** Whether an outcome counts toward the rates (and so may be slow). */
	static boolean counts(Outcome outcome) {
		return outcome.ordinal() <= Outcome.TIMEOUT.ordinal();
	}

	boolean slowRuleOn() {
		return slowCallRateThreshold > 0;
	}

	boolean ratesOn() {
		return failureRateThreshold > 0 || slowCallRateThreshold > 0;
	}

	String consecutive(int failures) {
		return consecutiveFailures > 0 && failures >= consecutiveFailures
				? "consecutive failures " + failures + " >= " + consecutiveFailures : null;
	}

	/**
	 * The failure-rate and slow-call-rate rules over {@code closed}'s window ending at
	 * {@code now}.
	 */
	String rates(BucketWindow window, ClosedState closed, long now) {
		if (!ratesOn()) {
			return null;
		}
		long era = closed.era;
		long successes = window.sum(BucketWindow.SUCCESS, now, era);
		long failures = window.sum(BucketWindow.FAILURE, now, era);
		long timeouts = window.sum(BucketWindow.TIMEOUT, now, era);
		long calls = successes + failures + timeouts;
		int minimum = minimumCalls(now);
		// Below minimumCalls every success is checked (the one that reaches it may trip);
		// between it and a minimum raised by traffic, once per tick: a raised minimum can
		// be thousands of calls; checking each would put a window read on the hot path.
		closed.rateChecked(now, calls < minimumCalls);
		if (calls < minimum) {
			return null;
		}
		if (failureRateThreshold > 0) {
			double rate = failureRate(successes, failures, timeouts);
			if (rate >= failureRateThreshold) {
				return "failure rate " + Numbers.format(rate) + "% >= " + Numbers.exact(failureRateThreshold)
						+ "% over " + calls + " calls";
			}
		}
		if (slowCallRateThreshold > 0) {
			double rate = slowCallRate(window.sum(BucketWindow.SLOW, now, era), calls);
			if (rate >= slowCallRateThreshold) {
				return "slow-call rate " + Numbers.format(rate) + "% >= " + Numbers.exact(slowCallRateThreshold)
						+ "% over " + calls + " calls";
			}
		}
		return null;
	}

	/**
	 * The stall rule: calls of {@code closed} in flight longer than slowCallDuration
	 * (counted a bucket late at most).
	 */
	String stall(ClosedState closed, long now) {
		long stalled = closed.inFlight.sumEndedBy(0, now - slowNanos, now);
		return stalled >= stallCalls ? "stall: " + stalled + " calls in flight longer than " + slowText : null;
	}

	/** Percent of weighted failures among weighted calls: (f + w t) / (s + f + w t). */
	double failureRate(long successes, long failures, long timeouts) {
		return failureRate(timeoutWeight, successes, failures, timeouts);
	}

	/**
	 * As {@link #failureRate(long, long, long)}, with the weight {@code timeoutWeight}.
	 */
	static double failureRate(double timeoutWeight, long successes, long failures, long timeouts) {
		double weighted = failures + timeoutWeight * timeouts;
		return weighted == 0 ? 0 : 100 * weighted / (successes + weighted);
	}

	static double slowCallRate(long slow, long calls) {
		return calls == 0 ? 0 : Math.min(100, 100.0 * slow / calls);
	}

	/**
	 * The open wait of the {@code streak}-th consecutive trip: multiplied, then drawn
	 * evenly ({@code random} in [0, 1]) from base ± jitter cut at the cap, with the base
	 * capped first: at the cap, from {@code max × (1 − jitter)} to {@code max}. Never
	 * above the cap, and no share of the draws piles up on it, so replicas that tripped
	 * together in a long outage still return spread out.
	 */
	static long openWaitNanos(BreakerConfig config, int streak, double random) {
		double base = config.openWait().toNanos() * Math.pow(config.openWaitMultiplier(), Math.max(0, streak - 1));
		double max = config.maxOpenWait().toNanos();
		double jitter = config.openWaitJitter();
		double lowest = Math.min(base, max) * (1 - jitter);
		double highest = Math.min(base * (1 + jitter), max);
		return (long) Math.max(1, Math.min(highest, lowest + (highest - lowest) * random));
	}

	static String waitText(long nanos) {
		return Numbers.format(Duration.ofMillis(Math.max(1, Math.round(nanos / 1e6))));
	}

}
