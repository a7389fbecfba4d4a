package dev.breaker.core;

import java.time.Clock;
import java.time.Duration;

/**
 * The immutable, validated settings of one breaker; a rule whose threshold is 0 is off.
 */
public final class BreakerConfig {

	private static final BreakerConfig DEFAULTS = new Builder().build();

	private final Duration window;

	private final Duration bucket;

	private final int consecutiveFailures;

	private final double failureRateThreshold;

	private final int minimumCalls;

	private final Duration slowCallDuration;

	private final double slowCallRateThreshold;

	private final int stallCalls;

	private final boolean trackInFlight;

	private final boolean recordLatency;

	private final double timeoutWeight;

	private final Duration openWait;

	private final double openWaitMultiplier;

	private final Duration maxOpenWait;

	private final double openWaitJitter;

	private final int halfOpenMaxProbes;

	private final int halfOpenSuccessesToClose;

	private final int halfOpenFailuresToReopen;

	private final Duration halfOpenMaxWait;

	private final boolean halfOpenMaxProbesAuto;

	private final double minimumCallsRatio;

	private final double retryBudgetRatio;

	private final double retryBudgetMinPerSecond;

	private final OutcomeClassifier classifier;

	private final Ticker ticker;

	private final Clock clock;

	private BreakerConfig(Builder b) {
		window = b.window;
		bucket = b.bucket;
		consecutiveFailures = b.consecutiveFailures;
		failureRateThreshold = b.failureRateThreshold;
		minimumCalls = b.minimumCalls;
		slowCallDuration = b.slowCallDuration;
		slowCallRateThreshold = b.slowCallRateThreshold;
		stallCalls = b.stallCalls;
		trackInFlight = b.trackInFlight;
		recordLatency = b.recordLatency;
		timeoutWeight = b.timeoutWeight;
		openWait = b.openWait;
		openWaitMultiplier = b.openWaitMultiplier;
		maxOpenWait = b.maxOpenWait;
		openWaitJitter = b.openWaitJitter;
		halfOpenMaxProbes = b.halfOpenMaxProbes;
		halfOpenSuccessesToClose = b.halfOpenSuccessesToClose;
		halfOpenFailuresToReopen = b.halfOpenFailuresToReopen;
		halfOpenMaxWait = b.halfOpenMaxWait;
		halfOpenMaxProbesAuto = b.halfOpenMaxProbesAuto;
		minimumCallsRatio = b.minimumCallsRatio;
		retryBudgetRatio = b.retryBudgetRatio;
		retryBudgetMinPerSecond = b.retryBudgetMinPerSecond;
		classifier = b.classifier;
		ticker = b.ticker;
		clock = b.clock;
	}

	/**
	 * The defaults: those of {@link BreakerSetting}, with the default classifier, cached
	 * ticker and UTC clock.
	 */
	public static BreakerConfig defaults() {
		return DEFAULTS;
	}

	/** A builder starting from the defaults. */
	public static Builder builder() {
		return new Builder();
	}

	/** A builder starting from this config. */
	public Builder toBuilder() {
		return new Builder(this);
	}

	/**
	 * Length of the sliding window the rates are computed over; see
	 * {@link BreakerSetting#WINDOW}.
	 */
	public Duration window() {
		return window;
	}

	/**
	 * Length of one bucket of the window (the window is a whole number of buckets); see
	 * {@link BreakerSetting#BUCKET}.
	 */
	public Duration bucket() {
		return bucket;
	}

	/**
	 * Consecutive failures that trip the breaker, 0 = rule off; see
	 * {@link BreakerSetting#CONSECUTIVE_FAILURES}.
	 */
	public int consecutiveFailures() {
		return consecutiveFailures;
	}

	/**
	 * Failure rate in percent that trips the breaker with at least
	 * {@link #minimumCalls()} calls, 0 = off; see
	 * {@link BreakerSetting#FAILURE_RATE_THRESHOLD}.
	 */
	public double failureRateThreshold() {
		return failureRateThreshold;
	}

	/**
	 * Calls the window must hold before a rate rule may trip; see
	 * {@link BreakerSetting#MINIMUM_CALLS}.
	 */
	public int minimumCalls() {
		return minimumCalls;
	}

	/**
	 * Raises {@link #minimumCalls()} with traffic: the rate rules need at least
	 * {@code ratio} times the peak calls per window of the last hour, 0 = off; see
	 * {@link BreakerSetting#MINIMUM_CALLS_RATIO}.
	 */
	public double minimumCallsRatio() {
		return minimumCallsRatio;
	}

