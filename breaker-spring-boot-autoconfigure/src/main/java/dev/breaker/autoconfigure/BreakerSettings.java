package dev.breaker.autoconfigure;

import java.time.Duration;
import java.util.List;

import dev.breaker.aspect.CallPolicy;
import dev.breaker.autoconfigure.BreakerProperties.Instance;
import dev.breaker.autoconfigure.BreakerProperties.OpenHealth;
import dev.breaker.core.BreakerConfig;
import dev.breaker.core.BreakerRegistry;
import dev.breaker.core.BreakerSetting;
import dev.breaker.core.ChildFootprint;
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
	 * The most bytes the children of one group (the tenants of one breaker name, the
	 * hosts of the HTTP breakers) may take at their most: 256 MiB. A fixed amount rather
	 * than a share of the heap, so that whether a configuration starts does not depend on
	 * the machine's {@code -Xmx}: the defaults take 38 MiB of tenants (10,000 of 3.9 KB)
	 * and 10 MiB of hosts (1,000 of 10.7 KB), a quarter of a gigabyte is what a service
	 * can be asked to give one group whose keys its callers choose.
	 */
	public static final long CHILDREN_BUDGET_BYTES = 256L * 1024 * 1024;

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
	 * The {@code health-when-open} alone of {@code own} over {@code defaults}: for
	 * settings whose other parts mean something else (a host of
	 * {@code breaker.http.instances}).
	 * @param path the property prefix of {@code own}
	 * @param own the settings
	 * @param defaults the settings it inherits, or {@code null} for none
	 * @return the health an open breaker of these settings reports
	 */
	public static OpenHealth healthWhenOpen(String path, Instance own, @Nullable Instance defaults) {
		return new MergedInstance(path, own, defaults).healthWhenOpen();
	}

	/**
	 * Checks that {@code max} children fit in {@link #CHILDREN_BUDGET_BYTES}: the
	 * children a group's callers can create by their keys must not be able to fill the
	 * heap.
	 * @param property the property bounding their count, e.g.
	 * {@code breaker.instances.payments.tenants.max}
	 * @param max its value
	 * @param config the configuration of the children callers' keys create
	 * @param consultsParent whether those children consult their parent
	 * @param reservedChildren children with settings of their own (configured hosts),
	 * counted among {@code max}
	 * @param reservedBytes the bytes those take
	 * @throws InvalidBreakerPropertyException naming the property, the value, the
	 * estimate and the most children allowed
	 */
	public static void checkChildrenMemory(String property, int max, BreakerConfig config, boolean consultsParent,
			int reservedChildren, long reservedBytes) {
		long perChild = ChildFootprint.bytes(config, consultsParent);
		long total = reservedBytes + (max - Math.min(reservedChildren, max)) * perChild;
		if (total <= CHILDREN_BUDGET_BYTES) {
			return;
		}
		long fitting = reservedChildren + Math.max(0, (CHILDREN_BUDGET_BYTES - reservedBytes) / perChild);
		String window = Numbers.format(config.window()) + " of " + Numbers.format(config.bucket()) + " buckets";
		throw new InvalidBreakerPropertyException(property, max,
				"at most " + fitting + " children of this window (" + window + ": about " + perChild
						+ " bytes a child, " + megabytes(total) + " for " + max + " children, over the "
						+ megabytes(CHILDREN_BUDGET_BYTES)
						+ " the children of one group may take), or a coarser bucket or a shorter window");
	}

	private static String megabytes(long bytes) {
		return (bytes + (1 << 20) - 1 >> 20) + " MiB";
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
