package dev.breaker.autoconfigure.actuate;

import java.time.Clock;

import org.springframework.beans.factory.ObjectProvider;
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
import dev.breaker.actuate.endpoint.SharedBreakerState;
import dev.breaker.actuate.history.BreakerHistory;
import dev.breaker.autoconfigure.BreakerAutoConfiguration;
import dev.breaker.core.BreakerRegistry;
import dev.breaker.core.Ticker;

/**
 * Auto-configuration of the {@code breakers} actuator endpoint (read-only unless
 * {@code management.endpoint.breakers.access=unrestricted}); it also shows the state
 * breakers share with other replicas when a {@link SharedBreakerState} bean exists (fleet
 * mode), and the last five minutes of each breaker ({@link BreakerHistory}, sampled once
 * a second from start-up).
 */
@AutoConfiguration(after = BreakerAutoConfiguration.class)
@ConditionalOnClass(Endpoint.class)
@ConditionalOnBean(BreakerRegistry.class)
@ConditionalOnAvailableEndpoint(BreakersEndpoint.class)
@Import(BreakerTreeConfiguration.class)
public final class BreakerEndpointAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	BreakersEndpoint breakersEndpoint(BreakerRegistry registry, BreakerTree tree,
			ObjectProvider<SharedBreakerState> shared, ObjectProvider<BreakerHistory> history) {
		return new BreakersEndpoint(registry, tree, shared.getIfUnique(), history.getIfUnique());
	}

	@Bean
	@ConditionalOnMissingBean
	BreakerHistory breakerHistory(BreakerRegistry registry, ObjectProvider<Ticker> ticker) {
		return new BreakerHistory(registry, ticker.getIfUnique(Ticker::cached), Clock.systemUTC());
	}

	@Bean
	@ConditionalOnMissingBean
	@ConditionalOnBean(BreakersEndpoint.class)
	@ConditionalOnAvailableEndpoint(exposure = EndpointExposure.WEB)
	BreakersEndpointWebExtension breakersEndpointWebExtension(BreakersEndpoint endpoint) {
		return new BreakersEndpointWebExtension(endpoint);
	}

}
