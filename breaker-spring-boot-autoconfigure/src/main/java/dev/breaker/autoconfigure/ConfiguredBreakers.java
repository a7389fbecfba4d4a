package dev.breaker.autoconfigure;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

import dev.breaker.core.Breaker;
import dev.breaker.core.BreakerRegistry;
import dev.breaker.core.OutcomeClassifier;
import dev.breaker.core.Ticker;

/**
 * The settings of {@code breaker.defaults} and of every {@code breaker.instances.<name>},
 * each merged once at start-up: what the registry, the guarded methods and the health
 * contributor read.
 */
public final class ConfiguredBreakers {

	private final BreakerSettings defaults;

	private final Map<String, BreakerSettings> instances;

	/**
	 * Merges and validates every instance.
	 * @param properties the bound properties
	 * @param ticker the time source of the breakers
	 * @param classifier the base classifier
	 * @param classLoader where exception class names are looked up
	 * @throws InvalidBreakerPropertyException naming the property, the value and what is
	 * allowed
	 */
	public ConfiguredBreakers(BreakerProperties properties, Ticker ticker, OutcomeClassifier classifier,
			ClassLoader classLoader) {
		this.defaults = BreakerSettings.merge(BreakerProperties.DEFAULTS_PREFIX, properties.getDefaults(), null, ticker,
				classifier, classLoader);
		Map<String, BreakerSettings> merged = new LinkedHashMap<>();
		properties.getInstances()
			.forEach((name, instance) -> merged.put(name, BreakerSettings.merge(BreakerProperties.path(name), instance,
					properties.getDefaults(), ticker, classifier, classLoader)));
		this.instances = Collections.unmodifiableMap(merged);
	}

	/**
	 * The settings of {@code breaker.defaults}: of every name without an instance of its
	 * own.
	 */
	public BreakerSettings defaults() {
		return this.defaults;
	}

	/** The settings of each name under {@code breaker.instances}. */
	public Map<String, BreakerSettings> instances() {
		return this.instances;
	}

	/**
	 * The settings of one name: its instance's, else the defaults.
	 * @param name a breaker name
	 * @return the settings, never {@code null}
	 */
	public BreakerSettings of(String name) {
		return this.instances.getOrDefault(name, this.defaults);
	}

	/**
	 * The settings that apply to a breaker: its own name's instance, else its group's
	 * (for a per-tenant or per-host child), else the defaults.
	 * @param breaker a breaker of the registry
	 * @return the settings, never {@code null}
	 */
	public BreakerSettings of(Breaker breaker) {
		BreakerSettings own = this.instances.get(breaker.name());
		if (own == null && breaker.key() != null) {
			own = this.instances.get(breaker.group());
		}
		return (own != null) ? own : this.defaults;
	}

	/**
	 * Sets the registry's defaults and each instance's config and children policy.
	 * @param builder the registry being built
	 */
	public void applyTo(BreakerRegistry.Builder builder) {
		builder.defaults(this.defaults.config()).defaultChildren(this.defaults.children());
		this.instances.forEach((name, settings) -> {
			builder.config(name, settings.config());
			builder.children(name, settings.children());
		});
	}

}
