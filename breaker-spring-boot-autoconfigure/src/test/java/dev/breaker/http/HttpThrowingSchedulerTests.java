package dev.breaker.http;

import java.io.IOException;
import java.util.concurrent.RejectedExecutionException;

import dev.breaker.aspect.DelayScheduler;
import dev.breaker.aspect.BrokenSchedule;
import dev.breaker.aspect.BrokenSleep;
import dev.breaker.aspect.ClosedScheduler;
import dev.breaker.aspect.WarningsLogged;
import dev.breaker.core.Breaker;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * A scheduler of the application's own that throws. For the blocking HTTP clients, whose
 * sleep throws: the request fails as when its pause is refused (an {@code IOException}
 * saying the pause failed, whose cause is what the sleep threw). For the WebClient, whose
 * {@code schedule} throws (it schedules its pauses; the blocking clients never schedule):
 * the exchange ends as if no retry were allowed, with the last answer. Either way the
 * retry goes back to the budget, and a failed pause is logged escaped and cut: the first,
 * then at most one a minute. A pause refused (a scheduler closed with its context) says
 * so and is no warning. Against a real server on loopback.
 */
class HttpThrowingSchedulerTests {

	@AutoClose
	private final LoopbackServer server = LoopbackServer.start();

	@ParameterizedTest
	@EnumSource(names = { "REST_CLIENT", "REST_TEMPLATE" })
	void aSleepThatThrowsIsLoggedOnceEscapedAndBoundedAndTheRetryGoesBack(ClientUnderTest client) {
		client.runner()
			.withBean(DelayScheduler.class, BrokenSleep::new)
			.withPropertyValues("breaker.defaults.consecutive-failures=0", "breaker.defaults.failure-rate-threshold=0",
					"breaker.defaults.track-in-flight=true", "breaker.http.retry.intervals=100ms",
					"breaker.http.retry.jitter=0")
			.run((context) -> {
				this.server.failNext(10, 503, null);
				try (WarningsLogged warnings = WarningsLogged.by(DelayScheduler.class.getName())) {
					Throwable thrown = catchThrowable(() -> client.get(context, this.server.uri("/failing")));
					assertThat(thrown).hasRootCauseInstanceOf(IllegalStateException.class)
						.cause()
						.isInstanceOf(IOException.class);
					assertThat(warnings.messages()).as("warnings after one failed pause").hasSize(1);
					assertThat(warnings.messages().get(0))
						.startsWith("breaker '" + this.server.breakerName() + "': retry not made, the sleep of ")
						.contains("threw java.lang.IllegalStateException: clock gone\\nWARN forged line xxx")
						.doesNotContain("\n")
						.hasSizeLessThan(400);
				}
				Breaker breaker = this.server.breaker(context);
				assertThat(this.server.requests()).as("requests").isEqualTo(1);
				assertThat(breaker.totals().retries()).as("retries granted").isEqualTo(1);
				assertThat(breaker.snapshot().retryBudget().retries()).as("retries taken from the budget").isZero();
				assertThat(breaker.snapshot().inFlight()).as("in flight").isZero();
			});
	}

	@ParameterizedTest
	@EnumSource(names = { "REST_CLIENT", "REST_TEMPLATE" })
	void aSleepThatThrowsOnEveryRequestIsWarnedOnceAndEachRequestSaysItsPauseFailed(ClientUnderTest client) {
		client.runner()
			.withBean(DelayScheduler.class, BrokenSleep::new)
			.withPropertyValues("breaker.defaults.consecutive-failures=0", "breaker.defaults.failure-rate-threshold=0",
					"breaker.http.retry.intervals=100ms", "breaker.http.retry.jitter=0")
			.run((context) -> {
				try (WarningsLogged warnings = WarningsLogged.by(DelayScheduler.class.getName())) {
					for (int i = 0; i < 5; i++) {
						this.server.failNext(1, 503, null);
						Throwable thrown = catchThrowable(() -> client.get(context, this.server.uri("/failing")));
						assertThat(thrown).cause()
							.isInstanceOf(IOException.class)
							.hasMessageContaining("its pause failed")
							.hasRootCauseInstanceOf(IllegalStateException.class);
					}
					assertThat(warnings.messages()).as("warnings after five failed pauses within a minute").hasSize(1);
				}
				assertThat(this.server.breaker(context).totals().retries()).as("retries granted").isEqualTo(5);
			});
	}

	@ParameterizedTest
	@EnumSource(names = { "REST_CLIENT", "REST_TEMPLATE" })
	void aPauseRefusedByASchedulerClosedWithItsContextSaysSoAndIsNoWarning(ClientUnderTest client) {
		client.runner()
			.withBean(DelayScheduler.class, ClosedScheduler::new)
			.withPropertyValues("breaker.defaults.consecutive-failures=0", "breaker.defaults.failure-rate-threshold=0",
					"breaker.http.retry.intervals=100ms", "breaker.http.retry.jitter=0")
			.run((context) -> {
				this.server.failNext(10, 503, null);
				try (WarningsLogged warnings = WarningsLogged.by(DelayScheduler.class.getName())) {
					Throwable thrown = catchThrowable(() -> client.get(context, this.server.uri("/failing")));
					assertThat(thrown).cause()
						.isInstanceOf(IOException.class)
						.hasMessageContaining("its pause was refused")
						.hasRootCauseInstanceOf(RejectedExecutionException.class);
					assertThat(warnings.messages()).as("warnings after a refused pause").isEmpty();
				}
			});
	}

	@Test
	void aPauseThatFailsToBeScheduledEndsTheWebClientExchangeWithTheLastAnswerAndIsLoggedOnce() {
		ClientUnderTest.WEB_CLIENT.runner()
			.withBean(DelayScheduler.class, BrokenSchedule::new)
			.withPropertyValues("breaker.defaults.consecutive-failures=0", "breaker.defaults.failure-rate-threshold=0",
					"breaker.defaults.track-in-flight=true", "breaker.http.retry.intervals=100ms",
					"breaker.http.retry.jitter=0")
			.run((context) -> {
				try (WarningsLogged warnings = WarningsLogged.by(DelayScheduler.class.getName())) {
					for (int i = 0; i < 3; i++) {
						this.server.failNext(1, 503, null);
						Throwable thrown = catchThrowable(
								() -> ClientUnderTest.WEB_CLIENT.get(context, this.server.uri("/failing")));
						assertThat(thrown).as("the last answer")
							.isInstanceOf(ClientUnderTest.WEB_CLIENT.statusError(503));
					}
					assertThat(warnings.messages()).as("warnings after three failed pauses within a minute").hasSize(1);
					assertThat(warnings.messages().get(0))
						.startsWith("breaker '" + this.server.breakerName() + "': retry not made, the schedule of "
								+ BrokenSchedule.class.getName()
								+ " threw java.lang.IllegalStateException: clock gone\\nWARN forged line xxx")
						.doesNotContain("\n")
						.hasSizeLessThan(400);
				}
				Breaker breaker = this.server.breaker(context);
				assertThat(this.server.requests()).as("requests").isEqualTo(3);
				assertThat(breaker.totals().retries()).as("retries granted").isEqualTo(3);
				assertThat(breaker.snapshot().retryBudget().retries()).as("retries taken from the budget").isZero();
				assertThat(breaker.snapshot().inFlight()).as("in flight").isZero();
			});
	}

}
