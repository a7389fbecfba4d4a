package dev.breaker.http;

import java.time.Duration;

import dev.breaker.core.BreakerRegistry;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

import org.springframework.boot.restclient.RestTemplateBuilder;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.http.HttpEntity;
import org.springframework.http.HttpHeaders;
import org.springframework.web.client.HttpServerErrorException;
import org.springframework.web.client.RestTemplate;

import static dev.breaker.http.HttpClients.restTemplate;
import static dev.breaker.http.HttpClients.restTemplateRunner;
import static dev.breaker.http.HttpClients.retrying;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * HTTP retries of a {@code RestTemplate} from Spring Boot's {@link RestTemplateBuilder},
 * against a real server on loopback that fails a number of times, then answers 200.
 */
class RestTemplateRetryTests {

	private final ApplicationContextRunner runner = retrying(restTemplateRunner("simple"), "100ms,200ms");

	@AutoClose
	private final LoopbackServer server = LoopbackServer.start();

	@Test
	void aGetThatFailsTwiceSucceedsOnTheThirdAttempt() {
		this.runner.run((context) -> {
			this.server.failNext(2, 503, null);
			assertThat(restTemplate(context).getForObject(this.server.uri("/failing"), String.class))
				.isEqualTo("status 200");
			assertThat(this.server.requests()).isEqualTo(3);
			assertThat(context.getBean(RecordingDelays.class).pauses).containsExactly(Duration.ofMillis(100),
					Duration.ofMillis(200));
		});
	}

	@Test
	void aPostRetriesOnlyWithAnIdempotencyKey() {
		this.runner.run((context) -> {
			this.server.failNext(1, 503, null);
			assertThat(catchThrowable(
					() -> restTemplate(context).postForObject(this.server.uri("/failing"), "order", String.class)))
				.isInstanceOf(HttpServerErrorException.ServiceUnavailable.class);
			this.server.failNext(1, 503, null);
			HttpHeaders headers = new HttpHeaders();
			headers.add(HttpRetryPolicy.IDEMPOTENCY_KEY, "order-42");
			assertThat(restTemplate(context).postForObject(this.server.uri("/failing"),
					new HttpEntity<>("order", headers), String.class))
				.isEqualTo("status 200");
			assertThat(this.server.requests()).isEqualTo(3);
			assertThat(this.server.received()).allSatisfy((received) -> assertThat(received.body()).isEqualTo("order"));
		});
	}

	@Test
	void theBudgetAppliesToRestTemplateRetriesToo() {
		this.runner
			.withPropertyValues("breaker.instances.http.retry.budget.ratio=0",
					"breaker.instances.http.retry.budget.min-per-second=0")
			.run((context) -> {
				this.server.failNext(1, 503, null);
				assertThat(catchThrowable(
						() -> restTemplate(context).getForObject(this.server.uri("/failing"), String.class)))
					.isInstanceOf(HttpServerErrorException.class);
				assertThat(this.server.requests()).isEqualTo(1);
				assertThat(context.getBean(BreakerRegistry.class)
					.find(this.server.breakerName())
					.orElseThrow()
					.totals()
					.retriesRefused()).isEqualTo(1);
			});
	}

}
