package dev.breaker.autoconfigure;

import java.time.Duration;
import java.util.List;

import dev.breaker.aspect.CallPolicy;
import dev.breaker.autoconfigure.BreakerProperties.Instance;
import dev.breaker.autoconfigure.BreakerProperties.OpenHealth;
import dev.breaker.core.BreakerConfig;
import dev.breaker.core.BreakerRegistry;
import dev.breaker.core.BreakerSetting;
import dev.breaker.core.Numbers;
import dev.breaker.core.OutcomeClassifier;
import dev.breaker.core.Ticker;

import org.jspecify.annotations.Nullable;

import org.springframework.util.ClassUtils;

/**
 * Everything one breaker name is configured with, merged once from its instance over
 * {@code breaker.defaults} (and the table's defaults underneath) and validated.
 *
 * @param config the engine configuration
 * @param children the policy of its per-tenant children (children consult their parent)
 * @param callPolicy the timeout and retries of its guarded calls
 * @param healthWhenOpen the health it reports while open
 */
public record BreakerSettings(BreakerConfig config, BreakerRegistry.Children children, CallPolicy callPolicy,
		OpenHealth healthWhenOpen) {

	/**
	 * Merges {@code own} over {@code defaults} in one pass and validates the result.
	 * @param path the property prefix of {@code own} for error messages, e.g.
	 * {@code breaker.instances.payments}
	 * @param own the instance's own settings
	 * @param defaults the settings it inherits ({@code breaker.defaults}), or
	 * {@code null} for none
	 * @param ticker the time source of the breaker
	 * @param classifier the base classifier; record-exceptions and ignore-exceptions
	 * refine it
	 * @param classLoader where exception class names are looked up
	 * @return the merged settings
	 * @throws InvalidBreakerPropertyException naming the property, the value and what is
	 * allowed
	 */
	public static BreakerSettings merge(String path, Instance own, @Nullable Instance defaults, Ticker ticker,
			OutcomeClassifier classifier, ClassLoader classLoader) {
		return new MergedInstance(path, own, defaults).merge(ticker, classifier, classLoader);
	}

	/**
	 * The engine configuration alone of {@code own} over {@code defaults}, with the
	 * default classifier: for settings whose other parts mean something else (a host of
	 * {@code breaker.http.instances}).
	 * @param path the property prefix of {@code own} for error messages
	 * @param own the settings
	 * @param defaults the settings it inherits, or {@code null} for none
	 * @param ticker the time source of the breaker
	 * @return the engine configuration
	 * @throws InvalidBreakerPropertyException naming the property, the value and what is
	 * allowed
	 */
	public static BreakerConfig config(String path, Instance own, @Nullable Instance defaults, Ticker ticker) {
		return new MergedInstance(path, own, defaults).toConfig(ticker, OutcomeClassifier.defaults(),
				ClassUtils.getDefaultClassLoader());
	}

	/**
	 * The pauses of a retry policy, checked once for {@code @CircuitGuarded} methods and
	 * the HTTP clients: each from 0 to 24h, so that no pause overflows.
	 * @param intervals the pauses as bound, or {@code null} when unset (no retries)
	 * @param property the property they were bound from, e.g.
	 * {@code breaker.instances.payments.retry.intervals}
	 * @return the pauses, empty when unset
	 * @throws InvalidBreakerPropertyException naming the first pause out of range
	 */
	public static List<Duration> retryIntervals(@Nullable List<Duration> intervals, String property) {
		if (intervals == null) {
			return List.of();
		}
		for (int i = 0; i < intervals.size(); i++) {
			Duration interval = intervals.get(i);
			if (interval == null || interval.isNegative()
					|| interval.compareTo(BreakerSetting.Range.MAX_DURATION) > 0) {
				throw new InvalidBreakerPropertyException(property + "[" + i + "]", interval,
						"a duration from 0 to " + Numbers.format(BreakerSetting.Range.MAX_DURATION));
			}
		}
		return intervals;
	}

	/**
	 * The jitter of a retry policy, checked once for {@code @CircuitGuarded} methods and
	 * the HTTP clients: a fraction in [0, 1].
	 * @param jitter the jitter as bound
	 * @param property the property it was bound from
	 * @throws InvalidBreakerPropertyException when it is unset or out of range
	 */
	public static void checkRetryJitter(@Nullable Double jitter, String property) {
		if (jitter == null || !(jitter >= 0 && jitter <= 1)) {
			throw new InvalidBreakerPropertyException(property, jitter, "a fraction in [0, 1]");
		}
	}

}
