package dev.breaker.core;

import java.time.Duration;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.function.Function;

/**
 * Every setting of a breaker, once: its name, its property key under
 * {@code breaker.defaults.*}, its type, its default, its allowed range and what it does.
 * The builder's defaults and checks, the Spring properties, the snapshot's settings, the
 * configuration metadata and the README tables all follow this table (the last two are
 * checked against it by tests).
 */
public enum BreakerSetting {

	WINDOW(Scope.ENGINE, "window", "window", Duration.class, Duration.ofSeconds(10),
			Ranges.duration(Duration.ZERO, ConfigValidation.MAX_DURATION),
			"Length of the sliding window the rates are computed over; a whole multiple of bucket.",
			BreakerConfig::window, (b, v) -> b.window((Duration) v)),
	BUCKET(Scope.ENGINE, "bucket", "bucket", Duration.class, Duration.ofSeconds(1),
			Ranges.duration(ConfigValidation.MIN_BUCKET, ConfigValidation.MAX_BUCKET),
			"Length of one bucket of the window.", BreakerConfig::bucket, (b, v) -> b.bucket((Duration) v)),
	CONSECUTIVE_FAILURES(Scope.ENGINE, "consecutiveFailures", "consecutive-failures", Integer.class, 5,
			Ranges.atLeast(0, " (0 turns the rule off)"), "Trip after this many consecutive failures.",
			BreakerConfig::consecutiveFailures, (b, v) -> b.consecutiveFailures((Integer) v)),
	FAILURE_RATE_THRESHOLD(Scope.ENGINE, "failureRateThreshold", "failure-rate-threshold", Double.class, 50.0,
			Ranges.percentOrOff(),
			"Trip when this percentage of the calls in the window failed (timeouts weighted), with at least minimum-calls calls.",
			BreakerConfig::failureRateThreshold, (b, v) -> b.failureRateThreshold((Double) v)),
	MINIMUM_CALLS(Scope.ENGINE, "minimumCalls", "minimum-calls", Integer.class, 20, Ranges.atLeast(1, ""),
			"Calls the window must hold before the failure-rate and slow-call-rate rules apply.",
			BreakerConfig::minimumCalls, (b, v) -> b.minimumCalls((Integer) v)),
	SLOW_CALL_DURATION(Scope.ENGINE, "slowCallDuration", "slow-call-duration", Duration.class, Duration.ofSeconds(2),
			Ranges.duration(Duration.ZERO, ConfigValidation.MAX_DURATION),
			"A call taking longer is slow; also the age at which a call in flight counts toward the stall rule.",
			BreakerConfig::slowCallDuration, (b, v) -> b.slowCallDuration((Duration) v)),
	SLOW_CALL_RATE_THRESHOLD(Scope.ENGINE, "slowCallRateThreshold", "slow-call-rate-threshold", Double.class, 0.0,
			Ranges.percentOrOff(),
			"Trip when this percentage of the calls in the window were slow, with at least minimum-calls calls.",
			BreakerConfig::slowCallRateThreshold, (b, v) -> b.slowCallRateThreshold((Double) v)),
	STALL_CALLS(Scope.ENGINE, "stallCalls", "stall-calls", Integer.class, 0,
			Ranges.atLeast(0, " (0 turns the rule off)"),
			"Trip when at least this many calls are in flight for longer than slow-call-duration (a wedged dependency).",
			BreakerConfig::stallCalls, (b, v) -> b.stallCalls((Integer) v)),
	TRACK_IN_FLIGHT(Scope.ENGINE, "trackInFlight", "track-in-flight", Boolean.class, false, Ranges.any(),
			"Whether calls in flight are counted (one more atomic update per call); always on with the stall rule.",
			BreakerConfig::trackInFlight, (b, v) -> b.trackInFlight((Boolean) v)),
	RECORD_LATENCY(Scope.ENGINE, "recordLatency", "record-latency", Boolean.class, true, Ranges.any(),
			"Whether call durations are kept (latency percentiles, the duration histogram); costs each breaker about 6.5 KiB.",
			BreakerConfig::recordLatency, (b, v) -> b.recordLatency((Boolean) v)),
	TIMEOUT_WEIGHT(Scope.ENGINE, "timeoutWeight", "timeout-weight", Double.class, 1.0,
			Ranges.fraction(0, 100, true, ""),
			"How much a TIMEOUT counts toward the failure rate, relative to a FAILURE.", BreakerConfig::timeoutWeight,
			(b, v) -> b.timeoutWeight((Double) v)),
	OPEN_WAIT(Scope.ENGINE, "openWait", "open-wait", Duration.class, Duration.ofSeconds(30),
			Ranges.duration(Duration.ZERO, ConfigValidation.MAX_DURATION),
			"How long the breaker stays open after its first trip before probing.", BreakerConfig::openWait,
			(b, v) -> b.openWait((Duration) v)),
	OPEN_WAIT_MULTIPLIER(Scope.ENGINE, "openWaitMultiplier", "open-wait-multiplier", Double.class, 2.0,
			Ranges.fraction(1, 1000, true, ""), "Factor applied to the open wait on each consecutive trip.",
			BreakerConfig::openWaitMultiplier, (b, v) -> b.openWaitMultiplier((Double) v)),
	MAX_OPEN_WAIT(Scope.ENGINE, "maxOpenWait", "max-open-wait", Duration.class, Duration.ofMinutes(5),
			Ranges.duration(Duration.ZERO, ConfigValidation.MAX_DURATION),
			"Cap on the growing open wait; at least open-wait.", BreakerConfig::maxOpenWait,
			(b, v) -> b.maxOpenWait((Duration) v)),
	OPEN_WAIT_JITTER(Scope.ENGINE, "openWaitJitter", "open-wait-jitter", Double.class, 0.2,
			Ranges.fraction(0, 1, false, ""),
			"Random spread of the open wait as a fraction of it, so replicas do not return in lockstep.",
			BreakerConfig::openWaitJitter, (b, v) -> b.openWaitJitter((Double) v)),
	HALF_OPEN_MAX_PROBES(Scope.ENGINE, "halfOpenMaxProbes", "half-open.max-probes", Integer.class, 10,
			Ranges.ints(1, ConfigValidation.MAX_PROBES),
			"Most probes in flight at once (ramping 1, 2, 4, ...), or auto: 10% of the peak concurrency of the last hour.",
			(c) -> c.halfOpenMaxProbesAuto() ? "auto" : c.halfOpenMaxProbes(),
			(b, v) -> b.halfOpenMaxProbes((Integer) v)),
	HALF_OPEN_SUCCESSES_TO_CLOSE(Scope.ENGINE, "halfOpenSuccessesToClose", "half-open.successes-to-close",
			Integer.class, 5, Ranges.atLeast(1, ""), "Successful probes that close the breaker.",
			BreakerConfig::halfOpenSuccessesToClose, (b, v) -> b.halfOpenSuccessesToClose((Integer) v)),
	HALF_OPEN_FAILURES_TO_REOPEN(Scope.ENGINE, "halfOpenFailuresToReopen", "half-open.failures-to-reopen",
			Integer.class, 3, Ranges.atLeast(1, ""), "Failed probes that reopen the breaker.",
			BreakerConfig::halfOpenFailuresToReopen, (b, v) -> b.halfOpenFailuresToReopen((Integer) v)),
	HALF_OPEN_MAX_WAIT(Scope.ENGINE, "halfOpenMaxWait", "half-open.max-wait", Duration.class, Duration.ofMinutes(1),
			Ranges.duration(Duration.ZERO, ConfigValidation.MAX_DURATION),
			"Reopen when the oldest probe in flight has had no verdict for this long (in a group that trips on breadth, a tenant's such probe counts once as its failed probe instead).",
			BreakerConfig::halfOpenMaxWait, (b, v) -> b.halfOpenMaxWait((Duration) v)),
	MINIMUM_CALLS_RATIO(Scope.ENGINE, "minimumCallsRatio", "minimum-calls-ratio", Double.class, 0.0,
			Ranges.fraction(0, 1, false, " (0 turns it off)"),
			"Raises minimum-calls to this share of the peak calls per window of the last hour.",
			BreakerConfig::minimumCallsRatio, (b, v) -> b.minimumCallsRatio((Double) v)),
	RETRY_BUDGET_RATIO(Scope.ENGINE, "retryBudgetRatio", "retry.budget.ratio", Double.class, 0.2,
			Ranges.fraction(0, ConfigValidation.MAX_RETRY_RATIO, true, ""),
			"Retries may add this share of the first attempts in the window.", BreakerConfig::retryBudgetRatio,
			(b, v) -> b.retryBudgetRatio((Double) v)),
	RETRY_BUDGET_MIN_PER_SECOND(Scope.ENGINE, "retryBudgetMinPerSecond", "retry.budget.min-per-second", Double.class,
			10.0, Ranges.fraction(0, ConfigValidation.MAX_RETRIES_PER_SECOND, true, ""),
			"Retries per second of the window the budget allows whatever the traffic.",
			BreakerConfig::retryBudgetMinPerSecond, (b, v) -> b.retryBudgetMinPerSecond((Double) v)),

