package dev.breaker.http;

import java.io.IOException;
import java.time.Duration;
import java.time.Instant;

import dev.breaker.core.Breaker;
import dev.breaker.core.ManualTicker;
import dev.breaker.core.Outcome;
import dev.breaker.core.State;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.web.reactive.function.client.WebClient;
import org.springframework.web.reactive.function.client.WebClientResponseException;

import static dev.breaker.http.HttpClients.webClient;
import static dev.breaker.http.HttpClients.webClientRunner;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * A {@code WebClient} from Spring Boot's builder gets the per-host breaker as a filter.
 */
class WebClientBreakerTests {

	private final ApplicationContextRunner runner = webClientRunner()
		.withPropertyValues("breaker.defaults.consecutive-failures=3", "breaker.defaults.minimum-calls=3");

	@AutoClose
	private final LoopbackServer server = LoopbackServer.start();

	@Test
	void eachAnswerIsRecordedAsItsOutcome() {
		this.runner.run((context) -> {
			WebClient client = webClient(context);
			assertThat(send(client, "/status/200")).isNull();
			assertThat(send(client, "/status/404")).isInstanceOf(WebClientResponseException.NotFound.class);
			assertThat(send(client, "/status/503?retry-after=5"))
				.isInstanceOf(WebClientResponseException.ServiceUnavailable.class);
			assertThat(send(client, "/status/500")).isInstanceOf(WebClientResponseException.class);
			Breaker breaker = this.server.breaker(context);
			assertThat(breaker.totals().calls(Outcome.SUCCESS)).isEqualTo(1);
			assertThat(breaker.totals().calls(Outcome.IGNORED)).isEqualTo(1);
			assertThat(breaker.totals().calls(Outcome.THROTTLED)).isEqualTo(1);
			assertThat(breaker.totals().calls(Outcome.FAILURE)).isEqualTo(1);
		});
	}

	@Test
	void hangPastTheReadTimeoutIsATimeout() {
		this.runner.withPropertyValues("spring.http.clients.read-timeout=300ms").run((context) -> {
			assertThat(send(webClient(context), "/hang")).isNotNull();
			assertThat(this.server.breaker(context).totals().calls(Outcome.TIMEOUT)).isEqualTo(1);
			assertThat(this.server.breaker(context).snapshot().inFlight()).isZero();
		});
	}

	@Test
	void subscriberGivingUpBeforeTheAnswerIsATimeout() {
		this.runner.withPropertyValues("spring.http.clients.read-timeout=10s").run((context) -> {
			Throwable thrown = catchThrowable(() -> webClient(context).get()
				.uri(this.server.uri("/hang"))
				.retrieve()
				.toBodilessEntity()
				.timeout(Duration.ofMillis(500))
				.block(Duration.ofSeconds(5)));
			assertThat(thrown).isNotNull();
			assertThat(this.server.breaker(context).totals().calls(Outcome.TIMEOUT)).isEqualTo(1);
			assertThat(this.server.breaker(context).snapshot().inFlight()).isZero();
		});
	}

	@Test
	void openBreakerRejectsWithoutTouchingTheNetwork() {
		this.runner.run((context) -> {
			WebClient client = webClient(context);
			for (int i = 0; i < 3; i++) {
				send(client, "/status/500");
			}
			assertThat(this.server.breaker(context).state()).isEqualTo(State.OPEN);
			Throwable thrown = send(client, "/status/200");
			assertThat(thrown).isInstanceOf(BreakerRejectedException.class);
			assertThat(((BreakerRejectedException) thrown).breaker()).isEqualTo(this.server.breakerName());
			assertThat(this.server.requests()).isEqualTo(3);
		});
	}

	@Test
	void retryAfterIsTheLeastTheBreakerStaysOpen() {
		this.runner.run((context) -> {
			WebClient client = webClient(context);
			send(client, "/status/429?retry-after=120");
			for (int i = 0; i < 3; i++) {
				send(client, "/status/500");
			}
			assertThat(this.server.breaker(context).state()).isEqualTo(State.OPEN);
			assertThat(this.server.breaker(context).snapshot().openUntil()).isAfter(Instant.now().plusSeconds(110));
		});
	}

	@Test
	void oneFailingHostDoesNotAffectAnother() throws IOException {
		try (LoopbackServer other = new LoopbackServer()) {
			this.runner.run((context) -> {
				WebClient client = webClient(context);
				for (int i = 0; i < 3; i++) {
					send(client, "/status/500");
				}
				assertThat(send(client, "/status/200")).isInstanceOf(BreakerRejectedException.class);
				Throwable toOther = catchThrowable(() -> client.get()
					.uri(other.uri("/status/200"))
					.retrieve()
					.toBodilessEntity()
					.block(Duration.ofSeconds(5)));
				assertThat(toOther).isNull();
				assertThat(other.requests()).isEqualTo(1);
			});
		}
	}

	@Test
	void callTimeIncludesReadingTheBody() {
		this.runner.withPropertyValues("breaker.defaults.slow-call-duration=2s").run((context) -> {
			ManualTicker ticker = context.getBean(ManualTicker.class);
			// Inside the breaker's filter: the body takes 3s on the breaker's clock.
			WebClient client = context.getBean(WebClient.Builder.class)
				.filter((request, next) -> next.exchange(request)
					.map((response) -> response.mutate()
						.body((body) -> body.doOnSubscribe((subscription) -> ticker.advance(Duration.ofSeconds(3))))
						.build()))
				.build();
			String body = client.get()
				.uri(this.server.uri("/status/200"))
				.retrieve()
				.bodyToMono(String.class)
				.block(Duration.ofSeconds(5));
			assertThat(body).isEqualTo("status 200");
			assertThat(this.server.breaker(context).totals().calls(Outcome.SUCCESS)).isEqualTo(1);
			assertThat(this.server.breaker(context).totals().slowCalls()).isEqualTo(1);
		});
	}

	private Throwable send(WebClient client, String path) {
		return catchThrowable(() -> client.get()
			.uri(this.server.uri(path))
			.retrieve()
			.toBodilessEntity()
			.block(Duration.ofSeconds(5)));
	}

}
