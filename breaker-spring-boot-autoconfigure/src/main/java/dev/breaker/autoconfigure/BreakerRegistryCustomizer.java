package dev.breaker.autoconfigure;

import dev.breaker.core.BreakerRegistry;

/**
 * Customizes the {@link BreakerRegistry.Builder} before the auto-configured registry is
 * built.
 */
@FunctionalInterface
public interface BreakerRegistryCustomizer {

	/**
	 * Customize the builder: add configs, children policies.
	 * @param builder the registry builder, already holding the configs from
	 * {@code breaker.*}
	 */
	void customize(BreakerRegistry.Builder builder);

}
