package dev.breaker.autoconfigure.actuate;

import java.time.Duration;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;

import dev.breaker.autoconfigure.BreakerRegistryCustomizer;
import dev.breaker.core.BreakerRegistry.Children;
import dev.breaker.core.ManualTicker;

/**
 * The application the actuator tests run: the starter's auto-configuration, a manual
 * ticker so open waits pass on demand, a guarded service with tiered fallbacks, and
 * per-host children under {@code http} as the HTTP client integration creates them.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
class ObservedApplication {

	@Bean
	ManualTicker breakerTicker() {
		return new ManualTicker();
	}

	@Bean
	QuoteService quoteService() {
		return new QuoteService();
	}

	@Bean
	BreakerRegistryCustomizer perHostChildren() {
		return (builder) -> builder.children("http", new Children(100, Duration.ofMinutes(10), false));
	}

}
