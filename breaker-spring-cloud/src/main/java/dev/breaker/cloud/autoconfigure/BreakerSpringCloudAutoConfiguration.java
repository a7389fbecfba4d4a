package dev.breaker.cloud.autoconfigure;

import dev.breaker.autoconfigure.BreakerAutoConfiguration;
import dev.breaker.autoconfigure.BreakerRegistryCustomizer;
import dev.breaker.autoconfigure.ConditionalOnBreakerSwitch;
import dev.breaker.autoconfigure.ConfiguredBreakers;
import dev.breaker.cloud.BreakerCircuitBreakerFactory;
import dev.breaker.cloud.CloudBreakers;
import dev.breaker.cloud.FeignStatus;
import dev.breaker.cloud.ReactiveBreakerCircuitBreakerFactory;
import dev.breaker.cloud.gateway.BreakerGatewayFilterFactory;
import dev.breaker.core.BreakerRegistry;
import reactor.core.publisher.Mono;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.cloud.client.circuitbreaker.CircuitBreakerFactory;
import org.springframework.cloud.client.circuitbreaker.Customizer;
import org.springframework.cloud.client.circuitbreaker.ReactiveCircuitBreakerFactory;
import org.springframework.cloud.gateway.filter.factory.SpringCloudCircuitBreakerFilterFactory;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.reactive.DispatcherHandler;

/**
 * Spring Cloud CircuitBreaker on breaker: its {@code CircuitBreakerFactory} and
 * {@code ReactiveCircuitBreakerFactory} (and Gateway's {@code CircuitBreaker} filter) are
 * breaker's registry. On when Spring Cloud Commons is on the class path; off with
 * {@code spring.cloud.circuitbreaker.breaker.enabled=false}.
 */
@AutoConfiguration(after = BreakerAutoConfiguration.class,
		beforeName = { "org.springframework.cloud.openfeign.FeignAutoConfiguration",
				"org.springframework.cloud.gateway.config.GatewayAutoConfiguration" })
@ConditionalOnClass(CircuitBreakerFactory.class)
@ConditionalOnBreakerSwitch(value = "spring.cloud.circuitbreaker.breaker.enabled", matchIfMissing = true)
@ConditionalOnBean(BreakerRegistry.class)
public final class BreakerSpringCloudAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	CloudBreakers breakerCloudBreakers(ObjectProvider<BreakerRegistry> registry, ConfiguredBreakers configured) {
		return new CloudBreakers(registry::getObject, (id) -> configured.of(id).config(),
				(id) -> configured.of(id).callPolicy().timeout());
	}

	/**
	 * Runs the factories' customizers (by creating the factories) before the registry is
	 * built, and hands it what they configured.
	 */
	@Bean
	BreakerRegistryCustomizer breakerSpringCloudConfigurations(CloudBreakers breakers,
			ObjectProvider<BreakerCircuitBreakerFactory> factory,
			ObjectProvider<ReactiveBreakerCircuitBreakerFactory> reactiveFactory) {
		return (builder) -> {
			factory.ifAvailable((created) -> {
			});
			reactiveFactory.ifAvailable((created) -> {
			});
			breakers.applyTo(builder);
		};
	}

	@Bean
	@ConditionalOnMissingBean(CircuitBreakerFactory.class)
	BreakerCircuitBreakerFactory breakerCircuitBreakerFactory(CloudBreakers breakers,
			ObjectProvider<Customizer<BreakerCircuitBreakerFactory>> customizers) {
		BreakerCircuitBreakerFactory factory = new BreakerCircuitBreakerFactory(breakers);
		customizers.orderedStream().forEach((customizer) -> customizer.customize(factory));
		return factory;
	}

	/**
	 * A Feign client's status exceptions judged by their status by the default classifier
	 * (a 404 is the caller's fault), as Spring's HTTP clients' are.
	 */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(name = "feign.FeignException")
	static class FeignConfiguration {

		@Bean
		@ConditionalOnMissingBean
		FeignStatus breakerFeignStatus() {
			return new FeignStatus();
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass({ Mono.class, ReactiveCircuitBreakerFactory.class })
	static class ReactiveConfiguration {

		@Bean
		@ConditionalOnMissingBean(ReactiveCircuitBreakerFactory.class)
		ReactiveBreakerCircuitBreakerFactory reactiveBreakerCircuitBreakerFactory(CloudBreakers breakers,
				ObjectProvider<Customizer<ReactiveBreakerCircuitBreakerFactory>> customizers) {
			ReactiveBreakerCircuitBreakerFactory factory = new ReactiveBreakerCircuitBreakerFactory(breakers);
			customizers.orderedStream().forEach((customizer) -> customizer.customize(factory));
			return factory;
		}

		@Configuration(proxyBeanMethods = false)
		@ConditionalOnClass({ SpringCloudCircuitBreakerFilterFactory.class, DispatcherHandler.class })
		@ConditionalOnBooleanProperty(name = "spring.cloud.gateway.server.webflux.enabled", matchIfMissing = true)
		static class GatewayConfiguration {

			@Bean
			@ConditionalOnMissingBean(SpringCloudCircuitBreakerFilterFactory.class)
			BreakerGatewayFilterFactory breakerGatewayFilterFactory(ReactiveCircuitBreakerFactory<?, ?> factory,
					ObjectProvider<DispatcherHandler> dispatcherHandler) {
				return new BreakerGatewayFilterFactory(factory, dispatcherHandler);
			}

		}

	}

}