	/**
	 * A call strictly longer than this is slow; see
	 * {@link BreakerSetting#SLOW_CALL_DURATION}.
	 */
	public Duration slowCallDuration() {
		return slowCallDuration;
	}

	/**
	 * Slow-call rate in percent that trips the breaker with at least
	 * {@link #minimumCalls()} calls, 0 = off; see
	 * {@link BreakerSetting#SLOW_CALL_RATE_THRESHOLD}.
	 */
	public double slowCallRateThreshold() {
		return slowCallRateThreshold;
	}

	/**
	 * Calls in flight longer than {@link #slowCallDuration()} that trip the breaker
	 * before they finish, 0 = off; see {@link BreakerSetting#STALL_CALLS}.
	 */
	public int stallCalls() {
		return stallCalls;
	}

	/**
	 * Whether calls in flight are counted ({@link Snapshot#inFlight()}); off by default,
	 * since it costs one more atomic update per acquire and per release. Always on when
	 * {@link #stallCalls()} is on.
	 */
	public boolean trackInFlight() {
		return trackInFlight || stallCalls > 0;
	}

	/**
	 * Whether call durations are kept ({@link Snapshot#latency()},
	 * {@link Breaker#durations()}); default true. Costs nothing for a call the ticker saw
	 * take no time, a few atomic adds for a timed one, and about 6.5 KiB per breaker.
	 */
	public boolean recordLatency() {
		return recordLatency;
	}

	/**
	 * What one TIMEOUT counts toward the failure rate (a FAILURE counts 1); see
	 * {@link BreakerSetting#TIMEOUT_WEIGHT}.
	 */
	public double timeoutWeight() {
		return timeoutWeight;
	}

	/**
	 * The failure rate the trip rules judge these counts by, in percent: weighted
	 * failures among weighted calls, {@code (f + w t) / (s + f + w t)} with {@code w} the
	 * {@link #timeoutWeight()}; 0 with no failures.
	 */
	public double failureRate(long successes, long failures, long timeouts) {
		return TripRules.failureRate(timeoutWeight, successes, failures, timeouts);
	}

	/**
	 * How long the breaker stays OPEN after its first trip; see
	 * {@link BreakerSetting#OPEN_WAIT}.
	 */
	public Duration openWait() {
		return openWait;
	}

	/**
	 * Factor applied to the open wait on each consecutive trip (reset when the breaker
	 * closes); see {@link BreakerSetting#OPEN_WAIT_MULTIPLIER}.
	 */
	public double openWaitMultiplier() {
		return openWaitMultiplier;
	}

	/** Cap of the multiplied open wait; see {@link BreakerSetting#MAX_OPEN_WAIT}. */
	public Duration maxOpenWait() {
		return maxOpenWait;
	}

	/**
	 * Random spread of the open wait, as a fraction (0.2 = +/-20%), so replicas do not
	 * return in lockstep; see {@link BreakerSetting#OPEN_WAIT_JITTER}.
	 */
	public double openWaitJitter() {
		return openWaitJitter;
	}

	/**
	 * Most concurrent half-open probes (the ramp goes 1, 2, 4... up to this); see
	 * {@link BreakerSetting#HALF_OPEN_MAX_PROBES}. With {@link #halfOpenMaxProbesAuto()},
	 * 32: the most any episode may get.
	 */
	public int halfOpenMaxProbes() {
		return halfOpenMaxProbesAuto ? ConfigValidation.MAX_PROBES : halfOpenMaxProbes;
	}

	/**
	 * Whether each half-open episode sizes its probes from traffic: 10% of the peak
	 * concurrent calls of the last hour, in [1, 32]; default false.
	 */
	public boolean halfOpenMaxProbesAuto() {
		return halfOpenMaxProbesAuto;
	}

	/**
	 * Probe successes that close the breaker; see
	 * {@link BreakerSetting#HALF_OPEN_SUCCESSES_TO_CLOSE}.
	 */
	public int halfOpenSuccessesToClose() {
		return halfOpenSuccessesToClose;
	}

	/**
	 * Probe failures that reopen the breaker; see
	 * {@link BreakerSetting#HALF_OPEN_FAILURES_TO_REOPEN}.
	 */
	public int halfOpenFailuresToReopen() {
		return halfOpenFailuresToReopen;
	}

	/**
	 * With no verdict within this time after entering HALF_OPEN, the breaker reopens; see
	 * {@link BreakerSetting#HALF_OPEN_MAX_WAIT}.
	 */
	public Duration halfOpenMaxWait() {
		return halfOpenMaxWait;
	}

