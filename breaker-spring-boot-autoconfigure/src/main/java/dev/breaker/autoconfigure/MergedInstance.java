package dev.breaker.autoconfigure;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

import dev.breaker.aspect.CallPolicy;
import dev.breaker.aspect.RetryPolicy;
import dev.breaker.autoconfigure.BreakerProperties.Instance;
import dev.breaker.autoconfigure.BreakerProperties.OpenHealth;
import dev.breaker.core.BreakerConfig;
import dev.breaker.core.BreakerNames;
import dev.breaker.core.BreakerRegistry;
import dev.breaker.core.BreakerSetting;
import dev.breaker.core.BreakerSetting.Scope;
import dev.breaker.core.ChildKeys;
import dev.breaker.core.InvalidBreakerConfigException;
import dev.breaker.core.Numbers;
import dev.breaker.core.Outcome;
import dev.breaker.core.OutcomeClassifier;
import dev.breaker.core.Ticker;
import dev.breaker.http.HostBreakers;

import org.jspecify.annotations.Nullable;

import org.springframework.util.ClassUtils;

/**
 * One breaker's settings ({@link LayeredInstance}: its own instance over
 * {@code breaker.defaults}, over the defaults of the table, {@link BreakerSetting})
 * merged in one pass into the engine config, the tenant policy and the call policy, and
 * validated on the way, each error naming the property where the bad value was written.
 */
final class MergedInstance {

	/** The outcomes {@code retry.on} may name: the ones worth another attempt. */
	static final Set<Outcome> RETRYABLE = Collections
		.unmodifiableSet(EnumSet.of(Outcome.FAILURE, Outcome.TIMEOUT, Outcome.THROTTLED));

	/** The value of {@code half-open.max-probes} that sizes probes from traffic. */
	static final String AUTO_PROBES = "auto";

	private final LayeredInstance layers;

	/**
	 * @param path the instance's property prefix, e.g. {@code breaker.instances.payments}
	 * @param own the instance's own settings
	 * @param defaults the settings it inherits, or {@code null} for none (the defaults
	 * themselves)
	 */
	MergedInstance(String path, Instance own, @Nullable Instance defaults) {
		this.layers = new LayeredInstance(path, own, defaults);
	}

	BreakerSettings merge(Ticker ticker, OutcomeClassifier classifier, ClassLoader classLoader) {
		BreakerConfig config = toConfig(ticker, classifier, classLoader);
		return new BreakerSettings(config, toChildren(config), toCallPolicy(), healthWhenOpen());
	}

	BreakerConfig toConfig(Ticker ticker, OutcomeClassifier classifier, ClassLoader classLoader) {
		BreakerConfig.Builder builder = BreakerConfig.builder();
		for (BreakerSetting setting : BreakerSetting.of(Scope.ENGINE)) {
			Object value = this.layers.pick(setting);
			if (setting == BreakerSetting.HALF_OPEN_MAX_PROBES) {
				maxProbes(builder, (String) value);
			}
			else if (value != null) {
				setting.write(builder, value);
			}
		}
		List<Class<? extends Throwable>> record = exceptionClasses(BreakerSetting.RECORD_EXCEPTIONS, classLoader);
		List<Class<? extends Throwable>> ignore = exceptionClasses(BreakerSetting.IGNORE_EXCEPTIONS, classLoader);
		checkIgnoredLeaveRecorded(record, ignore);
		builder.classifier((record.isEmpty() && ignore.isEmpty()) ? classifier
				: new ExceptionListClassifier(classifier, record, ignore));
		builder.ticker(ticker);
		try {
			return builder.build();
		}
		catch (InvalidBreakerConfigException ex) {
			throw invalid(ex, Scope.ENGINE);
		}
	}

