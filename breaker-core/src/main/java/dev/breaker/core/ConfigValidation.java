package dev.breaker.core;

import java.time.Duration;
import java.util.List;
import java.util.function.Function;

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

	/** One setting's range check: the setting, and where the builder holds its value. */
	private record Check(BreakerSetting setting, Function<BreakerConfig.Builder, Object> value) {
	}

	static void validate(BreakerConfig.Builder b) {
		for (Check range : Order.RANGES) {
			if (range.setting() == BreakerSetting.MAX_OPEN_WAIT) {
				// first: a missing or zero one is told it is tied to openWait
				maxOpenWaitAtLeastOpenWait(b);
			}
			check(range.setting(), range.value().apply(b));
			if (range.setting() == BreakerSetting.WINDOW) {
				windowInWholeBuckets(b);
			}
			else if (range.setting() == BreakerSetting.STALL_CALLS) {
				stallsWithinWindow(b);
			}
		}
		present("classifier", b.classifier);
		present("ticker", b.ticker);
		present("clock", b.clock);
	}

	/**
	 * Holds the order apart from the constants above: {@link BreakerSetting}'s rows read
	 * those constants while they are made, so the rows cannot be read in this class's own
	 * initialiser.
	 */
	private static final class Order {

		/**
		 * Every setting's range check, in the order {@link ConfigValidation#validate}
		 * runs them: the first bad setting in this order is the one reported, so keep the
		 * order.
		 */
		static final List<Check> RANGES = List.of(new Check(BreakerSetting.BUCKET, (b) -> b.bucket),
				new Check(BreakerSetting.WINDOW, (b) -> b.window),
				new Check(BreakerSetting.CONSECUTIVE_FAILURES, (b) -> b.consecutiveFailures),
				new Check(BreakerSetting.FAILURE_RATE_THRESHOLD, (b) -> b.failureRateThreshold),
				new Check(BreakerSetting.MINIMUM_CALLS, (b) -> b.minimumCalls),
				new Check(BreakerSetting.MINIMUM_CALLS_RATIO, (b) -> b.minimumCallsRatio),
				new Check(BreakerSetting.SLOW_CALL_DURATION, (b) -> b.slowCallDuration),
				new Check(BreakerSetting.SLOW_CALL_RATE_THRESHOLD, (b) -> b.slowCallRateThreshold),
				new Check(BreakerSetting.STALL_CALLS, (b) -> b.stallCalls),
				new Check(BreakerSetting.TIMEOUT_WEIGHT, (b) -> b.timeoutWeight),
				new Check(BreakerSetting.OPEN_WAIT, (b) -> b.openWait),
				new Check(BreakerSetting.OPEN_WAIT_MULTIPLIER, (b) -> b.openWaitMultiplier),
				new Check(BreakerSetting.MAX_OPEN_WAIT, (b) -> b.maxOpenWait),
				new Check(BreakerSetting.OPEN_WAIT_JITTER, (b) -> b.openWaitJitter),
				new Check(BreakerSetting.HALF_OPEN_MAX_PROBES, (b) -> b.halfOpenMaxProbes),
				new Check(BreakerSetting.HALF_OPEN_SUCCESSES_TO_CLOSE, (b) -> b.halfOpenSuccessesToClose),
				new Check(BreakerSetting.HALF_OPEN_FAILURES_TO_REOPEN, (b) -> b.halfOpenFailuresToReopen),
				new Check(BreakerSetting.HALF_OPEN_MAX_WAIT, (b) -> b.halfOpenMaxWait),
				new Check(BreakerSetting.RETRY_BUDGET_RATIO, (b) -> b.retryBudgetRatio),
				new Check(BreakerSetting.RETRY_BUDGET_MIN_PER_SECOND, (b) -> b.retryBudgetMinPerSecond));

	}

	private static void windowInWholeBuckets(BreakerConfig.Builder b) {
		if (b.window.toNanos() % b.bucket.toNanos() != 0) {
			String allowed = "a whole multiple of 'bucket' (" + Numbers.format(b.bucket) + ")";
			throw new InvalidBreakerConfigException("window", b.window, allowed, allowed);
		}
		if (b.window.toNanos() / b.bucket.toNanos() > MAX_BUCKETS) {
			String allowed = "at most " + MAX_BUCKETS + " buckets of " + Numbers.format(b.bucket);
			throw new InvalidBreakerConfigException("window", b.window, allowed, allowed);
		}
	}

	private static void stallsWithinWindow(BreakerConfig.Builder b) {
		if (b.stallCalls > 0 && b.slowCallDuration.compareTo(b.window) > 0) {
			String allowed = "at most 'window' (" + Numbers.format(b.window) + ") when 'stallCalls' is on";
			throw new InvalidBreakerConfigException("slowCallDuration", b.slowCallDuration, allowed, allowed);
		}
	}

	private static void maxOpenWaitAtLeastOpenWait(BreakerConfig.Builder b) {
		if (b.maxOpenWait == null || b.maxOpenWait.compareTo(b.openWait) < 0) {
			String allowed = "at least 'openWait' (" + Numbers.format(b.openWait) + ")";
			throw new InvalidBreakerConfigException("maxOpenWait", b.maxOpenWait, allowed, allowed);
		}
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
