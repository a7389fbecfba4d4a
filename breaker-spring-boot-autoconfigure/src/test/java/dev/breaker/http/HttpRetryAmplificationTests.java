package dev.breaker.http;

import java.io.IOException;
import java.net.URI;
import java.time.Duration;

import dev.breaker.autoconfigure.BreakerAutoConfiguration;
import dev.breaker.autoconfigure.http.HttpBreakerAutoConfiguration;
import dev.breaker.core.Breaker;
import dev.breaker.core.BreakerRegistry;
import dev.breaker.core.ManualTicker;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.http.client.autoconfigure.HttpClientAutoConfiguration;
import org.springframework.boot.http.client.autoconfigure.imperative.ImperativeHttpClientAutoConfiguration;
import org.springframework.boot.http.converter.autoconfigure.HttpMessageConvertersAutoConfiguration;
import org.springframework.boot.restclient.autoconfigure.RestClientAutoConfiguration;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.web.client.HttpServerErrorException;
import org.springframework.web.client.RestClient;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * The retry storm through the HTTP retries of a {@code RestClient}: a host on loopback
 * answers 503 to every request, three retries are configured, traffic is steady. With the
 * default budget the host gets about 1.2 times the requests it would get without retries;
 * without a budget four times. Trip rules off, manual ticker advanced by 1/rate per call,
 * pauses over at once.
 */
class HttpRetryAmplificationTests {

	private static final int RATE = 500;

	private static final int SECONDS = "long".equals(System.getProperty("breaker.stress")) ? 60 : 20;

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(BreakerAutoConfiguration.class, HttpBreakerAutoConfiguration.class,
				HttpClientAutoConfiguration.class, ImperativeHttpClientAutoConfiguration.class,
				HttpMessageConvertersAutoConfiguration.class, RestClientAutoConfiguration.class))
		.withBean(ManualTicker.class, ManualTicker::new)
		.withBean(RecordingDelays.class, RecordingDelays::new)
		.withPropertyValues("spring.http.clients.imperative.factory=jdk", "spring.http.clients.connect-timeout=2s",
				"spring.http.clients.read-timeout=5s", "breaker.instances.http.consecutive-failures=0",
				"breaker.instances.http.failure-rate-threshold=0", "breaker.http.retry.intervals=100ms,200ms,400ms");

	private LoopbackServer server;

	@BeforeEach
	void startServer() throws IOException {
		this.server = new LoopbackServer();
		this.server.keepNoRequests();
	}

	@AfterEach
	void stopServer() {
		this.server.close();
	}

	@Test
	void withTheDefaultBudgetAFailingHostGetsAboutOnePointTwoTimesItsRequests() {
		this.runner.run((context) -> {
			int calls = RATE * SECONDS;
			steadyTraffic(context, calls);
			double amplification = (double) this.server.requests() / calls;
			System.out.printf(
					"HTTP retry amplification with the default budget: %d requests asked for, %d sent, %.3fx%n", calls,
					this.server.requests(), amplification);
			assertThat(amplification).isBetween(1.15, 1.25);
			Breaker breaker = context.getBean(BreakerRegistry.class).find(this.server.breakerName()).orElseThrow();
			assertThat(breaker.totals().retries()).isEqualTo(this.server.requests() - calls);
		});
	}

	@Test
	void withoutABudgetAFailingHostGetsFourTimesItsRequests() {
		this.runner.withPropertyValues("breaker.instances.http.retry.budget.ratio=1000").run((context) -> {
			int calls = RATE;
			steadyTraffic(context, calls);
			System.out.printf("HTTP retry amplification without a budget: %d requests asked for, %d sent, %.3fx%n",
					calls, this.server.requests(), (double) this.server.requests() / calls);
			assertThat(this.server.requests()).isEqualTo(4 * calls);
		});
	}

	private void steadyTraffic(AssertableApplicationContext context, int calls) {
		ManualTicker ticker = context.getBean(ManualTicker.class);
		RestClient client = context.getBean(RestClient.Builder.class).build();
		URI failing = this.server.uri("/status/503");
		long step = Duration.ofSeconds(1).toNanos() / RATE;
		for (int i = 0; i < calls; i++) {
			assertThat(catchThrowable(() -> client.get().uri(failing).retrieve().toBodilessEntity()))
				.isInstanceOf(HttpServerErrorException.ServiceUnavailable.class);
			ticker.advanceNanos(step);
		}
	}

}
