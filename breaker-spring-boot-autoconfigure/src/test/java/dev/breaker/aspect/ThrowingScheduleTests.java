package dev.breaker.aspect;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;

import dev.breaker.autoconfigure.BreakerAutoConfiguration;
import dev.breaker.core.Breaker;
import dev.breaker.core.BreakerRegistry;
import dev.breaker.core.ManualTicker;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A scheduler of the application's own whose {@code schedule} throws (a bug, not a
 * refusal): a CompletionStage, Mono or Flux call whose retry's pause (or attempt's
 * timeout) it fails to schedule is never broken by it. The call ends with its last
 * attempt (its fallback here), its retry back in the budget, its permit handed back, and
 * the failure is logged as a warning naming the breaker and the scheduler, its message
 * escaped and cut, rate limited with the failed sleeps (the first, then at most one a
 * minute). A plain call sleeps, and never schedules.
 */
class ThrowingScheduleTests {

	/** Without a scheduler of its own. */
	private final ApplicationContextRunner anyScheduler = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, BreakerAutoConfiguration.class))
		.withBean(RetryPauseRacesTests.Remote.class)
		.withBean(ManualTicker.class)
		.withPropertyValues("breaker.instances.remote.retry.intervals=50ms",
				"breaker.instances.remote.track-in-flight=true");

	private final ApplicationContextRunner runner = this.anyScheduler.withBean(DelayScheduler.class,
			BrokenSchedule::new);

	@ParameterizedTest
	@EnumSource
	void aPauseThatFailsToBeScheduledEndsTheCallWithItsFallbackAndIsLoggedOnceEscapedAndBounded(
			PausesDroppedAtContextCloseTests.Caller caller) {
		this.runner.run((context) -> {
			try (WarningsLogged warnings = WarningsLogged.by(DelayScheduler.class.getName())) {
				assertEndsWithItsFallback(context, caller);
				assertThat(warnings.messages()).as("warnings after one failed pause").hasSize(1);
				assertThat(warnings.messages().get(0))
					.startsWith("breaker 'remote': retry not made, the schedule of " + BrokenSchedule.class.getName()
							+ " threw java.lang.IllegalStateException: clock gone\\nWARN forged line xxx")
					.doesNotContain("\n")
					.endsWith("…")
					.hasSizeLessThan(400);
			}
		});
	}

	@ParameterizedTest
	@EnumSource
	void aPauseThatFailsToBeScheduledEachAttemptRecordedEndsTheCallWithItsFallback(
			PausesDroppedAtContextCloseTests.Caller caller) {
		this.runner.withPropertyValues("breaker.instances.remote.retry.record-each-attempt=true")
			.run((context) -> assertEndsWithItsFallback(context, caller));
	}

	@ParameterizedTest
	@EnumSource
	void aTimeoutThatFailsToBeScheduledLeavesTheAttemptWithoutItAndIsLogged(
			PausesDroppedAtContextCloseTests.Caller caller) {
		this.runner.withPropertyValues("breaker.instances.remote.timeout=1s").run((context) -> {
			try (WarningsLogged warnings = WarningsLogged.by(DelayScheduler.class.getName())) {
				assertEndsWithItsFallback(context, caller);
				assertThat(warnings.messages()).as("warnings: the timeout's, the pause's within the same minute")
					.hasSize(1);
				assertThat(warnings.messages().get(0))
					.startsWith("breaker 'remote': the attempt runs without its timeout, the schedule of "
							+ BrokenSchedule.class.getName()
							+ " threw java.lang.IllegalStateException: clock gone\\nWARN forged line xxx")
					.doesNotContain("\n")
					.hasSizeLessThan(400);
			}
		});
	}

	/**
	 * An error of the scheduler's (a class it needs failed to load, an assertion) ends
	 * the call the same way: the caller never gets it, nor waits for ever.
	 */
	@ParameterizedTest
	@EnumSource
	void aScheduleThatThrowsAnErrorEndsTheCallWithItsFallbackToo(PausesDroppedAtContextCloseTests.Caller caller) {
		this.anyScheduler
			.withBean(DelayScheduler.class, () -> new BrokenSchedule(() -> new LinkageError("timer class broken")))
			.withPropertyValues("breaker.instances.remote.timeout=1s")
			.run((context) -> {
				try (WarningsLogged warnings = WarningsLogged.by(DelayScheduler.class.getName())) {
					assertEndsWithItsFallback(context, caller);
					assertThat(warnings.messages()).singleElement()
						.asString()
						.contains("threw java.lang.LinkageError: timer class broken");
				}
			});
	}

	@Test
	void aPlainCallSleepsItsPausesAndNeverSchedules() {
		this.runner.run((context) -> {
			RetryPauseRacesTests.Remote remote = context.getBean(RetryPauseRacesTests.Remote.class);
			try (WarningsLogged warnings = WarningsLogged.by(DelayScheduler.class.getName())) {
				assertThat(remote.plain()).isEqualTo("ok");
				assertThat(warnings.messages()).as("warnings").isEmpty();
			}
			assertThat(remote.calls()).as("attempts").isEqualTo(2);
		});
	}

	private static void assertEndsWithItsFallback(AssertableApplicationContext context,
			PausesDroppedAtContextCloseTests.Caller caller) {
		RetryPauseRacesTests.Remote remote = context.getBean(RetryPauseRacesTests.Remote.class);
		Breaker breaker = context.getBean(BreakerRegistry.class).breaker("remote");
		CompletableFuture<Object> result = caller.call(remote);
		assertThat(result).as("ended").succeedsWithin(Duration.ofSeconds(10)).isEqualTo(caller.fallback());
		assertThat(remote.calls()).as("attempts").isEqualTo(1);
		assertThat(breaker.totals().retries()).as("retries granted").isEqualTo(1);
		assertThat(breaker.snapshot().retryBudget().retries()).as("retries taken from the budget").isZero();
		assertThat(breaker.snapshot().inFlight()).as("in flight").isZero();
	}

}
