package dev.breaker.cloud;

import java.util.function.Consumer;
import java.util.function.Function;

import dev.breaker.core.BreakerConfig;

import org.springframework.cloud.client.circuitbreaker.CircuitBreakerFactory;

/**
 * Spring Cloud's {@code CircuitBreakerFactory} on breaker's registry:
 * {@code create("payments")} is the registry's {@code payments} breaker, configured by
 * {@code breaker.instances.payments}; {@code create(id, group)} is the child {@code id}
 * of the breaker {@code group} (configured by {@code breaker.instances.<group>}), so a
 * call must pass both.
 *
 * <p>
 * {@link #configure} and {@link #configureDefault} work from a
 * {@code Customizer<BreakerCircuitBreakerFactory>} bean, which runs before the registry
 * is built; called later they throw (but {@code configure} with no ids, which configures
 * nothing). The default function is applied once, to the id {@code "default"}, and
 * replaces {@code breaker.defaults} for every breaker of the registry.
 *
 * <p>
 * Every method delegates to {@code CloudBreakers}, shared with
 * {@link ReactiveBreakerCircuitBreakerFactory}: the two Spring Cloud base classes are
 * unrelated abstract classes that each declare these methods, so the one-line overrides
 * are written in both (an interface default cannot implement an abstract class's method).
 */
public class BreakerCircuitBreakerFactory extends CircuitBreakerFactory<BreakerConfig, BreakerConfigBuilder> {

	private final CloudBreakers breakers;

	/**
	 * Create the factory.
	 * @param breakers where its circuit breakers come from
	 */
	public BreakerCircuitBreakerFactory(CloudBreakers breakers) {
		this.breakers = breakers;
	}

	@Override
	public BreakerCircuitBreaker create(String id) {
		return new BreakerCircuitBreaker(this.breakers.breaker(id, null));
	}

	@Override
	public BreakerCircuitBreaker create(String id, String groupName) {
		return new BreakerCircuitBreaker(this.breakers.breaker(id, groupName));
	}

	@Override
	public void configure(Consumer<BreakerConfigBuilder> consumer, String... ids) {
		this.breakers.configure(this::configBuilder, consumer, ids);
	}

	@Override
	protected BreakerConfigBuilder configBuilder(String id) {
		return this.breakers.configBuilder(id);
	}

	@Override
	public void configureDefault(Function<String, BreakerConfig> defaultConfiguration) {
		this.breakers.configureDefault(defaultConfiguration);
	}

}
