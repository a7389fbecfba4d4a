package dev.breaker.aspect;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

import dev.breaker.annotation.CircuitGuarded;
import dev.breaker.autoconfigure.BreakerAutoConfiguration;
import dev.breaker.core.ManualTicker;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

import static dev.breaker.aspect.ManualTime.breaker;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The retry budget on every retry path of {@code @CircuitGuarded}: a retry it refuses is
 * not made, and the call falls back (or fails) as if its retries were exhausted. Each
 * breaker here allows one retry per 10-second window (no ratio, 0.1 a second), and each
 * call fails every attempt.
 */
class RetryBudgetTests {

	private static final String[] ONE_RETRY_A_WINDOW = { "breaker.defaults.retry.intervals=10ms,10ms,10ms",
			"breaker.defaults.retry.budget.ratio=0", "breaker.defaults.retry.budget.min-per-second=0.1",
			"breaker.defaults.consecutive-failures=0", "breaker.defaults.failure-rate-threshold=0" };

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, BreakerAutoConfiguration.class))
		.withUserConfiguration(Services.class)
		.withPropertyValues(ONE_RETRY_A_WINDOW);

	@Test
	void aPlainCallMakesTheRetriesTheBudgetAllowsThenFallsBack() {
		this.runner.run((context) -> {
			Failing failing = context.getBean(Failing.class);
			assertThat(failing.plain()).isEqualTo("fallback after IOException");
			assertThat(failing.script().calls()).isEqualTo(2);
			assertThat(failing.plain()).isEqualTo("fallback after IOException");
			assertThat(failing.script().calls()).isEqualTo(3);
			assertThat(context.getBean(ManualDelays.class).sleeps).hasSize(1);
			assertThat(breaker(context, "plain").totals().retries()).isEqualTo(1);
			assertThat(breaker(context, "plain").totals().retriesRefused()).isEqualTo(2);
		});
	}

	@Test
	void theBudgetRefillsAsTheWindowMovesOn() {
		this.runner.run((context) -> {
			Failing failing = context.getBean(Failing.class);
			failing.plain();
			context.getBean(ManualTicker.class).advance(Duration.ofSeconds(10));
			failing.plain();
			assertThat(failing.script().calls()).isEqualTo(4);
		});
	}

	@Test
	void aCallWhoseBreakerRecordsEachAttemptAsksTheBudgetToo() {
		this.runner.withPropertyValues("breaker.instances.each.retry.record-each-attempt=true").run((context) -> {
			Failing failing = context.getBean(Failing.class);
			assertThat(failing.each()).isEqualTo("fallback after IOException");
			assertThat(failing.each()).isEqualTo("fallback after IOException");
			assertThat(failing.script().calls()).isEqualTo(3);
			assertThat(breaker(context, "each").snapshot().calls()).isEqualTo(3);
		});
	}

	@Test
	void aCompletionStageCallMakesTheRetriesTheBudgetAllows() {
		this.runner.run((context) -> {
			Failing failing = context.getBean(Failing.class);
			ManualDelays delays = context.getBean(ManualDelays.class);
			CompletableFuture<String> first = failing.stage();
			delays.runPending();
			assertThat(first).isCompletedWithValue("fallback after IOException");
			CompletableFuture<String> second = failing.stage();
			delays.runPending();
			assertThat(second).isCompletedWithValue("fallback after IOException");
			assertThat(failing.script().calls()).isEqualTo(3);
			assertThat(delays.scheduled).hasSize(1);
		});
	}

	@Test
	void aMonoCallMakesTheRetriesTheBudgetAllows() {
		this.runner.run((context) -> {
			Failing failing = context.getBean(Failing.class);
			ManualDelays delays = context.getBean(ManualDelays.class);
			CompletableFuture<String> first = failing.mono().toFuture();
			delays.runPending();
			assertThat(first).isCompletedWithValue("fallback after IOException");
			CompletableFuture<String> second = failing.mono().toFuture();
			delays.runPending();
			assertThat(second).isCompletedWithValue("fallback after IOException");
			assertThat(failing.script().calls()).isEqualTo(3);
		});
	}

	@Test
	void aFluxCallWhoseBreakerRecordsEachAttemptMakesTheRetriesTheBudgetAllows() {
		this.runner.withPropertyValues("breaker.instances.flux.retry.record-each-attempt=true").run((context) -> {
			Failing failing = context.getBean(Failing.class);
			ManualDelays delays = context.getBean(ManualDelays.class);
			CompletableFuture<java.util.List<String>> first = failing.flux().collectList().toFuture();
			delays.runPending();
			assertThat(first).isCompletedWithValue(java.util.List.of("fallback after IOException"));
			CompletableFuture<java.util.List<String>> second = failing.flux().collectList().toFuture();
			delays.runPending();
			assertThat(second).isCompletedWithValue(java.util.List.of("fallback after IOException"));
			assertThat(failing.script().calls()).isEqualTo(3);
		});
	}

	/**
	 * With the breaker inside the retries, a failed attempt is recorded before the budget
	 * is asked for its retry, on every path: with a budget of one retry per recorded
	 * first attempt and no floor, the first failure has earned exactly one retry.
	 */
	@Test
	void everyPathRecordsTheFailedAttemptBeforeAskingTheBudget() {
		String[] budget = { "breaker.defaults.retry.record-each-attempt=true", "breaker.defaults.retry.budget.ratio=1",
				"breaker.defaults.retry.budget.min-per-second=0" };
		this.runner.withPropertyValues(budget).run((context) -> {
			Failing failing = context.getBean(Failing.class);
			ManualDelays delays = context.getBean(ManualDelays.class);
			assertThat(failing.each()).isEqualTo("fallback after IOException");
			assertThat(failing.script().calls()).as("plain").isEqualTo(2);
			CompletableFuture<String> stage = failing.stage();
			delays.runPending();
			assertThat(stage).isCompletedWithValue("fallback after IOException");
			assertThat(failing.script().calls()).as("CompletionStage").isEqualTo(4);
			CompletableFuture<String> mono = failing.mono().toFuture();
			delays.runPending();
			assertThat(mono).isCompletedWithValue("fallback after IOException");
			assertThat(failing.script().calls()).as("Mono").isEqualTo(6);
			for (String name : new String[] { "each", "stage", "mono" }) {
				assertThat(breaker(context, name).totals().retries()).as(name).isEqualTo(1);
			}
		});
	}

	@Test
	void tenantsShareTheirGroupsBudget() {
		this.runner.run((context) -> {
			Failing failing = context.getBean(Failing.class);
			assertThat(failing.forTenant("loud")).isEqualTo("fallback after IOException");
			assertThat(failing.forTenant("quiet")).isEqualTo("fallback after IOException");
			// one retry in all, the loud tenant's
			assertThat(failing.script().calls()).isEqualTo(3);
			assertThat(breaker(context, "tenants").totals().retries()).isEqualTo(1);
			assertThat(breaker(context, "tenants").totals().retriesRefused()).isEqualTo(2);
		});
	}

	@Test
	void withAGenerousBudgetEveryIntervalRetries() {
		this.runner.withPropertyValues("breaker.defaults.retry.budget.min-per-second=10").run((context) -> {
			Failing failing = context.getBean(Failing.class);
			failing.plain();
			assertThat(failing.script().calls()).isEqualTo(4);
		});
	}

	@Configuration(proxyBeanMethods = false)
	@Import(ManualTime.class)
	static class Services {

		@Bean
		Failing failing() {
			return new Failing();
		}

	}

	static class Failing {

		private final Script script = new Script();

		private Object fail() throws Exception {
			this.script.next();
			throw new IOException("down");
		}

		@CircuitGuarded(name = "plain", fallbackMethod = "fallback")
		public String plain() throws Exception {
			return (String) fail();
		}

		@CircuitGuarded(name = "each", fallbackMethod = "fallback")
		public String each() throws Exception {
			return (String) fail();
		}

		@CircuitGuarded(name = "tenants", tenant = "#tenant", fallbackMethod = "tenantFallback")
		public String forTenant(String tenant) throws Exception {
			return (String) fail();
		}

		@CircuitGuarded(name = "stage", fallbackMethod = "stageFallback")
		public CompletableFuture<String> stage() {
			try {
				fail();
			}
			catch (Exception ex) {
				return CompletableFuture.failedFuture(ex);
			}
			return CompletableFuture.completedFuture("never");
		}

		@CircuitGuarded(name = "mono", fallbackMethod = "monoFallback")
		public Mono<String> mono() {
			return Mono.defer(() -> {
				try {
					fail();
				}
				catch (Exception ex) {
					return Mono.error(ex);
				}
				return Mono.just("never");
			});
		}

		@CircuitGuarded(name = "flux", fallbackMethod = "fluxFallback")
		public Flux<String> flux() {
			return Flux.defer(() -> {
				try {
					fail();
				}
				catch (Exception ex) {
					return Flux.error(ex);
				}
				return Flux.just("never");
			});
		}

		String fallback(Throwable cause) {
			return "fallback after " + cause.getClass().getSimpleName();
		}

		String tenantFallback(String tenant, Throwable cause) {
			return fallback(cause);
		}

		CompletableFuture<String> stageFallback(Throwable cause) {
			return CompletableFuture.completedFuture(fallback(cause));
		}

		Mono<String> monoFallback(Throwable cause) {
			return Mono.just(fallback(cause));
		}

		Flux<String> fluxFallback(Throwable cause) {
			return Flux.just(fallback(cause));
		}

		Script script() {
			return this.script;
		}

	}

}
