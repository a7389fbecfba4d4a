package dev.breaker.http;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

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
 * on loopback that fails a number of times, then answers 200: what only a reactive client
 * has (a request body that streams). Pauses are scheduled (here: over at once). What
 * every client gets is in {@link HttpClientRetryTests}.
 */
class WebClientRetryTests {

	private final ApplicationContextRunner runner = retrying(webClientRunner(), "100ms,200ms,400ms");

	@AutoClose
	private final LoopbackServer server = LoopbackServer.start();

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
