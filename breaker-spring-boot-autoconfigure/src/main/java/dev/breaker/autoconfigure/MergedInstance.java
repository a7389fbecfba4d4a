package dev.breaker.autoconfigure;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.function.Function;

import dev.breaker.aspect.CallPolicy;
import dev.breaker.aspect.RetryPolicy;
import dev.breaker.autoconfigure.BreakerProperties.Instance;
import dev.breaker.autoconfigure.BreakerProperties.OpenHealth;
import dev.breaker.core.BreakerConfig;
import dev.breaker.core.BreakerNames;
import dev.breaker.core.BreakerRegistry;
import dev.breaker.core.ChildKeys;
import dev.breaker.core.InvalidBreakerConfigException;
import dev.breaker.core.Outcome;
import dev.breaker.core.OutcomeClassifier;
import dev.breaker.core.Ticker;

import org.springframework.util.ClassUtils;

/**
 * One breaker's settings: its own instance over {@code breaker.defaults}, over the engine's and the
 * starter's defaults; turned into the engine config, the call policy and the tenant policy, and
 * validated on the way, each error naming the property where the bad value was written.
 */
final class MergedInstance {

	private static final String DEFAULTS_PATH = "breaker.defaults";

	static final double DEFAULT_RETRY_JITTER = 0.5;

	static final List<Outcome> DEFAULT_RETRY_ON = List.of(Outcome.FAILURE, Outcome.TIMEOUT);

	/** The outcomes {@code retry.on} may name: the ones worth another attempt. */
	static final Set<Outcome> RETRYABLE = Collections.unmodifiableSet(
			EnumSet.of(Outcome.FAILURE, Outcome.TIMEOUT, Outcome.THROTTLED));

	static final int DEFAULT_TENANTS_MAX = 10_000;

	static final Duration DEFAULT_TENANTS_IDLE_EXPIRY = Duration.ofMinutes(10);

	static final int DEFAULT_TENANTS_MIN_FAILING = 3;

	static final int DEFAULT_TENANTS_MAX_KEY_LENGTH = ChildKeys.DEFAULT_MAX_LENGTH;

	/** Longest pause between two attempts. */
	static final Duration MAX_RETRY_INTERVAL = Duration.ofHours(24);

	/** The value of {@code half-open.max-probes} that sizes probes from traffic. */
	static final String AUTO_PROBES = "auto";

	private final String path;

	private final Instance own;

	private final Instance defaults;

	/**
	 * @param path the instance's property prefix, e.g. {@code breaker.instances.payments}
	 * @param own the instance's own settings
	 * @param defaults the settings it inherits, or {@code null} for none (the defaults themselves)
	 */
	MergedInstance(String path, Instance own, Instance defaults) {
		this.path = path;
		this.own = own;
		this.defaults = (defaults != null) ? defaults : new Instance();
	}

	BreakerConfig toConfig(Ticker ticker, OutcomeClassifier classifier, ClassLoader classLoader) {
		BreakerConfig.Builder builder = BreakerConfig.builder();
		for (Setting setting : SETTINGS) {
			Object value = pick(setting.getter());
			if (value != null) {
				setting.setter().accept(builder, value);
			}
		}
		List<Class<? extends Throwable>> record = exceptionClasses("record-exceptions", Instance::getRecordExceptions,
				classLoader);
		List<Class<? extends Throwable>> ignore = exceptionClasses("ignore-exceptions", Instance::getIgnoreExceptions,
				classLoader);
		builder.classifier((record.isEmpty() && ignore.isEmpty()) ? classifier
				: new ExceptionListClassifier(classifier, record, ignore));
		maxProbes(builder);
		builder.ticker(ticker);
		try {
			return builder.build();
		}
		catch (InvalidBreakerConfigException ex) {
			throw invalid(ex);
		}
	}

