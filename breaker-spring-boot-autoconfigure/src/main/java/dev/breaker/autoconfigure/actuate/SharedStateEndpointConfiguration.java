package dev.breaker.autoconfigure.actuate;

import dev.breaker.actuate.endpoint.FleetSharedState;
import dev.breaker.actuate.endpoint.SharedBreakerState;
import dev.breaker.redis.FleetSync;

import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Shows the store's status and each breaker's fleet view in the breakers endpoint, when
 * the actuator is there; imported by
 * {@link dev.breaker.autoconfigure.redis.RedisBreakerAutoConfiguration}, under its
 * conditions.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnClass(name = "org.springframework.boot.actuate.endpoint.annotation.Endpoint")
public final class SharedStateEndpointConfiguration {

	@Bean
	@ConditionalOnMissingBean(SharedBreakerState.class)
	FleetSharedState breakerFleetSharedState(FleetSync sync) {
		return new FleetSharedState(sync);
	}

}
