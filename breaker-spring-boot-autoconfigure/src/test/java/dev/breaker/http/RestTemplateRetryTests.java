package dev.breaker.http;

import java.io.IOException;
import java.time.Duration;

import dev.breaker.autoconfigure.BreakerAutoConfiguration;
import dev.breaker.autoconfigure.http.HttpBreakerAutoConfiguration;
import dev.breaker.core.BreakerRegistry;
import dev.breaker.core.ManualTicker;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.http.client.autoconfigure.HttpClientAutoConfiguration;
import org.springframework.boot.http.client.autoconfigure.imperative.ImperativeHttpClientAutoConfiguration;
import org.springframework.boot.http.converter.autoconfigure.HttpMessageConvertersAutoConfiguration;
import org.springframework.boot.restclient.RestTemplateBuilder;
import org.springframework.boot.restclient.autoconfigure.RestTemplateAutoConfiguration;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.http.HttpEntity;
import org.springframework.http.HttpHeaders;
import org.springframework.web.client.HttpServerErrorException;
import org.springframework.web.client.RestTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * HTTP retries of a {@code RestTemplate} from Spring Boot's {@link RestTemplateBuilder},
 * against a real server on loopback that fails a number of times, then answers 200.
 */
class RestTemplateRetryTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(BreakerAutoConfiguration.class, HttpBreakerAutoConfiguration.class,
				HttpClientAutoConfiguration.class, ImperativeHttpClientAutoConfiguration.class,
				HttpMessageConvertersAutoConfiguration.class, RestTemplateAutoConfiguration.class))
		.withBean(ManualTicker.class, ManualTicker::new)
		.withBean(RecordingDelays.class, RecordingDelays::new)
		.withPropertyValues("spring.http.clients.imperative.factory=simple", "spring.http.clients.connect-timeout=2s",
				"spring.http.clients.read-timeout=5s", "breaker.defaults.consecutive-failures=0",
				"breaker.defaults.failure-rate-threshold=0", "breaker.http.retry.intervals=100ms,200ms",
				"breaker.http.retry.jitter=0");

	private LoopbackServer server;

	@BeforeEach
	void startServer() throws IOException {
		this.server = new LoopbackServer();
	}

	@AfterEach
	void stopServer() {
		this.server.close();
	}

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

	private RestTemplate restTemplate(AssertableApplicationContext context) {
		return context.getBean(RestTemplateBuilder.class).build();
	}

}
