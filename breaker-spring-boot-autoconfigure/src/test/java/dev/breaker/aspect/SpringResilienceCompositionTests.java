package dev.breaker.aspect;

import java.io.IOException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import dev.breaker.annotation.CircuitGuarded;
import dev.breaker.autoconfigure.BreakerAutoConfiguration;
import dev.breaker.core.BreakerOpenException;
import dev.breaker.core.BreakerRegistry;
import dev.breaker.core.Outcome;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.resilience.InvocationRejectedException;
import org.springframework.resilience.annotation.ConcurrencyLimit;
import org.springframework.resilience.annotation.EnableResilientMethods;
import org.springframework.resilience.annotation.Retryable;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * How {@code @CircuitGuarded} composes with Spring Framework 7's {@code @Retryable} and
 * {@code @ConcurrencyLimit} on the same method: both wrap the breaker, so each retry
 * attempt is recorded and a rejected call never reaches the breaker.
 */
class SpringResilienceCompositionTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, BreakerAutoConfiguration.class))
		.withUserConfiguration(Services.class)
		.withPropertyValues("breaker.defaults.consecutive-failures=0", "breaker.defaults.failure-rate-threshold=0");

	@Test
	void retryableSitsOutsideTheBreakerSoEveryAttemptIsRecorded() {
		this.runner.run((context) -> {
			Inventory inventory = context.getBean(Inventory.class);
			inventory.script().then(new IOException("1"), new IOException("2"), "ok");
			assertThat(inventory.retried()).isEqualTo("ok");
			BreakerRegistry registry = context.getBean(BreakerRegistry.class);
			assertThat(registry.breaker("retried").totals().calls(Outcome.FAILURE)).isEqualTo(2);
			assertThat(registry.breaker("retried").totals().calls(Outcome.SUCCESS)).isEqualTo(1);
		});
	}

	@Test
	void retryableRetriesARejectionUnlessItIsExcluded() {
		this.runner.run((context) -> {
			BreakerRegistry registry = context.getBean(BreakerRegistry.class);
			registry.breaker("retried").forceOpen();
			registry.breaker("excluded").forceOpen();
			Inventory inventory = context.getBean(Inventory.class);
			assertThatExceptionOfType(BreakerOpenException.class).isThrownBy(inventory::retried);
			assertThat(registry.breaker("retried").totals().rejected()).isEqualTo(3);
			assertThatExceptionOfType(BreakerOpenException.class).isThrownBy(inventory::excluded);
			assertThat(registry.breaker("excluded").totals().rejected()).isEqualTo(1);
		});
	}

	@Test
	void concurrencyLimitRejectsBeforeTheBreakerSeesTheCall() {
		this.runner.run((context) -> {
			Inventory inventory = context.getBean(Inventory.class);
			ExecutorService executor = Executors.newSingleThreadExecutor();
			try {
				Future<String> first = executor.submit(inventory::limited);
				assertThat(inventory.entered().await(5, TimeUnit.SECONDS)).isTrue();
				assertThatExceptionOfType(InvocationRejectedException.class).isThrownBy(inventory::limited);
				inventory.release().countDown();
				assertThat(first.get(5, TimeUnit.SECONDS)).isEqualTo("done");
			}
			finally {
				executor.shutdownNow();
			}
			BreakerRegistry registry = context.getBean(BreakerRegistry.class);
			assertThat(registry.breaker("limited").totals().calls(Outcome.SUCCESS)).isEqualTo(1);
			assertThat(registry.breaker("limited").totals().calls(Outcome.FAILURE)).isZero();
			assertThat(registry.breaker("limited").totals().rejected()).isZero();
		});
	}

	@Configuration(proxyBeanMethods = false)
	@EnableResilientMethods
	@Import(ManualTime.class)
	static class Services {

		@Bean
		Inventory inventory() {
			return new Inventory();
		}

	}

	static class Inventory {

		private final Script script = new Script();

		private final CountDownLatch entered = new CountDownLatch(1);

		private final CountDownLatch release = new CountDownLatch(1);

		@CircuitGuarded(name = "retried")
		@Retryable(maxRetries = 2, delay = 0)
		public String retried() throws Exception {
			return (String) this.script.next();
		}

		@CircuitGuarded(name = "excluded")
		@Retryable(maxRetries = 2, delay = 0, excludes = BreakerOpenException.class)
		public String excluded() throws Exception {
			return (String) this.script.next();
		}

		@CircuitGuarded(name = "limited")
		@ConcurrencyLimit(limit = 1, policy = ConcurrencyLimit.ThrottlePolicy.REJECT)
		public String limited() throws InterruptedException {
			this.entered.countDown();
			this.release.await(5, TimeUnit.SECONDS);
			return "done";
		}

		Script script() {
			return this.script;
		}

		CountDownLatch entered() {
			return this.entered;
		}

		CountDownLatch release() {
			return this.release;
		}

	}

}