	TENANTS_MAX(Scope.TENANTS, "maxEntries", "tenants.max", Integer.class, 10_000, Ranges.atLeast(1, ""),
			"Most tenant children kept per breaker; the least recently used is evicted beyond this.", null, null),
	TENANTS_IDLE_EXPIRY(Scope.TENANTS, "idleExpiry", "tenants.idle-expiry", Duration.class, Duration.ofMinutes(10),
			Ranges.duration(Duration.ZERO, ConfigValidation.MAX_IDLE_EXPIRY),
			"A tenant child unused for this long is removed.", null, null),
	TENANTS_MIN_FAILING(Scope.TENANTS, "minFailingChildren", "tenants.min-failing", Integer.class, 3,
			Ranges.ints(1, BreakerRegistry.Children.MAX_MIN_FAILING_CHILDREN),
			"The breaker itself trips only when the failures behind its rule came from this many tenants; 1 lets any tenant's failures trip it.",
			null, null),
	TENANTS_MAX_KEY_LENGTH(Scope.TENANTS, "maxKeyLength", "tenants.max-key-length", Integer.class,
			ChildKeys.DEFAULT_MAX_LENGTH, Ranges.ints(ChildKeys.MIN_MAX_LENGTH, ChildKeys.MAX_MAX_LENGTH),
			"Longer tenant keys are shortened to a prefix, a tilde and a 16-digit hash of the whole key, the same on every replica.",
			null, null),

