package dev.breaker.autoconfigure.actuate;

import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.actuate.autoconfigure.endpoint.expose.EndpointExposure;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;

import dev.breaker.actuate.BreakerTree;
import dev.breaker.actuate.endpoint.BreakersEndpoint;
import dev.breaker.actuate.endpoint.BreakersEndpointWebExtension;
import dev.breaker.autoconfigure.BreakerAutoConfiguration;
import dev.breaker.core.BreakerRegistry;

/**
 * Auto-configuration of the {@code breakers} actuator endpoint (read-only unless
 * {@code management.endpoint.breakers.access=unrestricted}).
 */
@AutoConfiguration(after = BreakerAutoConfiguration.class)
@ConditionalOnClass(Endpoint.class)
@ConditionalOnBean(BreakerRegistry.class)
@ConditionalOnAvailableEndpoint(BreakersEndpoint.class)
@Import(BreakerTreeConfiguration.class)
public final class BreakerEndpointAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	BreakersEndpoint breakersEndpoint(BreakerRegistry registry, BreakerTree tree) {
		return new BreakersEndpoint(registry, tree);
	}

	@Bean
	@ConditionalOnMissingBean
	@ConditionalOnBean(BreakersEndpoint.class)
	@ConditionalOnAvailableEndpoint(exposure = EndpointExposure.WEB)
	BreakersEndpointWebExtension breakersEndpointWebExtension(BreakersEndpoint endpoint) {
		return new BreakersEndpointWebExtension(endpoint);
	}

}
