package dev.breaker.autoconfigure;

import java.util.Set;

/**
 * Breaker names a part of the application uses without a {@code @CircuitGuarded} method
 * (such as the per-host HTTP breakers' group {@code http}), so configuring them is not
 * taken for a typo.
 */
@FunctionalInterface
public interface BreakerNamesInUse {

	/**
	 * The names in use.
	 * @return top-level breaker or group names
	 */
	Set<String> names();

}