	RECORD_EXCEPTIONS(Scope.CALL, "recordExceptions", "record-exceptions", List.class, List.of(),
			Ranges.described("exception class names"),
			"Exception classes that count as failures; when set, any other exception is ignored. Timeouts always count.",
			null, null),
	IGNORE_EXCEPTIONS(Scope.CALL, "ignoreExceptions", "ignore-exceptions", List.class, List.of(),
			Ranges.described("exception class names"),
			"Exception classes that are the caller's fault: ignored, passed on unchanged, without fallback. Wins over record-exceptions.",
			null, null),
	TIMEOUT(Scope.CALL, "timeout", "timeout", Duration.class, null,
			Ranges.described(Range.POSITIVE_DURATION + ", at most " + Numbers.format(ConfigValidation.MAX_DURATION)
					+ ", or unset for no timeout"),
			"How long an asynchronous call may take before it completes with a TimeoutException; synchronous calls are not interrupted (the slow-call and stall rules cover them).",
			null, null),
	RETRY_INTERVALS(Scope.CALL, "retryIntervals", "retry.intervals", List.class, List.of(),
			Ranges.described("durations from 0 to " + Numbers.format(ConfigValidation.MAX_DURATION)),
			"The pause before each retry: as many retries as intervals, none when empty.", null, null),
	RETRY_JITTER(Scope.CALL, "retryJitter", "retry.jitter", Double.class, 0.5, Ranges.fraction(0, 1, true, ""),
			"Random spread of each retry pause as a fraction of it.", null, null),
	RETRY_ON(Scope.CALL, "retryOn", "retry.on", List.class, List.of(Outcome.FAILURE, Outcome.TIMEOUT),
			Ranges.described("failure, timeout or throttled"), "The outcomes that retry; a rejection never retries.",
			null, null),
	RETRY_RECORD_EACH_ATTEMPT(Scope.CALL, "retryRecordEachAttempt", "retry.record-each-attempt", Boolean.class, false,
			Ranges.any(),
			"Whether every attempt asks the breaker and is recorded (breaker inside the retry); by default the whole sequence is recorded once.",
			null, null),
	HEALTH_WHEN_OPEN(Scope.CALL, "healthWhenOpen", "health-when-open", String.class, "up",
			Ranges.described("up, out-of-service or down"), "Health reported while this breaker is open.", null, null);

	/** What a setting configures. */
	public enum Scope {

		/** A {@link BreakerConfig} setting. */
		ENGINE,

		/**
		 * A {@link BreakerRegistry.Children} setting: the per-tenant children of a
		 * breaker.
		 */
		TENANTS,

		/**
		 * A setting of the calls made through a breaker (timeout, retries, exceptions,
		 * health), read by the starter.
		 */
		CALL

	}

	private final Scope scope;

	private final String settingName;

	private final String property;

	private final Class<?> type;

	private final Object defaultValue;

	private final Range range;

	private final String description;

	private final Function<BreakerConfig, Object> read;

	private final BiConsumer<BreakerConfig.Builder, Object> write;

	BreakerSetting(Scope scope, String settingName, String property, Class<?> type, Object defaultValue, Range range,
			String description, Function<BreakerConfig, Object> read, BiConsumer<BreakerConfig.Builder, Object> write) {
		this.scope = scope;
		this.settingName = settingName;
		this.property = property;
		this.type = type;
		this.defaultValue = defaultValue;
		this.range = range;
		this.description = description;
		this.read = read;
		this.write = write;
	}

	/** What this setting configures. */
	public Scope scope() {
		return scope;
	}

