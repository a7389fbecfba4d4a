package dev.breaker.autoconfigure.observation;

import io.micrometer.observation.ObservationRegistry;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

import dev.breaker.autoconfigure.BreakerAutoConfiguration;
import dev.breaker.core.BreakerRegistry;
import dev.breaker.observation.BreakerObservations;

/**
 * Auto-configuration of {@link BreakerObservations}: with an {@link ObservationRegistry}
 * bean, guarded calls and transitions show on the current observation (and so in traces).
 */
@AutoConfiguration(after = BreakerAutoConfiguration.class,
		afterName = "org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration")
@ConditionalOnClass(ObservationRegistry.class)
@ConditionalOnBean({ BreakerRegistry.class, ObservationRegistry.class })
public final class BreakerObservationAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	BreakerObservations breakerObservations(ObservationRegistry observations, BreakerRegistry breakers) {
		BreakerObservations observer = new BreakerObservations(observations);
		breakers.onTransition(observer::onTransition);
		return observer;
	}

}