	/**
	 * Retries may add this share of the calls the breaker saw in its window (on top of
	 * the minimum); see {@link BreakerSetting#RETRY_BUDGET_RATIO}.
	 */
	public double retryBudgetRatio() {
		return retryBudgetRatio;
	}

	/**
	 * Retries per second of the window the budget allows whatever the traffic, so a quiet
	 * service can retry; see {@link BreakerSetting#RETRY_BUDGET_MIN_PER_SECOND}.
	 */
	public double retryBudgetMinPerSecond() {
		return retryBudgetMinPerSecond;
	}

	/**
	 * Maps a call's result or exception to an {@link Outcome}; default
	 * {@link OutcomeClassifier#defaults()}.
	 */
	public OutcomeClassifier classifier() {
		return classifier;
	}

	/** Time source of every rule; default {@link Ticker#cached()}. */
	public Ticker ticker() {
		return ticker;
	}

	/**
	 * Wall clock for the timestamps of snapshots and transitions only; default UTC system
	 * clock.
	 */
	public Clock clock() {
		return clock;
	}

	@Override
	public String toString() {
		StringBuilder out = new StringBuilder("BreakerConfig[");
		for (BreakerSetting setting : BreakerSetting.of(BreakerSetting.Scope.ENGINE)) {
			if (out.length() > "BreakerConfig[".length()) {
				out.append(", ");
			}
			Object value = (setting == BreakerSetting.TRACK_IN_FLIGHT) ? trackInFlight : setting.read(this);
			out.append(setting.settingName()).append('=').append(value);
		}
		return out.append(']').toString();
	}

	/** Builds a {@link BreakerConfig}; {@link #build()} validates every setting. */
	public static final class Builder {

		// the defaults are the table's
		Duration window = BreakerSetting.WINDOW.defaultAs();

		Duration bucket = BreakerSetting.BUCKET.defaultAs();

		int consecutiveFailures = BreakerSetting.CONSECUTIVE_FAILURES.<Integer>defaultAs();

		double failureRateThreshold = BreakerSetting.FAILURE_RATE_THRESHOLD.<Double>defaultAs();

		int minimumCalls = BreakerSetting.MINIMUM_CALLS.<Integer>defaultAs();

		Duration slowCallDuration = BreakerSetting.SLOW_CALL_DURATION.defaultAs();

		double slowCallRateThreshold = BreakerSetting.SLOW_CALL_RATE_THRESHOLD.<Double>defaultAs();

		int stallCalls = BreakerSetting.STALL_CALLS.<Integer>defaultAs();

		boolean trackInFlight = BreakerSetting.TRACK_IN_FLIGHT.<Boolean>defaultAs();

		boolean recordLatency = BreakerSetting.RECORD_LATENCY.<Boolean>defaultAs();

		double timeoutWeight = BreakerSetting.TIMEOUT_WEIGHT.<Double>defaultAs();

		Duration openWait = BreakerSetting.OPEN_WAIT.defaultAs();

		double openWaitMultiplier = BreakerSetting.OPEN_WAIT_MULTIPLIER.<Double>defaultAs();

		Duration maxOpenWait = BreakerSetting.MAX_OPEN_WAIT.defaultAs();

		double openWaitJitter = BreakerSetting.OPEN_WAIT_JITTER.<Double>defaultAs();

		int halfOpenMaxProbes = BreakerSetting.HALF_OPEN_MAX_PROBES.<Integer>defaultAs();

		int halfOpenSuccessesToClose = BreakerSetting.HALF_OPEN_SUCCESSES_TO_CLOSE.<Integer>defaultAs();

		int halfOpenFailuresToReopen = BreakerSetting.HALF_OPEN_FAILURES_TO_REOPEN.<Integer>defaultAs();

		Duration halfOpenMaxWait = BreakerSetting.HALF_OPEN_MAX_WAIT.defaultAs();

		boolean halfOpenMaxProbesAuto = false;

		double minimumCallsRatio = BreakerSetting.MINIMUM_CALLS_RATIO.<Double>defaultAs();

		double retryBudgetRatio = BreakerSetting.RETRY_BUDGET_RATIO.<Double>defaultAs();

		double retryBudgetMinPerSecond = BreakerSetting.RETRY_BUDGET_MIN_PER_SECOND.<Double>defaultAs();

		OutcomeClassifier classifier = OutcomeClassifier.defaults();

		Ticker ticker = Ticker.cached();

		Clock clock = Clock.systemUTC();

		private Builder() {
		}