	/** {@code half-open.max-probes}: an integer (checked by the engine) or 'auto'. */
	private void maxProbes(BreakerConfig.Builder builder, @Nullable String value) {
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
			throw new InvalidBreakerPropertyException(this.layers.property(BreakerSetting.HALF_OPEN_MAX_PROBES), value,
					"an integer in [1, 32], or auto", ex);
		}
	}

	private CallPolicy toCallPolicy() {
		Duration timeout = this.layers.pick(BreakerSetting.TIMEOUT);
		if (timeout != null && !BreakerSetting.Range.positive(timeout)) {
			throw new InvalidBreakerPropertyException(this.layers.property(BreakerSetting.TIMEOUT), timeout,
					BreakerSetting.Range.POSITIVE_DURATION + ", or unset for no timeout");
		}
		if (timeout != null && timeout.compareTo(BreakerSetting.Range.MAX_DURATION) > 0) {
			throw new InvalidBreakerPropertyException(this.layers.property(BreakerSetting.TIMEOUT), timeout,
					"at most " + Numbers.format(BreakerSetting.Range.MAX_DURATION));
		}
		return new CallPolicy(timeout, toRetryPolicy());
	}

	private RetryPolicy toRetryPolicy() {
		List<Duration> intervals = BreakerSettings.retryIntervals(this.layers.orDefault(BreakerSetting.RETRY_INTERVALS),
				this.layers.property(BreakerSetting.RETRY_INTERVALS));
		double jitter = this.layers.orDefault(BreakerSetting.RETRY_JITTER);
		BreakerSettings.checkRetryJitter(jitter, this.layers.property(BreakerSetting.RETRY_JITTER));
		List<String> on = this.layers.pick(BreakerSetting.RETRY_ON);
		Set<Outcome> outcomes = EnumSet.noneOf(Outcome.class);
		if (on == null) {
			outcomes.addAll(BreakerSetting.RETRY_ON.<List<Outcome>>defaultAs());
		}
		else {
			for (int i = 0; i < on.size(); i++) {
				String typed = on.get(i);
				Enum<?> outcome = (typed != null) ? EnumValues.parse(Outcome.class, typed) : null;
				if (!RETRYABLE.contains(outcome)) {
					throw new InvalidBreakerPropertyException(
							this.layers.property(BreakerSetting.RETRY_ON) + "[" + i + "]",
							(typed != null) ? BreakerNames.printable(typed.trim()) : null,
							EnumValues.allowed(RETRYABLE));
				}
				outcomes.add((Outcome) outcome);
			}
		}
		boolean recordEachAttempt = this.layers.orDefault(BreakerSetting.RETRY_RECORD_EACH_ATTEMPT);
		return new RetryPolicy(intervals, jitter, outcomes, recordEachAttempt);
	}

	private BreakerRegistry.Children toChildren(BreakerConfig config) {
		int max = this.layers.orDefault(BreakerSetting.TENANTS_MAX);
		if (max < 1) {
			throw new InvalidBreakerPropertyException(this.layers.property(BreakerSetting.TENANTS_MAX), max,
					"an integer of 1 or more");
		}
		Duration idleExpiry = this.layers.orDefault(BreakerSetting.TENANTS_IDLE_EXPIRY);
		if (!BreakerSetting.Range.positive(idleExpiry)) {
			throw new InvalidBreakerPropertyException(this.layers.property(BreakerSetting.TENANTS_IDLE_EXPIRY),
					idleExpiry, BreakerSetting.Range.POSITIVE_DURATION);
		}
		int minFailing = intIn(BreakerSetting.TENANTS_MIN_FAILING, 1,
				BreakerRegistry.Children.MAX_MIN_FAILING_CHILDREN);
		int maxKeyLength = intIn(BreakerSetting.TENANTS_MAX_KEY_LENGTH, ChildKeys.MIN_MAX_LENGTH,
				ChildKeys.MAX_MAX_LENGTH);
		// tenant children consult their parent: the parent records their latency. The
		// http group's children are hosts, bounded and checked by breaker.http.max-hosts
		// (HostsPolicy), not by tenants.max
		if (!this.layers.path().equals(BreakerProperties.path(HostBreakers.GROUP))) {
			BreakerSettings.checkChildrenMemory(this.layers.property(BreakerSetting.TENANTS_MAX), max, config, true, 0,
					0);
		}
		try {
			return new BreakerRegistry.Children(max, idleExpiry, true, minFailing, maxKeyLength);
		}
		catch (InvalidBreakerConfigException ex) {
			throw invalid(ex, Scope.TENANTS);
		}
	}

	private int intIn(BreakerSetting setting, int min, int max) {
		int value = this.layers.orDefault(setting);
		if (value < min || value > max) {
			throw new InvalidBreakerPropertyException(this.layers.property(setting), value,
					"an integer in [" + min + ", " + max + "]");
		}
		return value;
	}

	OpenHealth healthWhenOpen() {
		OpenHealth health = this.layers.pick(BreakerSetting.HEALTH_WHEN_OPEN);
		return (health != null) ? health : OpenHealth
			.valueOf(BreakerSetting.HEALTH_WHEN_OPEN.<String>defaultAs().toUpperCase(Locale.ROOT).replace('-', '_'));
	}

	private List<Class<? extends Throwable>> exceptionClasses(BreakerSetting setting, ClassLoader classLoader) {
		List<String> names = this.layers.pick(setting);
		if (names == null) {
			return List.of();
		}
		String prefix = this.layers.property(setting);
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

	/**
	 * An ignored exception wins over a recorded one anywhere in the cause chain: an
	 * {@code ignore-exceptions} entry that is every exception, or a recorded exception's
	 * class or supertype, would leave the breaker unable to trip on what it was told to
	 * count, so it stops start-up, naming both entries.
	 */
	private void checkIgnoredLeaveRecorded(List<Class<? extends Throwable>> record,
			List<Class<? extends Throwable>> ignore) {
		String ignoreProperty = this.layers.property(BreakerSetting.IGNORE_EXCEPTIONS);
		String recordProperty = this.layers.property(BreakerSetting.RECORD_EXCEPTIONS);
		for (int r = 0; r < record.size(); r++) {
			for (int i = 0; i < ignore.size(); i++) {
				if (ignore.get(i).isAssignableFrom(record.get(r))) {
					throw new InvalidBreakerPropertyException(recordProperty + "[" + r + "]", record.get(r).getName(),
							"an exception class no ignore-exceptions entry covers: '" + ignoreProperty + "[" + i
									+ "]' is '" + ignore.get(i).getName()
									+ "', which ignores it and its subclasses, so it would never count; "
									+ "remove one of the two");
				}
			}
		}
		for (int i = 0; i < ignore.size(); i++) {
			Class<?> ignored = ignore.get(i);
			if (ignored == Throwable.class || ignored == Exception.class) {
				throw new InvalidBreakerPropertyException(ignoreProperty + "[" + i + "]", ignored.getName(),
						"the exceptions that are the caller's fault, not " + ignored.getName()
								+ ": it ignores every failure and timeout, so the breaker would never trip");
			}
		}
	}

	/**
	 * An engine error as a property error, naming the property where the bad value was
	 * written.
	 */
	private InvalidBreakerPropertyException invalid(InvalidBreakerConfigException ex, Scope scope) {
		for (BreakerSetting setting : BreakerSetting.of(scope)) {
			if (setting.settingName().equals(ex.setting())) {
				return new InvalidBreakerPropertyException(this.layers.property(setting), ex.value(), ex.allowed(), ex);
			}
		}
		return new InvalidBreakerPropertyException(this.layers.path() + "." + ex.setting(), ex.value(), ex.allowed(),
				ex);
	}

}