	/**
	 * The builder/accessor name ({@code halfOpenMaxProbes}), as
	 * {@link InvalidBreakerConfigException#setting()} names it.
	 */
	public String settingName() {
		return settingName;
	}

	/**
	 * The property key below {@code breaker.defaults} or
	 * {@code breaker.instances.<name>}, e.g. {@code half-open.max-probes}.
	 */
	public String property() {
		return property;
	}

	/**
	 * The type of the value: {@code Duration}, {@code Integer}, {@code Double},
	 * {@code Boolean}, {@code String} or {@code List}.
	 */
	public Class<?> type() {
		return type;
	}

	/** The default, or {@code null} for none ({@link #TIMEOUT}). */
	public Object defaultValue() {
		return defaultValue;
	}

	/** The allowed values. */
	public Range range() {
		return range;
	}

	/** What the setting does, in one line. */
	public String description() {
		return description;
	}

	/**
	 * What an IDE shows for the property: the description, then the allowed values unless
	 * the type already says them (a flag is true or false).
	 */
	public String hint() {
		return (range.toString().equals(Ranges.any().toString())) ? description
				: description + " Allowed: " + range + ".";
	}

	/**
	 * The setting's value in {@code config} (an {@link Scope#ENGINE} setting only);
	 * {@code "auto"} for auto-sized probes.
	 */
	public Object read(BreakerConfig config) {
		if (read == null) {
			throw new IllegalStateException(this + " is not a BreakerConfig setting");
		}
		return read.apply(config);
	}

	/** Sets {@code value} on {@code builder} (an {@link Scope#ENGINE} setting only). */
	public void write(BreakerConfig.Builder builder, Object value) {
		if (write == null) {
			throw new IllegalStateException(this + " is not a BreakerConfig setting");
		}
		write.accept(builder, value);
	}

	private static final Map<Scope, List<BreakerSetting>> BY_SCOPE = new EnumMap<>(Scope.class);

	static {
		for (Scope scope : Scope.values()) {
			BY_SCOPE.put(scope, Arrays.stream(values()).filter((s) -> s.scope == scope).toList());
		}
	}

	/** The settings of one scope, in table order. */
	public static List<BreakerSetting> of(Scope scope) {
		return BY_SCOPE.get(scope);
	}

	/**
	 * The default as the type the caller expects:
	 * {@code Duration d = WINDOW.defaultAs();}.
	 */
	@SuppressWarnings("unchecked")
	public <T> T defaultAs() {
		return (T) defaultValue;
	}

	/**
	 * The values a setting allows: checks a value (throwing
	 * {@link InvalidBreakerConfigException} with the setting, the value and what is
	 * allowed) and describes itself for the docs.
	 */
	public static final class Range {

		private final List<Ranges.Rule> rules;

		private final String text;

		private final String typed;

		Range(String text, String typed, List<Ranges.Rule> rules) {
			this.text = text;
			this.typed = typed;
			this.rules = rules;
		}

		/**
		 * What is allowed, with the kind of value it must be, for a value that is not
		 * even of the setting's type: {@code an integer from 1 to 2147483647},
		 * {@code true or false}, {@code a number in [0, 1]}.
		 * @return what is allowed
		 */
		public String typed() {
			return typed;
		}

		/**
		 * What {@link #positive} allows, as every message about a duration that must be
		 * positive says it (the builder's, the starter's failure analyses, the docs).
		 */
		public static final String POSITIVE_DURATION = "a positive duration";

		/**
		 * How a duration is written, as a message about a value that is not one says it.
		 */
		public static final String A_DURATION = "a duration such as 500ms, 30s or 5m";

		/**
		 * The longest duration a setting allows (the engine's, the calls', the HTTP
		 * clients' and the fleet's; but the idle expiry of tenants and hosts, a week): a
		 * day, beyond any useful value and far below where nanosecond arithmetic
		 * overflows (past 292 years).
		 */
		public static final Duration MAX_DURATION = ConfigValidation.MAX_DURATION;

		/**
		 * The one positive-duration check: {@code value} is set and longer than zero.
		 * @param value a duration, may be null
		 * @return whether it is positive
		 */
		public static boolean positive(Duration value) {
			return value != null && !value.isNegative() && !value.isZero();
		}

		/**
		 * Checks one value of a setting.
		 * @throws InvalidBreakerConfigException naming the setting, the value and what is
		 * allowed
		 */
		void check(String setting, Object value) {
			for (Ranges.Rule rule : rules) {
				if (!rule.check().holds(value)) {
					throw new InvalidBreakerConfigException(setting, value, rule.mustBe(), rule.allowed());
				}
			}
		}

		/**
		 * What is allowed, for the docs: {@code a positive duration, at most 24h},
		 * {@code [1, 32]}.
		 */
		@Override
		public String toString() {
			return text;
		}

	}

}
