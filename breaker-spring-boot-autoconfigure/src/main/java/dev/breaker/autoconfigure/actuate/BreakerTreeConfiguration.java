package dev.breaker.autoconfigure.actuate;

import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import dev.breaker.actuate.BreakerTree;
import dev.breaker.core.BreakerRegistry;

/** The one {@link BreakerTree} the endpoint, health contributor and meters share. */
@Configuration(proxyBeanMethods = false)
class BreakerTreeConfiguration {

	@Bean
	@ConditionalOnMissingBean
	BreakerTree breakerTree(BreakerRegistry registry) {
		return new BreakerTree(registry);
	}

}
