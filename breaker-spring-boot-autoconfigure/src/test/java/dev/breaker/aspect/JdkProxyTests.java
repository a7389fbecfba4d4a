package dev.breaker.aspect;

import java.lang.reflect.Proxy;

import dev.breaker.annotation.CircuitGuarded;
import dev.breaker.autoconfigure.BreakerAutoConfiguration;
import dev.breaker.core.BreakerRegistry;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * With interface-based (JDK) proxies the proxy reports the interface's method; the
 * annotation on the implementation still applies.
 */
class JdkProxyTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, BreakerAutoConfiguration.class))
		.withUserConfiguration(Services.class)
		.withPropertyValues("spring.aop.proxy-target-class=false");

	@Test
	void guardsAMethodCalledThroughAnInterfaceProxy() {
		this.runner.run((context) -> {
			QuoteService quotes = context.getBean(QuoteService.class);
			assertThat(Proxy.isProxyClass(quotes.getClass())).isTrue();
			assertThat(quotes.quote("AAPL")).isEqualTo("live AAPL");
			context.getBean(BreakerRegistry.class).breaker("quotes").forceOpen();
			assertThat(quotes.quote("AAPL")).isEqualTo("cached AAPL");
			assertThat(quotes.quote("MSFT")).isEqualTo("cached MSFT");
		});
	}

	@Test
	void checksTheFallbacksBehindAnInterfaceProxyAtStartUp() {
		this.runner.withUserConfiguration(BrokenServices.class)
			.run((context) -> assertThat(context).getFailure()
				.isInstanceOf(InvalidGuardedMethodException.class)
				.hasMessageContaining("of bean 'brokenQuotes': fallbackMethod 'missing' does not exist"));
	}

	static class BrokenQuotes implements QuoteService {

		@Override
		@CircuitGuarded(name = "quotes", fallbackMethod = "missing")
		public String quote(String symbol) {
			return "live " + symbol;
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class BrokenServices {

		@Bean
		QuoteService brokenQuotes() {
			return new BrokenQuotes();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class Services {

		@Bean
		QuoteService quotes() {
			return new QuoteService.Remote();
		}

	}

}
