package dev.breaker.aspect;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.TimeoutException;

import dev.breaker.annotation.CircuitGuarded;
import dev.breaker.autoconfigure.BreakerAutoConfiguration;
import dev.breaker.core.BreakerRegistry;
import dev.breaker.core.Outcome;
import dev.breaker.core.OutcomeClassifier;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

import static dev.breaker.aspect.ManualTime.calls;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

class RetryTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, BreakerAutoConfiguration.class))
		.withUserConfiguration(Services.class)
		.withPropertyValues("breaker.instances.flaky.retry.intervals=100ms,200ms,400ms",
				"breaker.instances.flaky.retry.jitter=0.5",
				"breaker.instances.flaky.ignore-exceptions=java.lang.IllegalArgumentException",
				"breaker.instances.timeouts-only.retry.intervals=10ms",
				"breaker.instances.timeouts-only.retry.on=timeout",
				"breaker.instances.each.retry.intervals=10ms,10ms,10ms",
				"breaker.instances.each.retry.record-each-attempt=true",
				"breaker.instances.each.consecutive-failures=2", "breaker.instances.each.failure-rate-threshold=0");

	@Test
	void retriesUntilTheCallSucceedsAndRecordsTheSequenceOnce() {
		this.runner.run((context) -> {
			Flaky flaky = context.getBean(Flaky.class);
			flaky.script().then(new IOException("1"), new IOException("2"), "ok");
			assertThat(flaky.fetch()).isEqualTo("ok");
			assertThat(flaky.script().calls()).isEqualTo(3);
			assertThat(calls(context, "flaky", Outcome.SUCCESS)).isEqualTo(1);
			assertThat(calls(context, "flaky", Outcome.FAILURE)).isZero();
		});
	}

	@Test
	void pausesForEachIntervalWithinItsJitter() {
		this.runner.run((context) -> {
			Flaky flaky = context.getBean(Flaky.class);
			flaky.script().then(new IOException("1"), new IOException("2"), new IOException("3"), "ok");
			flaky.fetch();
			ManualDelays delays = context.getBean(ManualDelays.class);
			assertThat(delays.sleeps).hasSize(3);
			assertThat(delays.sleeps.get(0)).isBetween(Duration.ofMillis(50), Duration.ofMillis(150));
			assertThat(delays.sleeps.get(1)).isBetween(Duration.ofMillis(100), Duration.ofMillis(300));
			assertThat(delays.sleeps.get(2)).isBetween(Duration.ofMillis(200), Duration.ofMillis(600));
		});
	}

	@Test
	void spreadsThePausesOfDifferentCalls() {
		this.runner.run((context) -> {
			Flaky flaky = context.getBean(Flaky.class);
			for (int i = 0; i < 20; i++) {
				flaky.script().then(new IOException("blip"), "ok");
				flaky.fetch();
			}
			assertThat(context.getBean(ManualDelays.class).sleeps).hasSize(20)
				.allSatisfy((pause) -> assertThat(pause).isBetween(Duration.ofMillis(50), Duration.ofMillis(150)))
				.doesNotHaveDuplicates();
		});
	}

	@Test
	void givesUpAfterTheLastIntervalRecordingOneFailure() {
		this.runner.run((context) -> {
			Flaky flaky = context.getBean(Flaky.class);
			flaky.script().then(new IOException("1"), new IOException("2"), new IOException("3"), new IOException("4"));
			assertThat(flaky.fetch()).isEqualTo("fallback after 4");
			assertThat(flaky.script().calls()).isEqualTo(4);
			assertThat(context.getBean(ManualDelays.class).sleeps).hasSize(3);
			assertThat(calls(context, "flaky", Outcome.FAILURE)).isEqualTo(1);
		});
	}

	@Test
	void neverRetriesARejection() {
		this.runner.run((context) -> {
			context.getBean(BreakerRegistry.class).breaker("flaky").forceOpen();
			Flaky flaky = context.getBean(Flaky.class);
			assertThat(flaky.fetch()).isEqualTo("fallback after BreakerOpenException");
			assertThat(flaky.script().calls()).isZero();
			assertThat(context.getBean(ManualDelays.class).sleeps).isEmpty();
		});
	}

	@Test
	void doesNotRetryAnIgnoredException() {
		this.runner.run((context) -> {
			Flaky flaky = context.getBean(Flaky.class);
			IllegalArgumentException invalid = new IllegalArgumentException("bad id");
			flaky.script().then(invalid);
			assertThat(catchThrowable(flaky::fetch)).isSameAs(invalid);
			assertThat(flaky.script().calls()).isEqualTo(1);
		});
	}

	@Test
	void retriesOnlyTheConfiguredOutcomes() {
		this.runner.run((context) -> {
			Flaky flaky = context.getBean(Flaky.class);
			flaky.script().then(new IOException("not retried"));
			assertThat(catchThrowable(flaky::timeoutsOnly)).hasMessage("not retried");
			assertThat(flaky.script().calls()).isEqualTo(1);
			flaky.script().then(new TimeoutException("retried"), "ok");
			assertThat(flaky.timeoutsOnly()).isEqualTo("ok");
			assertThat(flaky.script().calls()).isEqualTo(3);
		});
	}

	@Test
	void recordsEveryAttemptWhenTheBreakerSitsInsideTheRetry() {
		this.runner.run((context) -> {
			Flaky flaky = context.getBean(Flaky.class);
			flaky.script().then(new IOException("1"), "ok");
			assertThat(flaky.each()).isEqualTo("ok");
			assertThat(calls(context, "each", Outcome.FAILURE)).isEqualTo(1);
			assertThat(calls(context, "each", Outcome.SUCCESS)).isEqualTo(1);
		});
	}

	@Test
	void stopsRetryingOnceTheBreakerInsideTheRetryOpens() {
		this.runner.run((context) -> {
			Flaky flaky = context.getBean(Flaky.class);
			flaky.script().then(new IOException("1"), new IOException("2"), new IOException("3"));
			assertThat(flaky.each()).isEqualTo("fallback after BreakerOpenException");
			assertThat(flaky.script().calls()).isEqualTo(2);
			assertThat(context.getBean(ManualDelays.class).sleeps).hasSize(2);
		});
	}

	/**
	 * A returned value the classifier counts as a failure is retried; when no retry is
	 * left it is recorded as a FAILURE and returned (a value never goes to a fallback).
	 */
	@Test
	void retriesAValueTheClassifierCountsAsAFailure() {
		this.runner
			.withBean("staleIsAFailure", OutcomeClassifier.class,
					() -> OutcomeClassifier.builder().failureResult("stale"::equals).build())
			.run((context) -> {
				Flaky flaky = context.getBean(Flaky.class);
				flaky.script().then("stale", "fresh");
				assertThat(flaky.fetch()).isEqualTo("fresh");
				assertThat(flaky.script().calls()).isEqualTo(2);
				assertThat(calls(context, "flaky", Outcome.SUCCESS)).isEqualTo(1);
				flaky.script().then("stale");
				assertThat(flaky.timeoutsOnly()).isEqualTo("stale");
				assertThat(calls(context, "timeouts-only", Outcome.FAILURE)).isEqualTo(1);
			});
	}

	/**
	 * A thread interrupted during the pause makes no further attempt: the call ends with
	 * the attempt before the pause, recorded once, its counted failure falling back, and
	 * the thread stays interrupted.
	 */
	@Test
	void anInterruptedPauseEndsTheCallWithTheAttemptBeforeIt() {
		this.runner.withPropertyValues("breaker.instances.flaky.track-in-flight=true").run((context) -> {
			Flaky flaky = context.getBean(Flaky.class);
			flaky.script().then(new IOException("1"), "ok");
			Thread.currentThread().interrupt();
			String answer;
			boolean interrupted;
			try {
				answer = flaky.fetch();
			}
			finally {
				interrupted = Thread.interrupted();
			}
			assertThat(answer).isEqualTo("fallback after 1");
			assertThat(interrupted).as("still interrupted").isTrue();
			assertThat(flaky.script().calls()).isEqualTo(1);
			assertThat(context.getBean(ManualDelays.class).sleeps).hasSize(1);
			assertThat(calls(context, "flaky", Outcome.FAILURE)).isEqualTo(1);
			assertThat(context.getBean(BreakerRegistry.class).breaker("flaky").snapshot().inFlight()).isZero();
		});
	}

	/**
	 * The same with the breaker inside the retries: the failed attempt was recorded
	 * before the pause, and nothing more is.
	 */
	@Test
	void anInterruptedPauseInsideTheRetriesRecordsOnlyTheAttemptsMade() {
		this.runner.run((context) -> {
			Flaky flaky = context.getBean(Flaky.class);
			flaky.script().then(new IOException("1"), "ok");
			Thread.currentThread().interrupt();
			String answer;
			try {
				answer = flaky.each();
			}
			finally {
				Thread.interrupted();
			}
			assertThat(answer).isEqualTo("fallback after 1");
			assertThat(flaky.script().calls()).isEqualTo(1);
			assertThat(calls(context, "each", Outcome.FAILURE)).isEqualTo(1);
			assertThat(calls(context, "each", Outcome.SUCCESS)).isZero();
		});
	}

	@Configuration(proxyBeanMethods = false)
	@Import(ManualTime.class)
	static class Services {

		@Bean
		Flaky flaky() {
			return new Flaky();
		}

	}

	static class Flaky {

		private final Script script = new Script();

		@CircuitGuarded(name = "flaky", fallbackMethod = "fallback")
		public String fetch() throws Exception {
			return (String) this.script.next();
		}

		@CircuitGuarded(name = "timeouts-only")
		public String timeoutsOnly() throws Exception {
			return (String) this.script.next();
		}

		@CircuitGuarded(name = "each", fallbackMethod = "fallback")
		public String each() throws Exception {
			return (String) this.script.next();
		}

		String fallback(Throwable cause) {
			return "fallback after "
					+ ((cause instanceof IOException) ? cause.getMessage() : cause.getClass().getSimpleName());
		}

		Script script() {
			return this.script;
		}

	}

}
