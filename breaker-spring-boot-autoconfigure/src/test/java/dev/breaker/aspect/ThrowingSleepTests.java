package dev.breaker.aspect;

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
 * budget), and each failed pause is logged once, as a warning naming the breaker and the
 * scheduler, its message escaped and cut.
 */
class ThrowingSleepTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, BreakerAutoConfiguration.class))
		.withBean(RetryPauseRacesTests.Remote.class)
		.withBean(ManualTicker.class)
		.withBean(DelayScheduler.class, BrokenSleep::new)
		.withPropertyValues("breaker.instances.remote.retry.intervals=50ms",
				"breaker.instances.remote.track-in-flight=true");

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

}
