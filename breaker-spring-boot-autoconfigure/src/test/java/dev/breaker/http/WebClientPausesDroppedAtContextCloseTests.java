package dev.breaker.http;

import java.net.URI;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

import dev.breaker.aspect.DelayScheduler;
import dev.breaker.aspect.WatchedScheduler;
import dev.breaker.core.Breaker;
import dev.breaker.core.BreakerRegistry;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.web.reactive.function.client.WebClientResponseException;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A WebClient exchange paused for a retry when its context closes: the context's real
 * scheduler drops the pause it took, and the exchange ends as if no retry were allowed,
 * with the last answer (its body released as the pause began) or the last error, its
 * retry back in the budget, rather than waiting for ever. Against a real server on
 * loopback; the pauses are an hour long, so only the close ends them.
 */
class WebClientPausesDroppedAtContextCloseTests {

	@AutoClose
	private final LoopbackServer server = LoopbackServer.start();

	private final ApplicationContextRunner runner = HttpClients.webClientRunner()
		.withBean(DelayScheduler.class, WatchedScheduler::new)
		.withPropertyValues("breaker.defaults.consecutive-failures=0", "breaker.defaults.failure-rate-threshold=0",
				"breaker.defaults.track-in-flight=true", "breaker.http.retry.intervals=1h,1h",
				"breaker.http.retry.jitter=0");

	@Test
	void anExchangePausedForARetryWhenTheContextClosesEndsWithTheLastAnswer() {
		this.runner.run((context) -> {
			this.server.failNext(10, 503, null);
			CompletableFuture<String> result = get(context, this.server.uri("/failing"));
			assertThat(((WatchedScheduler) context.getBean(DelayScheduler.class)).awaitPause())
				.as("the retry's pause, taken")
				.isTrue();
			Breaker breaker = this.server.breaker(context);
			context.close();
			assertThat(result).as("ended by the close")
				.failsWithin(Duration.ofSeconds(10))
				.withThrowableThat()
				.havingCause()
				.isInstanceOfSatisfying(WebClientResponseException.class,
						(answer) -> assertThat(answer.getStatusCode().value()).as("the last answer's status")
							.isEqualTo(503));
			assertThat(this.server.requests()).as("requests").isEqualTo(1);
			assertRetryGivenBack(breaker);
		});
	}

	@Test
	void anExchangePausedForARetryAfterAConnectionErrorWhenTheContextClosesEndsWithThatError() throws Exception {
		URI refusing = LoopbackServer.refusingUri();
		this.runner.run((context) -> {
			CompletableFuture<String> result = get(context, refusing);
			assertThat(((WatchedScheduler) context.getBean(DelayScheduler.class)).awaitPause())
				.as("the retry's pause, taken")
				.isTrue();
			Breaker breaker = context.getBean(BreakerRegistry.class).breaker("http", HostBreakers.hostKey(refusing));
			context.close();
			assertThat(result).as("ended by the close")
				.failsWithin(Duration.ofSeconds(10))
				.withThrowableThat()
				.havingCause()
				.isInstanceOf(ClientUnderTest.WEB_CLIENT.ioError());
			assertRetryGivenBack(breaker);
		});
	}

	private static CompletableFuture<String> get(AssertableApplicationContext context, URI uri) {
		return HttpClients.webClient(context).get().uri(uri).retrieve().bodyToMono(String.class).toFuture();
	}

	private static void assertRetryGivenBack(Breaker breaker) {
		assertThat(breaker.totals().retries()).as("retries granted").isEqualTo(1);
		assertThat(breaker.snapshot().retryBudget().retries()).as("retries taken from the budget").isZero();
		assertThat(breaker.snapshot().inFlight()).as("in flight").isZero();
	}

}