	/** {@code half-open.max-probes}: an integer (checked by the engine) or 'auto'. */
	private void maxProbes(BreakerConfig.Builder builder) {
		String value = pick((i) -> i.getHalfOpen().getMaxProbes());
		if (value == null) {
			return;
		}
		String trimmed = value.trim();
		if (trimmed.equalsIgnoreCase(AUTO_PROBES)) {
			builder.halfOpenMaxProbesAuto();
			return;
		}
		try {
			builder.halfOpenMaxProbes(Integer.parseInt(trimmed));
		}
		catch (NumberFormatException ex) {
			throw new InvalidBreakerPropertyException(
					source((i) -> i.getHalfOpen().getMaxProbes()) + ".half-open.max-probes", value,
					"an integer in [1, 32], or auto", ex);
		}
	}

	CallPolicy toCallPolicy() {
		Duration timeout = pick(Instance::getTimeout);
		if (timeout != null && (timeout.isNegative() || timeout.isZero())) {
			throw new InvalidBreakerPropertyException(source(Instance::getTimeout) + ".timeout", timeout,
					"a positive duration, or unset for no timeout");
		}
		return new CallPolicy(timeout, toRetryPolicy());
	}

	private RetryPolicy toRetryPolicy() {
		List<Duration> intervals = intervals(pick((i) -> i.getRetry().getIntervals()),
				source((x) -> x.getRetry().getIntervals()));
		Double jitter = pick((i) -> i.getRetry().getJitter());
		if (jitter == null) {
			jitter = DEFAULT_RETRY_JITTER;
		}
		checkJitter(jitter, source((i) -> i.getRetry().getJitter()) + ".retry.jitter");
		List<String> on = pick((i) -> i.getRetry().getOn());
		Set<Outcome> outcomes = EnumSet.noneOf(Outcome.class);
		if (on == null) {
			outcomes.addAll(DEFAULT_RETRY_ON);
		}
		else {
			for (int i = 0; i < on.size(); i++) {
				String typed = on.get(i);
				Enum<?> outcome = (typed != null) ? EnumValues.parse(Outcome.class, typed) : null;
				if (!RETRYABLE.contains(outcome)) {
					throw new InvalidBreakerPropertyException(
							source((x) -> x.getRetry().getOn()) + ".retry.on[" + i + "]",
							(typed != null) ? BreakerNames.printable(typed.trim()) : null, EnumValues.allowed(RETRYABLE));
				}
				outcomes.add((Outcome) outcome);
			}
		}
		Boolean recordEachAttempt = pick((i) -> i.getRetry().getRecordEachAttempt());
		return new RetryPolicy(intervals, jitter, outcomes, Boolean.TRUE.equals(recordEachAttempt));
	}

	/** The pauses between attempts: none when unset; each in [0, 24h] (so no pause overflows). */
	static List<Duration> intervals(List<Duration> intervals, String source) {
		if (intervals == null) {
			return List.of();
		}
		for (int i = 0; i < intervals.size(); i++) {
			Duration interval = intervals.get(i);
			if (interval == null || interval.isNegative() || interval.compareTo(MAX_RETRY_INTERVAL) > 0) {
				throw new InvalidBreakerPropertyException(source + ".retry.intervals[" + i + "]", interval,
						"a duration from 0 to 24h");
			}
		}
		return intervals;
	}

	static void checkJitter(double jitter, String property) {
		if (!(jitter >= 0 && jitter <= 1)) {
			throw new InvalidBreakerPropertyException(property, jitter, "a fraction in [0, 1]");
		}
	}

