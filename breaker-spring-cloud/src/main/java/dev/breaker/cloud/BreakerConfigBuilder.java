package dev.breaker.cloud;

import java.util.function.Consumer;

import dev.breaker.core.BreakerConfig;

import org.springframework.cloud.client.circuitbreaker.ConfigBuilder;

/**
 * Builds the engine configuration of one Spring Cloud circuit breaker id, starting from
 * what {@code breaker.instances.<id>} (over {@code breaker.defaults}) configures.
 */
public final class BreakerConfigBuilder implements ConfigBuilder<BreakerConfig> {

	private final BreakerConfig.Builder builder;

	BreakerConfigBuilder(BreakerConfig.Builder builder) {
		this.builder = builder;
	}

	/**
	 * Changes the engine configuration, e.g.
	 * {@code tune((config) -> config.openWait(Duration.ofSeconds(5)))}.
	 * @param change what to change on the engine's builder
	 * @return this builder
	 */
	public BreakerConfigBuilder tune(Consumer<BreakerConfig.Builder> change) {
		change.accept(this.builder);
		return this;
	}

	@Override
	public BreakerConfig build() {
		return this.builder.build();
	}

}
