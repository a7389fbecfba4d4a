package dev.breaker.aspect;

import dev.breaker.core.Breaker;
import dev.breaker.core.BreakerRegistry;
import dev.breaker.core.ManualTicker;

import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * What the aspect tests' contexts share: breakers on a manual ticker, and retry pauses
 * and timeouts on {@link ManualDelays}, so nothing really waits. Imported by each test's
 * own configuration.
 */
@Configuration(proxyBeanMethods = false)
class ManualTime {

	@Bean
	ManualTicker ticker() {
		return new ManualTicker();
	}

	@Bean
	ManualDelays delays() {
		return new ManualDelays();
	}

	/** The registry's breaker {@code name} in {@code context}. */
	static Breaker breaker(ApplicationContext context, String name) {
		return context.getBean(BreakerRegistry.class).breaker(name);
	}

}