	BreakerRegistry.Children toChildren() {
		Integer max = pick((i) -> i.getTenants().getMax());
		if (max == null) {
			max = DEFAULT_TENANTS_MAX;
		}
		if (max < 1) {
			throw new InvalidBreakerPropertyException(source((i) -> i.getTenants().getMax()) + ".tenants.max", max,
					"an integer of 1 or more");
		}
		Duration idleExpiry = pick((i) -> i.getTenants().getIdleExpiry());
		if (idleExpiry == null) {
			idleExpiry = DEFAULT_TENANTS_IDLE_EXPIRY;
		}
		if (idleExpiry.isNegative() || idleExpiry.isZero()) {
			throw new InvalidBreakerPropertyException(
					source((i) -> i.getTenants().getIdleExpiry()) + ".tenants.idle-expiry", idleExpiry,
					"a positive duration");
		}
		int minFailing = intIn((i) -> i.getTenants().getMinFailing(), "tenants.min-failing", DEFAULT_TENANTS_MIN_FAILING,
				1, BreakerRegistry.Children.MAX_MIN_FAILING_CHILDREN);
		int maxKeyLength = intIn((i) -> i.getTenants().getMaxKeyLength(), "tenants.max-key-length",
				DEFAULT_TENANTS_MAX_KEY_LENGTH, ChildKeys.MIN_MAX_LENGTH, ChildKeys.MAX_MAX_LENGTH);
		return new BreakerRegistry.Children(max, idleExpiry, true, minFailing, maxKeyLength);
	}

	private int intIn(Function<Instance, Integer> getter, String property, int defaultValue, int min, int max) {
		Integer value = pick(getter);
		if (value == null) {
			return defaultValue;
		}
		if (value < min || value > max) {
			throw new InvalidBreakerPropertyException(source(getter) + "." + property, value,
					"an integer in [" + min + ", " + max + "]");
		}
		return value;
	}

	OpenHealth healthWhenOpen() {
		OpenHealth health = pick(Instance::getHealthWhenOpen);
		return (health != null) ? health : OpenHealth.UP;
	}

	private <T> T pick(Function<Instance, T> getter) {
		T value = getter.apply(this.own);
		return (value != null) ? value : getter.apply(this.defaults);
	}

	/** The prefix of the property a merged value came from: the instance's, or the defaults'. */
	private String source(Function<Instance, ?> getter) {
		if (getter.apply(this.own) == null && getter.apply(this.defaults) != null) {
			return DEFAULTS_PATH;
		}
		return this.path;
	}

	private List<Class<? extends Throwable>> exceptionClasses(String property, Function<Instance, List<String>> getter,
			ClassLoader classLoader) {
		List<String> names = pick(getter);
		if (names == null) {
			return List.of();
		}
		String prefix = source(getter) + "." + property;
		List<Class<? extends Throwable>> classes = new ArrayList<>(names.size());
		for (int i = 0; i < names.size(); i++) {
			String name = (names.get(i) != null) ? names.get(i).trim() : "";
			Class<?> type;
			try {
				type = ClassUtils.forName(name, classLoader);
			}
			catch (ClassNotFoundException | LinkageError | IllegalArgumentException ex) {
				throw new InvalidBreakerPropertyException(prefix + "[" + i + "]", name,
						"the fully qualified name of an exception class on the classpath", ex);
			}
			if (!Throwable.class.isAssignableFrom(type)) {
				throw new InvalidBreakerPropertyException(prefix + "[" + i + "]", name,
						"a subclass of java.lang.Throwable");
			}
			classes.add(type.asSubclass(Throwable.class));
		}
		return classes;
	}

	private InvalidBreakerPropertyException invalid(InvalidBreakerConfigException ex) {
		for (Setting setting : SETTINGS) {
			if (setting.name().equals(ex.setting())) {
				String property = source(setting.getter()) + "." + setting.property();
				return new InvalidBreakerPropertyException(property, ex.value(), ex.allowed(), ex);
			}
		}
		return new InvalidBreakerPropertyException(this.path + "." + ex.setting(), ex.value(), ex.allowed(), ex);
	}

	/** One engine setting: its builder name, its property name, how to read and apply it. */
	private record Setting(String name, String property, Function<Instance, Object> getter,
			BiConsumer<BreakerConfig.Builder, Object> setter) {

	}

