package dev.breaker.core;

import java.time.Duration;

/**
 * The checks of {@link BreakerConfig.Builder#build()}: each setting against its range in
 * {@link BreakerSetting}, in a fixed order, and the rules that tie two settings together.
 */
final class ConfigValidation {

	/** Most buckets a window may hold: bounds a breaker's memory. */
	static final long MAX_BUCKETS = 3600;

	/** Most concurrent half-open probes any config may allow. */
	static final int MAX_PROBES = 32;

	/** Longest bucket. */
	static final Duration MAX_BUCKET = Duration.ofHours(1);

	/**
	 * Longest window, slow-call duration, open wait and half-open max wait: far beyond
	 * any useful value, and far below where nanosecond arithmetic on the ticker could
	 * overflow.
	 */
	static final Duration MAX_DURATION = Duration.ofHours(24);

	/** Longest idle expiry of a registry's children. */
	static final Duration MAX_IDLE_EXPIRY = Duration.ofDays(7);

	/**
	 * Largest retry budget ratio: far beyond any retry count, so the budget never
	 * overflows a long.
	 */
	static final double MAX_RETRY_RATIO = 1000;

	/** Largest retry budget floor, per second. */
	static final double MAX_RETRIES_PER_SECOND = 1_000_000;

	/** Shortest bucket. */
	static final Duration MIN_BUCKET = Duration.ofMillis(1);

	private ConfigValidation() {
	}

	static void validate(BreakerConfig.Builder b) {
		check(BreakerSetting.BUCKET, b.bucket);
		check(BreakerSetting.WINDOW, b.window);
		if (b.window.toNanos() % b.bucket.toNanos() != 0) {
			String allowed = "a whole multiple of 'bucket' (" + Numbers.format(b.bucket) + ")";
			throw new InvalidBreakerConfigException("window", b.window, allowed, allowed);
		}
		if (b.window.toNanos() / b.bucket.toNanos() > MAX_BUCKETS) {
			String allowed = "at most " + MAX_BUCKETS + " buckets of " + Numbers.format(b.bucket);
			throw new InvalidBreakerConfigException("window", b.window, allowed, allowed);
		}
		check(BreakerSetting.CONSECUTIVE_FAILURES, b.consecutiveFailures);
		check(BreakerSetting.FAILURE_RATE_THRESHOLD, b.failureRateThreshold);
		check(BreakerSetting.MINIMUM_CALLS, b.minimumCalls);
		check(BreakerSetting.MINIMUM_CALLS_RATIO, b.minimumCallsRatio);
		check(BreakerSetting.SLOW_CALL_DURATION, b.slowCallDuration);
		check(BreakerSetting.SLOW_CALL_RATE_THRESHOLD, b.slowCallRateThreshold);
		check(BreakerSetting.STALL_CALLS, b.stallCalls);
		if (b.stallCalls > 0 && b.slowCallDuration.compareTo(b.window) > 0) {
			String allowed = "at most 'window' (" + Numbers.format(b.window) + ") when 'stallCalls' is on";
			throw new InvalidBreakerConfigException("slowCallDuration", b.slowCallDuration, allowed, allowed);
		}
		check(BreakerSetting.TIMEOUT_WEIGHT, b.timeoutWeight);
		check(BreakerSetting.OPEN_WAIT, b.openWait);
		check(BreakerSetting.OPEN_WAIT_MULTIPLIER, b.openWaitMultiplier);
		if (b.maxOpenWait == null || b.maxOpenWait.compareTo(b.openWait) < 0) {
			String allowed = "at least 'openWait' (" + Numbers.format(b.openWait) + ")";
			throw new InvalidBreakerConfigException("maxOpenWait", b.maxOpenWait, allowed, allowed);
		}
		check(BreakerSetting.MAX_OPEN_WAIT, b.maxOpenWait);
		check(BreakerSetting.OPEN_WAIT_JITTER, b.openWaitJitter);
		check(BreakerSetting.HALF_OPEN_MAX_PROBES, b.halfOpenMaxProbes);
		check(BreakerSetting.HALF_OPEN_SUCCESSES_TO_CLOSE, b.halfOpenSuccessesToClose);
		check(BreakerSetting.HALF_OPEN_FAILURES_TO_REOPEN, b.halfOpenFailuresToReopen);
		check(BreakerSetting.HALF_OPEN_MAX_WAIT, b.halfOpenMaxWait);
		check(BreakerSetting.RETRY_BUDGET_RATIO, b.retryBudgetRatio);
		check(BreakerSetting.RETRY_BUDGET_MIN_PER_SECOND, b.retryBudgetMinPerSecond);
		present("classifier", b.classifier);
		present("ticker", b.ticker);
		present("clock", b.clock);
	}

	/** Checks {@code value} against the range of {@code setting} in the table. */
	static void check(BreakerSetting setting, Object value) {
		setting.range().check(setting.settingName(), value);
	}

	private static void present(String setting, Object value) {
		if (value == null) {
			throw new InvalidBreakerConfigException(setting, null, "set", "not null");
		}
	}

}
