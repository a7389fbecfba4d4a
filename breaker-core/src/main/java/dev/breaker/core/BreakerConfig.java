package dev.breaker.core;

import java.time.Clock;
import java.time.Duration;

/**
 * The immutable, validated settings of one breaker; a rule whose threshold is 0 is off.
 */
public final class BreakerConfig {

	private static final BreakerConfig DEFAULTS = new Builder().build();

	/**
	 * What {@link Builder#build()} was given: a copy no one else holds, never written
	 * after the constructor (a final field publishes it whole).
	 */
	private final Builder settings;

	/**
	 * Read on every call ({@link Breaker#classify}): loaded directly, not through the
	 * copy.
	 */
	private final OutcomeClassifier classifier;

	/** Takes {@code validated}: the copy {@link Builder#build()} made and checked. */
	private BreakerConfig(Builder validated) {
		settings = validated;
		classifier = validated.classifier;
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
		return new Builder(settings);
	}

	/**
	 * Length of the sliding window the rates are computed over; see
	 * {@link BreakerSetting#WINDOW}.
	 */
	public Duration window() {
		return settings.window;
	}

	/**
	 * Length of one bucket of the window (the window is a whole number of buckets); see
	 * {@link BreakerSetting#BUCKET}.
	 */
	public Duration bucket() {
		return settings.bucket;
	}

	/**
	 * Consecutive failures that trip the breaker, 0 = rule off; see
	 * {@link BreakerSetting#CONSECUTIVE_FAILURES}.
	 */
	public int consecutiveFailures() {
		return settings.consecutiveFailures;
	}

	/**
	 * Failure rate in percent that trips the breaker with at least
	 * {@link #minimumCalls()} calls, 0 = off; see
	 * {@link BreakerSetting#FAILURE_RATE_THRESHOLD}.
	 */
	public double failureRateThreshold() {
		return settings.failureRateThreshold;
	}

	/**
	 * Calls the window must hold before a rate rule may trip; see
	 * {@link BreakerSetting#MINIMUM_CALLS}.
	 */
	public int minimumCalls() {
		return settings.minimumCalls;
	}

	/**
	 * Raises {@link #minimumCalls()} with traffic: the rate rules need at least
	 * {@code ratio} times the peak calls per window of the last hour, 0 = off; see
	 * {@link BreakerSetting#MINIMUM_CALLS_RATIO}.
	 */
	public double minimumCallsRatio() {
		return settings.minimumCallsRatio;
	}

	/**
	 * A call strictly longer than this is slow; see
	 * {@link BreakerSetting#SLOW_CALL_DURATION}.
	 */
	public Duration slowCallDuration() {
		return settings.slowCallDuration;
	}

	/**
	 * Slow-call rate in percent that trips the breaker with at least
	 * {@link #minimumCalls()} calls, 0 = off; see
	 * {@link BreakerSetting#SLOW_CALL_RATE_THRESHOLD}.
	 */
	public double slowCallRateThreshold() {
		return settings.slowCallRateThreshold;
	}

	/**
	 * Calls in flight longer than {@link #slowCallDuration()} that trip the breaker
	 * before they finish, 0 = off; see {@link BreakerSetting#STALL_CALLS}.
	 */
	public int stallCalls() {
		return settings.stallCalls;
	}

	/**
	 * Whether calls in flight are counted ({@link Snapshot#inFlight()}); off by default,
	 * since it costs one more atomic update per acquire and per release. Always on when
	 * {@link #stallCalls()} is on.
	 */
	public boolean trackInFlight() {
		return settings.trackInFlight || settings.stallCalls > 0;
	}

	/**
	 * Whether call durations are kept ({@link Snapshot#latency()},
	 * {@link Breaker#durations()}); default true. Costs nothing for a call the ticker saw
	 * take no time, a few atomic adds for a timed one, and about 6.5 KiB per breaker.
	 */
	public boolean recordLatency() {
		return settings.recordLatency;
	}

	/**
	 * What one TIMEOUT counts toward the failure rate (a FAILURE counts 1); see
	 * {@link BreakerSetting#TIMEOUT_WEIGHT}.
	 */
	public double timeoutWeight() {
		return settings.timeoutWeight;
	}

	/**
	 * The failure rate the trip rules judge these counts by, in percent: weighted
	 * failures among weighted calls, {@code (f + w t) / (s + f + w t)} with {@code w} the
	 * {@link #timeoutWeight()}; 0 with no failures.
	 */
	public double failureRate(long successes, long failures, long timeouts) {
		return TripRules.failureRate(settings.timeoutWeight, successes, failures, timeouts);
	}

	/**
	 * How long the breaker stays OPEN after its first trip; see
	 * {@link BreakerSetting#OPEN_WAIT}.
	 */
	public Duration openWait() {
		return settings.openWait;
	}

	/**
	 * Factor applied to the open wait on each consecutive trip (reset when the breaker
	 * closes); see {@link BreakerSetting#OPEN_WAIT_MULTIPLIER}.
	 */
	public double openWaitMultiplier() {
		return settings.openWaitMultiplier;
	}

