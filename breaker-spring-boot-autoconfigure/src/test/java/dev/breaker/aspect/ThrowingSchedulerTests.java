package dev.breaker.aspect;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;

import dev.breaker.annotation.CircuitGuarded;
import dev.breaker.autoconfigure.BreakerAutoConfiguration;
import dev.breaker.core.Breaker;
import dev.breaker.core.BreakerRegistry;
import dev.breaker.core.ManualTicker;
import dev.breaker.core.Outcome;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.ParameterizedTest;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * A scheduler of the application's own that throws (a bug, not an interrupt or a
 * refusal). A plain call whose sleep throws ends as when its pause is refused (its
 * fallback, its retry back in the budget); a CompletionStage, Mono or Flux call whose
 * retry's pause (or attempt's timeout) its {@code schedule} fails to take is never broken
 * by it either: the call ends with its last attempt (its fallback here), its retry back
 * in the budget, its permit handed back, or the attempt runs without its timeout. Each
 * failure is logged as a warning naming the breaker and the scheduler, its message
 * escaped and cut: the first, then at most one a minute with how many went unlogged (a
 * broken scheduler fails every call). A sleep refused (a scheduler closed with its
 * context) is no warning.
 */
class ThrowingSchedulerTests {

	/** Without a scheduler of its own. */
	private final ApplicationContextRunner anyScheduler = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, BreakerAutoConfiguration.class))
		.withBean(RetryPauseRacesTests.Remote.class)
		.withBean(ManualTicker.class)
		.withPropertyValues("breaker.instances.remote.retry.intervals=50ms",
				"breaker.instances.remote.track-in-flight=true");

	private final ApplicationContextRunner runner = this.anyScheduler.withBean(DelayScheduler.class, BrokenSleep::new);

	private final ApplicationContextRunner brokenSchedule = this.anyScheduler.withBean(DelayScheduler.class,
			BrokenSchedule::new);

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
		this.runner.withBean(AlwaysDown.class).withPropertyValues(DOWN_RETRIED).run((context) -> {
			List<String> warnings = warningsOfTenFailingCallsOverAMinute(context);
			assertThat(warnings.get(1))
				.startsWith("breaker 'down': retry not made, the sleep of " + BrokenSleep.class.getName()
						+ " threw java.lang.IllegalStateException: clock gone\\nWARN forged line xxx");
			Breaker breaker = context.getBean(BreakerRegistry.class).breaker("down");
			assertThat(breaker.totals().retries()).as("pauses that failed").isEqualTo(10);
			assertThat(breaker.snapshot().retryBudget().retries()).as("retries taken from the budget").isZero();
		});
	}

	@Test
	void aSleepRefusedByASchedulerClosedWithItsContextIsNoWarning() {
		this.anyScheduler.withBean(DelayScheduler.class, ClosedScheduler::new)
			.withBean(AlwaysDown.class)
			.run((context) -> {
				RetryPauseRacesTests.Remote remote = context.getBean(RetryPauseRacesTests.Remote.class);
				Breaker breaker = context.getBean(BreakerRegistry.class).breaker("remote");
				assertThat(context.getBean(AlwaysDown.class).call()).as("a call before the close")
					.isEqualTo("fallback");
				context.close();
				try (WarningsLogged warnings = WarningsLogged.withDebug(DelayScheduler.class.getName())) {
					assertThat(remote.plain()).isEqualTo("cached after blip");
					assertThat(warnings.messages()).as("warnings after a refused pause").isEmpty();
					assertThat(warnings.debugs()).as("debug lines")
						.containsExactly("breaker 'remote': retry not made, the sleep of "
								+ ClosedScheduler.class.getName() + " refused it");
				}
				assertThat(breaker.totals().retries()).as("retries granted").isEqualTo(1);
				assertThat(breaker.snapshot().retryBudget().retries()).as("retries taken from the budget").isZero();
				assertThat(breaker.snapshot().inFlight()).as("in flight").isZero();
			});
	}

	/**
	 * A scheduler that refuses while its context is live is saturated (an executor of the
	 * application's own with a bounded queue), not closing: that is warned, at most once
	 * a minute per breaker, with how many went unlogged.
	 */
	@Test
	void aSleepRefusedWhileTheContextIsLiveIsWarnedAtMostOnceAMinutePerBreaker() {
		this.anyScheduler.withBean(DelayScheduler.class, ClosedScheduler::new)
			.withBean(AlwaysDown.class)
			.withPropertyValues(DOWN_RETRIED)
			.run((context) -> assertThat(warningsOfTenFailingCallsOverAMinute(context).get(0))
				.isEqualTo("breaker 'down': retry not made, the sleep of " + ClosedScheduler.class.getName()
						+ " refused it while its context is live (saturated?): "
						+ "java.util.concurrent.RejectedExecutionException: scheduler closed"));
	}

	/** {@link AlwaysDown} retried, its breaker never tripping. */
	private static final String[] DOWN_RETRIED = { "breaker.instances.down.retry.intervals=50ms",
			"breaker.instances.down.consecutive-failures=0", "breaker.instances.down.minimum-calls=1000" };

	/**
	 * Eight calls of {@link AlwaysDown} whose pauses fail, then one 59 s later and one a
	 * minute later: the warnings, the first and then one with the count of the others.
	 */
	private static List<String> warningsOfTenFailingCallsOverAMinute(AssertableApplicationContext context)
			throws IOException {
		AlwaysDown down = context.getBean(AlwaysDown.class);
		ManualTicker ticker = context.getBean(ManualTicker.class);
		try (WarningsLogged warnings = WarningsLogged.by(DelayScheduler.class.getName())) {
			for (int i = 0; i < 8; i++) {
				assertThat(down.call()).isEqualTo("fallback");
			}
			assertThat(warnings.messages()).as("warnings, the ticker never moved").hasSize(1);
			ticker.advance(Duration.ofSeconds(59));
			assertThat(down.call()).isEqualTo("fallback");
			assertThat(warnings.messages()).as("warnings, 59 s later").hasSize(1);
			ticker.advance(Duration.ofSeconds(1));
			assertThat(down.call()).isEqualTo("fallback");
			assertThat(warnings.messages()).as("warnings, a minute later").hasSize(2);
			assertThat(warnings.messages().get(1)).endsWith("(and 8 more since the last warning)").doesNotContain("\n");
			return warnings.messages();
		}
	}

	@ParameterizedTest
	@EnumSource
	void aPauseThatFailsToBeScheduledEndsTheCallWithItsFallbackAndIsLoggedOnceEscapedAndBounded(
			PausesDroppedAtContextCloseTests.Caller caller) {
		this.brokenSchedule.run((context) -> {
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
		this.brokenSchedule.withPropertyValues("breaker.instances.remote.retry.record-each-attempt=true")
			.run((context) -> assertEndsWithItsFallback(context, caller));
	}

	@ParameterizedTest
	@EnumSource
	void aTimeoutThatFailsToBeScheduledLeavesTheAttemptWithoutItAndIsLogged(
			PausesDroppedAtContextCloseTests.Caller caller) {
		this.brokenSchedule.withPropertyValues("breaker.instances.remote.timeout=1s").run((context) -> {
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

	/**
	 * A schedule of a retry's pause that throws a {@link VirtualMachineError} (here the
	 * stack overflowed) is not swallowed as a failed pause, and the call does not hang
	 * for ever either: it ends at once with that error (its caller gets it, delivered or
	 * thrown), its permit handed back as IGNORED, its retry back in the budget.
	 */
	@ParameterizedTest
	@EnumSource
	void aPauseWhoseScheduleOverflowsTheStackEndsTheCallWithThatErrorAndHandsThePermitBack(
			PausesDroppedAtContextCloseTests.Caller caller) {
		this.anyScheduler.withBean(DelayScheduler.class, () -> new BrokenSchedule(() -> new StackOverflowError("deep")))
			.run((context) -> {
				assertEndsWithTheError(context, caller, 1);
				Breaker breaker = context.getBean(BreakerRegistry.class).breaker("remote");
				assertThat(breaker.totals().retries()).as("retries granted").isEqualTo(1);
			});
	}

	@ParameterizedTest
	@EnumSource
	void aPauseWhoseScheduleOverflowsTheStackEachAttemptRecordedEndsTheCallWithThatError(
			PausesDroppedAtContextCloseTests.Caller caller) {
		this.anyScheduler.withBean(DelayScheduler.class, () -> new BrokenSchedule(() -> new StackOverflowError("deep")))
			.withPropertyValues("breaker.instances.remote.retry.record-each-attempt=true")
			.run((context) -> assertEndsWithTheError(context, caller, 0));
	}

	/**
	 * The same for an attempt's timeout: the attempt does not run on without it, nor is
	 * it retried; the call ends at once with the error.
	 */
	@ParameterizedTest
	@EnumSource
	void aTimeoutWhoseScheduleOverflowsTheStackEndsTheCallWithThatErrorAndHandsThePermitBack(
			PausesDroppedAtContextCloseTests.Caller caller) {
		this.anyScheduler.withBean(DelayScheduler.class, () -> new BrokenSchedule(() -> new StackOverflowError("deep")))
			.withPropertyValues("breaker.instances.remote.timeout=1s")
			.run((context) -> {
				assertEndsWithTheError(context, caller, 1);
				Breaker breaker = context.getBean(BreakerRegistry.class).breaker("remote");
				assertThat(breaker.totals().retries()).as("retries granted").isZero();
			});
	}

	private static void assertEndsWithTheError(AssertableApplicationContext context,
			PausesDroppedAtContextCloseTests.Caller caller, int ignored) {
		RetryPauseRacesTests.Remote remote = context.getBean(RetryPauseRacesTests.Remote.class);
		Breaker breaker = context.getBean(BreakerRegistry.class).breaker("remote");
		try (WarningsLogged warnings = WarningsLogged.by(DelayScheduler.class.getName())) {
			List<CompletableFuture<Object>> result = new ArrayList<>();
			Throwable thrown = catchThrowable(() -> result.add(caller.call(remote)));
			if (thrown == null) {
				assertThat(result.get(0)).as("the call ended")
					.failsWithin(Duration.ofSeconds(10))
					.withThrowableThat()
					.havingCause()
					.isInstanceOf(StackOverflowError.class)
					.withMessage("deep");
			}
			else {
				assertThat(thrown).as("thrown to the caller").isInstanceOf(StackOverflowError.class).hasMessage("deep");
			}
			assertThat(warnings.messages()).as("warnings: the error is the caller's").isEmpty();
		}
		assertThat(remote.calls()).as("attempts").isEqualTo(1);
		assertThat(breaker.snapshot().inFlight()).as("in flight").isZero();
		assertThat(breaker.snapshot().retryBudget().retries()).as("retries taken from the budget").isZero();
		assertThat(breaker.totals().calls(Outcome.IGNORED)).as("ignored recorded").isEqualTo(ignored);
	}

	/**
	 * A scheduler of the application's own that takes the task but answers no handle (the
	 * handle is only for cancelling): the retry is made, as with a handle.
	 */
	@ParameterizedTest
	@EnumSource
	void aScheduleThatAnswersNoHandleStillMakesTheRetry(PausesDroppedAtContextCloseTests.Caller caller) {
		this.anyScheduler.withBean(DelayScheduler.class, NoHandle::new).run((context) -> {
			RetryPauseRacesTests.Remote remote = context.getBean(RetryPauseRacesTests.Remote.class);
			try (WarningsLogged warnings = WarningsLogged.by(DelayScheduler.class.getName())) {
				assertThat(caller.call(remote)).as("retried")
					.succeedsWithin(Duration.ofSeconds(10))
					.isEqualTo((caller == PausesDroppedAtContextCloseTests.Caller.FLUX) ? List.of("ok") : "ok");
				assertThat(warnings.messages()).as("warnings").isEmpty();
			}
			assertThat(remote.calls()).as("attempts").isEqualTo(2);
		});
	}

	@Test
	void aPlainCallSleepsItsPausesAndNeverSchedules() {
		this.brokenSchedule.run((context) -> {
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

	/** Runs each task on a thread of its own at once, and answers no handle. */
	static class NoHandle implements DelayScheduler {

		@Override
		public void sleep(Duration pause) {
		}

		@Override
		public Future<?> schedule(Duration delay, Runnable task) {
			new Thread(task, "no-handle").start();
			return null;
		}

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
