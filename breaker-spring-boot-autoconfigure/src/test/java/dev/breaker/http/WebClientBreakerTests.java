package dev.breaker.http;

import java.time.Duration;

import dev.breaker.core.ManualTicker;
import dev.breaker.core.Outcome;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.web.reactive.function.client.WebClient;

import static dev.breaker.http.HttpClients.webClient;
import static dev.breaker.http.HttpClients.webClientRunner;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * A {@code WebClient} from Spring Boot's builder gets the per-host breaker as a filter:
 * what only a reactive client has (a subscriber that gives up, a body that streams). What
 * every client gets is in {@link HttpClientBreakerTests}.
 */
class WebClientBreakerTests {

	private final ApplicationContextRunner runner = webClientRunner();

	@AutoClose
	private final LoopbackServer server = LoopbackServer.start();

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

}
