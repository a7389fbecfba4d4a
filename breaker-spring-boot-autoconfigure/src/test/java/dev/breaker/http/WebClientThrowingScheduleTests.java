package dev.breaker.http;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;

import dev.breaker.aspect.BrokenSchedule;
import dev.breaker.aspect.BrokenSleep;
import dev.breaker.aspect.DelayScheduler;
import dev.breaker.aspect.WarningsLogged;
import dev.breaker.core.Breaker;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.web.reactive.function.client.WebClientResponseException;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A scheduler of the application's own whose {@code schedule} throws, for the WebClient
 * (which schedules its retries' pauses; the blocking clients sleep them): the exchange
 * ends as if no retry were allowed, with the last answer, its retry back in the budget,
 * and the failure is logged as a warning, escaped and cut, the first then at most one a
 * minute. Against a real server on loopback.
 */
class WebClientThrowingScheduleTests {

	@AutoClose
	private final LoopbackServer server = LoopbackServer.start();

	private final ApplicationContextRunner runner = HttpClients.webClientRunner()
		.withBean(DelayScheduler.class, BrokenSchedule::new)
		.withPropertyValues("breaker.defaults.consecutive-failures=0", "breaker.defaults.failure-rate-threshold=0",
				"breaker.defaults.track-in-flight=true", "breaker.http.retry.intervals=100ms",
				"breaker.http.retry.jitter=0");

	@Test
	void aPauseThatFailsToBeScheduledEndsTheExchangeWithTheLastAnswerAndIsLoggedOnce() {
		this.runner.run((context) -> {
			try (WarningsLogged warnings = WarningsLogged.by(DelayScheduler.class.getName())) {
				for (int i = 0; i < 3; i++) {
					this.server.failNext(1, 503, null);
					CompletableFuture<String> result = HttpClients.webClient(context)
						.get()
						.uri(this.server.uri("/failing"))
						.retrieve()
						.bodyToMono(String.class)
						.toFuture();
					assertThat(result).as("ended")
						.failsWithin(Duration.ofSeconds(10))
						.withThrowableThat()
						.havingCause()
						.isInstanceOfSatisfying(WebClientResponseException.class,
								(answer) -> assertThat(answer.getStatusCode().value()).as("the last answer's status")
									.isEqualTo(503));
				}
				assertThat(warnings.messages()).as("warnings after three failed pauses within a minute").hasSize(1);
				assertThat(warnings.messages().get(0))
					.startsWith("breaker '" + this.server.breakerName() + "': retry not made, the schedule of "
							+ BrokenSchedule.class.getName() + " threw java.lang.IllegalStateException: "
							+ BrokenSleep.FORGED.substring(0, 10).replace("\n", "\\n"))
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