	/** Cap of the multiplied open wait; see {@link BreakerSetting#MAX_OPEN_WAIT}. */
	public Duration maxOpenWait() {
		return settings.maxOpenWait;
	}

	/**
	 * Random spread of the open wait, as a fraction (0.2 = +/-20%), so replicas do not
	 * return in lockstep; see {@link BreakerSetting#OPEN_WAIT_JITTER}.
	 */
	public double openWaitJitter() {
		return settings.openWaitJitter;
	}

	/**
	 * Most concurrent half-open probes (the ramp goes 1, 2, 4... up to this); see
	 * {@link BreakerSetting#HALF_OPEN_MAX_PROBES}. With {@link #halfOpenMaxProbesAuto()},
	 * 32: the most any episode may get.
	 */
	public int halfOpenMaxProbes() {
		return settings.halfOpenMaxProbesAuto ? ConfigValidation.MAX_PROBES : settings.halfOpenMaxProbes;
	}

	/**
	 * Whether each half-open episode sizes its probes from traffic: 10% of the peak
	 * concurrent calls of the last hour, in [1, 32]; default false.
	 */
	public boolean halfOpenMaxProbesAuto() {
		return settings.halfOpenMaxProbesAuto;
	}

	/**
	 * Probe successes that close the breaker; see
	 * {@link BreakerSetting#HALF_OPEN_SUCCESSES_TO_CLOSE}.
	 */
	public int halfOpenSuccessesToClose() {
		return settings.halfOpenSuccessesToClose;
	}

	/**
	 * Probe failures that reopen the breaker; see
	 * {@link BreakerSetting#HALF_OPEN_FAILURES_TO_REOPEN}.
	 */
	public int halfOpenFailuresToReopen() {
		return settings.halfOpenFailuresToReopen;
	}

	/**
	 * With no verdict within this time after entering HALF_OPEN, the breaker reopens; see
	 * {@link BreakerSetting#HALF_OPEN_MAX_WAIT}.
	 */
	public Duration halfOpenMaxWait() {
		return settings.halfOpenMaxWait;
	}

	/**
	 * Retries may add this share of the calls the breaker saw in its window (on top of
	 * the minimum); see {@link BreakerSetting#RETRY_BUDGET_RATIO}.
	 */
	public double retryBudgetRatio() {
		return settings.retryBudgetRatio;
	}

	/**
	 * Retries per second of the window the budget allows whatever the traffic, so a quiet
	 * service can retry; see {@link BreakerSetting#RETRY_BUDGET_MIN_PER_SECOND}.
	 */
	public double retryBudgetMinPerSecond() {
		return settings.retryBudgetMinPerSecond;
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
		return settings.ticker;
	}

	/**
	 * Wall clock for the timestamps of snapshots and transitions only; default UTC system
	 * clock.
	 */
	public Clock clock() {
		return settings.clock;
	}

	@Override
	public String toString() {
		StringBuilder out = new StringBuilder("BreakerConfig[");
		for (BreakerSetting setting : BreakerSetting.of(BreakerSetting.Scope.ENGINE)) {
			if (out.length() > "BreakerConfig[".length()) {
				out.append(", ");
			}
			Object value = (setting == BreakerSetting.TRACK_IN_FLIGHT) ? settings.trackInFlight : setting.read(this);
			out.append(setting.settingName()).append('=').append(value);
		}
		return out.append(']').toString();
	}

	/** Builds a {@link BreakerConfig}; {@link #build()} validates every setting. */
	public static final class Builder {

		// the table's settings: their defaults are written in Builder()
		Duration window;

		Duration bucket;

		int consecutiveFailures;

		double failureRateThreshold;

		int minimumCalls;

		Duration slowCallDuration;

		double slowCallRateThreshold;

		int stallCalls;

		boolean trackInFlight;

		boolean recordLatency;

		double timeoutWeight;

		Duration openWait;

		double openWaitMultiplier;

		Duration maxOpenWait;

		double openWaitJitter;

		int halfOpenMaxProbes;

		int halfOpenSuccessesToClose;

		int halfOpenFailuresToReopen;

		Duration halfOpenMaxWait;

		boolean halfOpenMaxProbesAuto;

		double minimumCallsRatio;

		double retryBudgetRatio;

		double retryBudgetMinPerSecond;

		OutcomeClassifier classifier = OutcomeClassifier.defaults();

		Ticker ticker = Ticker.cached();

		Clock clock = Clock.systemUTC();

		private Builder() {
			for (BreakerSetting setting : BreakerSetting.of(BreakerSetting.Scope.ENGINE)) {
				setting.write(this, setting.defaultValue());
			}
		}

		private Builder(Builder c) {
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
			// copy first, then check and keep that copy: another thread changing this
			// builder meanwhile cannot slip a value past the checks
			Builder copy = new Builder(this);
			ConfigValidation.validate(copy);
			return new BreakerConfig(copy);
		}

	}

}
