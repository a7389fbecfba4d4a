package dev.breaker.http;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import dev.breaker.core.Breaker;
import dev.breaker.core.Outcome;
import dev.breaker.http.LoopbackServer.Received;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.http.MediaType;
import org.springframework.web.reactive.function.client.WebClient;
import org.springframework.web.reactive.function.client.WebClientResponseException;

import static dev.breaker.http.HttpClients.retrying;
import static dev.breaker.http.HttpClients.webClient;
import static dev.breaker.http.HttpClients.webClientRunner;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * HTTP retries of a {@code WebClient} from Spring Boot's builder, against a real server
 * on loopback that fails a number of times, then answers 200. Pauses are scheduled (here:
 * over at once).
 */
class WebClientRetryTests {

	private final ApplicationContextRunner runner = retrying(webClientRunner(), "100ms,200ms,400ms");

	@AutoClose
	private final LoopbackServer server = LoopbackServer.start();

	@Test
	void aGetThatFailsTwiceSucceedsOnTheThirdAttempt() {
		this.runner.run((context) -> {
			this.server.failNext(2, 503, null);
			String body = webClient(context).get()
				.uri(this.server.uri("/failing"))
				.retrieve()
				.bodyToMono(String.class)
				.block(Duration.ofSeconds(5));
			assertThat(body).isEqualTo("status 200");
			assertThat(this.server.requests()).isEqualTo(3);
			assertThat(context.getBean(RecordingDelays.class).pauses).containsExactly(Duration.ofMillis(100),
					Duration.ofMillis(200));
			Breaker breaker = this.server.breaker(context);
			assertThat(breaker.totals().calls(Outcome.FAILURE)).isEqualTo(2);
			assertThat(breaker.totals().calls(Outcome.SUCCESS)).isEqualTo(1);
			assertThat(breaker.snapshot().inFlight()).isZero();
		});
	}

	@Test
	void afterTheLastIntervalTheCallerGetsTheLastAnswer() {
		this.runner.run((context) -> {
			this.server.failNext(10, 500, null);
			assertThat(get(webClient(context))).isInstanceOf(WebClientResponseException.InternalServerError.class);
			assertThat(this.server.requests()).isEqualTo(4);
			assertThat(this.server.breaker(context).totals().calls(Outcome.FAILURE)).isEqualTo(4);
		});
	}

	@Test
	void aPostWithoutAnIdempotencyKeyDoesNotRetry() {
		this.runner.run((context) -> {
			this.server.failNext(1, 503, null);
			assertThat(post(webClient(context), Flux.just("{\"order\":42}"), false))
				.isInstanceOf(WebClientResponseException.class);
			assertThat(this.server.requests()).isEqualTo(1);
		});
	}

	@Test
	void aBodyThatCanBeReadOnlyOnceIsSentWholeOnEveryAttempt() {
		this.runner.run((context) -> {
			this.server.failNext(2, 503, null);
			AtomicInteger subscriptions = new AtomicInteger();
			Flux<String> once = Flux.defer(() -> (subscriptions.incrementAndGet() == 1)
					? Flux.just("{\"order\":", "42}") : Flux.error(new IllegalStateException("read twice")));
			assertThat(post(webClient(context), once, true)).isNull();
			assertThat(subscriptions).hasValue(1);
			assertThat(this.server.received()).hasSize(3)
				.allSatisfy((received) -> assertThat(received.body()).isEqualTo("{\"order\":42}"))
				.extracting(Received::method)
				.containsOnly("POST");
		});
	}

	@Test
	void aBodyLargerThanWhatIsKeptIsNotRetried() {
		this.runner.run((context) -> {
			this.server.failNext(1, 503, null);
			String large = "x".repeat(ReplayableBody.MAX_BYTES + 1);
			assertThat(post(webClient(context), Flux.just(large), true)).isInstanceOf(WebClientResponseException.class);
			assertThat(this.server.requests()).isEqualTo(1);
			assertThat(this.server.received()).singleElement()
				.satisfies((received) -> assertThat(received.body()).hasSize(large.length()));
			// the budget is asked last: a request that cannot be sent again spends none
			assertThat(this.server.breaker(context).totals().retries()).isZero();
			assertThat(this.server.breaker(context).totals().retriesRefused()).isZero();
		});
	}

	@Test
	void aRetryNeverHappensWhileTheBreakerRejects() {
		this.runner.withPropertyValues("breaker.defaults.consecutive-failures=2").run((context) -> {
			this.server.failNext(10, 503, null);
			assertThat(get(webClient(context))).isInstanceOf(BreakerRejectedException.class);
			assertThat(this.server.requests()).isEqualTo(2);
		});
	}

	@Test
	void aRetryTheBudgetRefusesIsNotMade() {
		this.runner
			.withPropertyValues("breaker.instances.http.retry.budget.ratio=0",
					"breaker.instances.http.retry.budget.min-per-second=0.1")
			.run((context) -> {
				this.server.failNext(10, 503, null);
				assertThat(get(webClient(context))).isInstanceOf(WebClientResponseException.ServiceUnavailable.class);
				assertThat(get(webClient(context))).isInstanceOf(WebClientResponseException.ServiceUnavailable.class);
				assertThat(this.server.requests()).isEqualTo(3);
				assertThat(this.server.breaker(context).totals().retriesRefused()).isEqualTo(2);
			});
	}

	@Test
	void aLongerRetryAfterIsThePause() {
		this.runner.withPropertyValues("breaker.http.retry.on=429").run((context) -> {
			this.server.failNext(1, 429, "3");
			assertThat(get(webClient(context))).isNull();
			assertThat(context.getBean(RecordingDelays.class).pauses).containsExactly(Duration.ofSeconds(3));
		});
	}

	@Test
	void aConnectionErrorRetries() {
		this.runner.run((context) -> {
			java.net.URI refusing = LoopbackServer.refusingUri();
			Throwable thrown = catchThrowable(() -> webClient(context).get()
				.uri(refusing)
				.retrieve()
				.toBodilessEntity()
				.block(Duration.ofSeconds(10)));
			assertThat(thrown).isNotNull();
			assertThat(context.getBean(RecordingDelays.class).pauses).hasSize(3);
		});
	}

	private Throwable get(WebClient client) {
		return catchThrowable(() -> client.get()
			.uri(this.server.uri("/failing"))
			.retrieve()
			.toBodilessEntity()
			.block(Duration.ofSeconds(5)));
	}

	private Throwable post(WebClient client, Flux<String> body, boolean idempotencyKey) {
		return catchThrowable(() -> {
			WebClient.RequestBodySpec spec = client.post()
				.uri(this.server.uri("/failing"))
				.contentType(MediaType.APPLICATION_JSON);
			if (idempotencyKey) {
				spec.header(HttpRetryPolicy.IDEMPOTENCY_KEY, "order-42");
			}
			spec.body(body, String.class).retrieve().toBodilessEntity().block(Duration.ofSeconds(5));
		});
	}

}