		private Builder(BreakerConfig c) {
			window = c.window;
			bucket = c.bucket;
			consecutiveFailures = c.consecutiveFailures;
			failureRateThreshold = c.failureRateThreshold;
			minimumCalls = c.minimumCalls;
			slowCallDuration = c.slowCallDuration;
			slowCallRateThreshold = c.slowCallRateThreshold;
			stallCalls = c.stallCalls;
			trackInFlight = c.trackInFlight;
			recordLatency = c.recordLatency;
			timeoutWeight = c.timeoutWeight;
			openWait = c.openWait;
			openWaitMultiplier = c.openWaitMultiplier;
			maxOpenWait = c.maxOpenWait;
			openWaitJitter = c.openWaitJitter;
			halfOpenMaxProbes = c.halfOpenMaxProbes;
			halfOpenSuccessesToClose = c.halfOpenSuccessesToClose;
			halfOpenFailuresToReopen = c.halfOpenFailuresToReopen;
			halfOpenMaxWait = c.halfOpenMaxWait;
			halfOpenMaxProbesAuto = c.halfOpenMaxProbesAuto;
			minimumCallsRatio = c.minimumCallsRatio;
			retryBudgetRatio = c.retryBudgetRatio;
			retryBudgetMinPerSecond = c.retryBudgetMinPerSecond;
			classifier = c.classifier;
			ticker = c.ticker;
			clock = c.clock;
		}

		public Builder window(Duration v) {
			window = v;
			return this;
		}

		public Builder bucket(Duration v) {
			bucket = v;
			return this;
		}

		public Builder consecutiveFailures(int v) {
			consecutiveFailures = v;
			return this;
		}

		public Builder failureRateThreshold(double v) {
			failureRateThreshold = v;
			return this;
		}

		public Builder minimumCalls(int v) {
			minimumCalls = v;
			return this;
		}

		public Builder slowCallDuration(Duration v) {
			slowCallDuration = v;
			return this;
		}

		public Builder slowCallRateThreshold(double v) {
			slowCallRateThreshold = v;
			return this;
		}

		public Builder stallCalls(int v) {
			stallCalls = v;
			return this;
		}

		public Builder trackInFlight(boolean v) {
			trackInFlight = v;
			return this;
		}

		public Builder recordLatency(boolean v) {
			recordLatency = v;
			return this;
		}

		public Builder timeoutWeight(double v) {
			timeoutWeight = v;
			return this;
		}

		public Builder openWait(Duration v) {
			openWait = v;
			return this;
		}

		public Builder openWaitMultiplier(double v) {
			openWaitMultiplier = v;
			return this;
		}

		public Builder maxOpenWait(Duration v) {
			maxOpenWait = v;
			return this;
		}

		public Builder openWaitJitter(double v) {
			openWaitJitter = v;
			return this;
		}

		/** A fixed number of probes (turns {@link #halfOpenMaxProbesAuto()} off). */
		public Builder halfOpenMaxProbes(int v) {
			halfOpenMaxProbes = v;
			halfOpenMaxProbesAuto = false;
			return this;
		}

		/**
		 * Probes sized from traffic in each half-open episode (see
		 * {@link BreakerConfig#halfOpenMaxProbesAuto()}).
		 */
		public Builder halfOpenMaxProbesAuto() {
			halfOpenMaxProbesAuto = true;
			return this;
		}

		public Builder minimumCallsRatio(double v) {
			minimumCallsRatio = v;
			return this;
		}

		public Builder retryBudgetRatio(double v) {
			retryBudgetRatio = v;
			return this;
		}

		public Builder retryBudgetMinPerSecond(double v) {
			retryBudgetMinPerSecond = v;
			return this;
		}

		public Builder halfOpenSuccessesToClose(int v) {
			halfOpenSuccessesToClose = v;
			return this;
		}

		public Builder halfOpenFailuresToReopen(int v) {
			halfOpenFailuresToReopen = v;
			return this;
		}

		public Builder halfOpenMaxWait(Duration v) {
			halfOpenMaxWait = v;
			return this;
		}

		public Builder classifier(OutcomeClassifier v) {
			classifier = v;
			return this;
		}

		public Builder ticker(Ticker v) {
			ticker = v;
			return this;
		}

		public Builder clock(Clock v) {
			clock = v;
			return this;
		}

		/**
		 * Validates every setting and builds the config.
		 * @throws InvalidBreakerConfigException naming the first bad setting, its value
		 * and what is allowed
		 */
		public BreakerConfig build() {
			ConfigValidation.validate(this);
			return new BreakerConfig(this);
		}

	}

}