	private static final List<Setting> SETTINGS = List.of(
			new Setting("window", "window", Instance::getWindow, (b, v) -> b.window((Duration) v)),
			new Setting("bucket", "bucket", Instance::getBucket, (b, v) -> b.bucket((Duration) v)),
			new Setting("consecutiveFailures", "consecutive-failures", Instance::getConsecutiveFailures,
					(b, v) -> b.consecutiveFailures((Integer) v)),
			new Setting("failureRateThreshold", "failure-rate-threshold", Instance::getFailureRateThreshold,
					(b, v) -> b.failureRateThreshold((Double) v)),
			new Setting("minimumCalls", "minimum-calls", Instance::getMinimumCalls,
					(b, v) -> b.minimumCalls((Integer) v)),
			new Setting("minimumCallsRatio", "minimum-calls-ratio", Instance::getMinimumCallsRatio,
					(b, v) -> b.minimumCallsRatio((Double) v)),
			new Setting("slowCallDuration", "slow-call-duration", Instance::getSlowCallDuration,
					(b, v) -> b.slowCallDuration((Duration) v)),
			new Setting("slowCallRateThreshold", "slow-call-rate-threshold", Instance::getSlowCallRateThreshold,
					(b, v) -> b.slowCallRateThreshold((Double) v)),
			new Setting("stallCalls", "stall-calls", Instance::getStallCalls, (b, v) -> b.stallCalls((Integer) v)),
			new Setting("trackInFlight", "track-in-flight", Instance::getTrackInFlight,
					(b, v) -> b.trackInFlight((Boolean) v)),
			new Setting("recordLatency", "record-latency", Instance::getRecordLatency,
					(b, v) -> b.recordLatency((Boolean) v)),
			new Setting("timeoutWeight", "timeout-weight", Instance::getTimeoutWeight,
					(b, v) -> b.timeoutWeight((Double) v)),
			new Setting("openWait", "open-wait", Instance::getOpenWait, (b, v) -> b.openWait((Duration) v)),
			new Setting("openWaitMultiplier", "open-wait-multiplier", Instance::getOpenWaitMultiplier,
					(b, v) -> b.openWaitMultiplier((Double) v)),
			new Setting("maxOpenWait", "max-open-wait", Instance::getMaxOpenWait, (b, v) -> b.maxOpenWait((Duration) v)),
			new Setting("openWaitJitter", "open-wait-jitter", Instance::getOpenWaitJitter,
					(b, v) -> b.openWaitJitter((Double) v)),
			// set by maxProbes(), which reads 'auto' too; here to name the property of an engine error
			new Setting("halfOpenMaxProbes", "half-open.max-probes", (i) -> i.getHalfOpen().getMaxProbes(),
					(b, v) -> { }),
			new Setting("halfOpenSuccessesToClose", "half-open.successes-to-close",
					(i) -> i.getHalfOpen().getSuccessesToClose(), (b, v) -> b.halfOpenSuccessesToClose((Integer) v)),
			new Setting("halfOpenFailuresToReopen", "half-open.failures-to-reopen",
					(i) -> i.getHalfOpen().getFailuresToReopen(), (b, v) -> b.halfOpenFailuresToReopen((Integer) v)),
			new Setting("halfOpenMaxWait", "half-open.max-wait", (i) -> i.getHalfOpen().getMaxWait(),
					(b, v) -> b.halfOpenMaxWait((Duration) v)),
			new Setting("retryBudgetRatio", "retry.budget.ratio", (i) -> i.getRetry().getBudget().getRatio(),
					(b, v) -> b.retryBudgetRatio((Double) v)),
			new Setting("retryBudgetMinPerSecond", "retry.budget.min-per-second",
					(i) -> i.getRetry().getBudget().getMinPerSecond(), (b, v) -> b.retryBudgetMinPerSecond((Double) v)));

}
