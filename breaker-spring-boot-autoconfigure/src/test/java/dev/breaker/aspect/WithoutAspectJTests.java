package dev.breaker.aspect;

import java.io.IOException;

import dev.breaker.autoconfigure.BreakerAutoConfiguration;
import dev.breaker.core.BreakerRegistry;
import dev.breaker.core.Outcome;
import org.junit.jupiter.api.Test;

import org.springframework.aop.support.AopUtils;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * An application without AspectJ is fully guarded. This class (like every test of the
 * module not tagged "aspectj") runs with {@code aspectjweaver} removed from the class
 * path by the build, which the first test checks, so the others cannot pass with AspectJ
 * present.
 */
class WithoutAspectJTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner().withUserConfiguration(Services.class)
		.withPropertyValues("breaker.instances.quotes.consecutive-failures=2",
				"breaker.instances.quotes.failure-rate-threshold=0");

	@Test
	void runsWithoutAspectJOnTheClassPath() {
		assertThatExceptionOfType(ClassNotFoundException.class)
			.isThrownBy(() -> Class.forName("org.aspectj.weaver.Advice", false, getClass().getClassLoader()));
		assertThatExceptionOfType(ClassNotFoundException.class).isThrownBy(
				() -> Class.forName("org.aspectj.lang.ProceedingJoinPoint", false, getClass().getClassLoader()));
	}

	@Test
	void guardsWithBootsAopAutoConfiguration() {
		this.runner.withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, BreakerAutoConfiguration.class))
			.run((context) -> tripsAndFallsBack(context.getBean(Quotes.class), context.getBean(BreakerRegistry.class)));
	}

	@Test
	void guardsWithoutAnyOtherAutoConfiguration() {
		this.runner.withConfiguration(AutoConfigurations.of(BreakerAutoConfiguration.class))
			.run((context) -> tripsAndFallsBack(context.getBean(Quotes.class), context.getBean(BreakerRegistry.class)));
	}

	@Test
	void guardsWhenBootsAopAutoConfigurationIsSwitchedOff() {
		this.runner.withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, BreakerAutoConfiguration.class))
			.withPropertyValues("spring.aop.auto=false")
			.run((context) -> tripsAndFallsBack(context.getBean(Quotes.class), context.getBean(BreakerRegistry.class)));
	}

	private static void tripsAndFallsBack(Quotes quotes, BreakerRegistry registry) throws Exception {
		assertThat(AopUtils.isAopProxy(quotes)).as("the bean is proxied").isTrue();
		quotes.script().then("live AAPL");
		assertThat(quotes.quote("AAPL")).isEqualTo("live AAPL");
		quotes.script().then(new IOException("reset"), new IOException("reset"));
		assertThat(quotes.quote("AAPL")).isEqualTo("cached AAPL (IOException)");
		assertThat(quotes.quote("AAPL")).isEqualTo("cached AAPL (IOException)");
		assertThat(quotes.quote("AAPL")).isEqualTo("cached AAPL (BreakerOpenException)");
		assertThat(quotes.script().calls()).isEqualTo(3);
		assertThat(registry.breaker("quotes").totals().calls(Outcome.SUCCESS)).isEqualTo(1);
		assertThat(registry.breaker("quotes").totals().calls(Outcome.FAILURE)).isEqualTo(2);
		assertThat(registry.breaker("quotes").totals().rejected()).isEqualTo(1);
	}

	@Configuration(proxyBeanMethods = false)
	@Import(ManualTime.class)
	static class Services {

		@Bean
		Quotes quotes() {
			return new Quotes();
		}

	}

}
