package dev.breaker.aspect;

import java.io.IOException;
import java.time.Duration;

import dev.breaker.annotation.CircuitGuarded;
import dev.breaker.autoconfigure.BreakerAutoConfiguration;
import dev.breaker.core.Breaker;
import dev.breaker.core.BreakerRegistry;
import dev.breaker.core.ManualTicker;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A scheduler of the application's own whose sleep throws (a bug, not an interrupt): the
 * plain call ends as when its pause is refused (its fallback, its retry back in the
 * budget), and a failed pause is logged as a warning naming the breaker and the
 * scheduler, its message escaped and cut: the first, then at most one a minute with how
 * many went unlogged (a broken sleep fails every call). A sleep refused (a scheduler
 * closed with its context) is no warning.
 */
class ThrowingSleepTests {

	/** Without a scheduler of its own. */
	private final ApplicationContextRunner anyScheduler = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, BreakerAutoConfiguration.class))
		.withBean(RetryPauseRacesTests.Remote.class)
		.withBean(ManualTicker.class)
		.withPropertyValues("breaker.instances.remote.retry.intervals=50ms",
				"breaker.instances.remote.track-in-flight=true");

	private final ApplicationContextRunner runner = this.anyScheduler.withBean(DelayScheduler.class, BrokenSleep::new);

	@Test
	void aSleepThatThrowsIsLoggedOnceEscapedAndBoundedAndTheCallFallsBack() {
		this.runner.run((context) -> {
			RetryPauseRacesTests.Remote remote = context.getBean(RetryPauseRacesTests.Remote.class);
			try (WarningsLogged warnings = WarningsLogged.by(DelayScheduler.class.getName())) {
				assertThat(remote.plain()).isEqualTo("cached after blip");
				assertThat(warnings.messages()).as("warnings after one failed pause").hasSize(1);
				assertThat(warnings.messages().get(0))
					.startsWith("breaker 'remote': retry not made, the sleep of " + BrokenSleep.class.getName()
							+ " threw java.lang.IllegalStateException: clock gone\\nWARN forged line xxx")
					.doesNotContain("\n")
					.endsWith("…")
					.hasSizeLessThan(400);
			}
			Breaker breaker = context.getBean(BreakerRegistry.class).breaker("remote");
			assertThat(remote.calls()).as("attempts").isEqualTo(1);
			assertThat(breaker.snapshot().retryBudget().retries()).as("retries taken from the budget").isZero();
			assertThat(breaker.snapshot().inFlight()).as("in flight").isZero();
		});
	}

	@Test
	void aSleepThatThrowsOnEveryCallIsWarnedOnceThenAtMostOnceAMinuteWithTheCount() {
		this.runner.withBean(AlwaysDown.class)
			.withPropertyValues("breaker.instances.down.retry.intervals=50ms",
					"breaker.instances.down.consecutive-failures=0", "breaker.instances.down.minimum-calls=1000")
			.run((context) -> {
				AlwaysDown down = context.getBean(AlwaysDown.class);
				ManualTicker ticker = context.getBean(ManualTicker.class);
				Breaker breaker = context.getBean(BreakerRegistry.class).breaker("down");
				try (WarningsLogged warnings = WarningsLogged.by(DelayScheduler.class.getName())) {
					for (int i = 0; i < 8; i++) {
						assertThat(down.call()).isEqualTo("fallback");
					}
					assertThat(breaker.totals().retries()).as("pauses that failed").isEqualTo(8);
					assertThat(warnings.messages()).as("warnings, the ticker never moved").hasSize(1);
					ticker.advance(Duration.ofSeconds(59));
					assertThat(down.call()).isEqualTo("fallback");
					assertThat(warnings.messages()).as("warnings, 59 s later").hasSize(1);
					ticker.advance(Duration.ofSeconds(1));
					assertThat(down.call()).isEqualTo("fallback");
					assertThat(warnings.messages()).as("warnings, a minute later").hasSize(2);
					assertThat(warnings.messages().get(1))
						.startsWith("breaker 'down': retry not made, the sleep of " + BrokenSleep.class.getName()
								+ " threw java.lang.IllegalStateException: clock gone\\nWARN forged line xxx")
						.endsWith("(and 8 more since the last warning)")
						.doesNotContain("\n");
				}
				assertThat(breaker.snapshot().retryBudget().retries()).as("retries taken from the budget").isZero();
			});
	}

	@Test
	void aSleepRefusedByASchedulerClosedWithItsContextIsNoWarning() {
		this.anyScheduler.withBean(DelayScheduler.class, ClosedScheduler::new).run((context) -> {
			RetryPauseRacesTests.Remote remote = context.getBean(RetryPauseRacesTests.Remote.class);
			Breaker breaker = context.getBean(BreakerRegistry.class).breaker("remote");
			try (WarningsLogged warnings = WarningsLogged.by(DelayScheduler.class.getName())) {
				assertThat(remote.plain()).isEqualTo("cached after blip");
				assertThat(warnings.messages()).as("warnings after a refused pause").isEmpty();
			}
			assertThat(breaker.totals().retries()).as("retries granted").isEqualTo(1);
			assertThat(breaker.snapshot().retryBudget().retries()).as("retries taken from the budget").isZero();
			assertThat(breaker.snapshot().inFlight()).as("in flight").isZero();
		});
	}

	static class AlwaysDown {

		@CircuitGuarded(name = "down", fallbackMethod = "fallback")
		public String call() throws IOException {
			throw new IOException("down");
		}

		String fallback(Throwable cause) {
			return "fallback";
		}

	}

}
