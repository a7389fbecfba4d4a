package dev.breaker.http;

import java.net.URI;
import java.time.Duration;

import dev.breaker.core.Breaker;
import dev.breaker.core.ManualTicker;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.web.client.HttpServerErrorException;
import org.springframework.web.client.RestClient;

import static dev.breaker.http.HttpClients.restClientRunner;
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

	private final ApplicationContextRunner runner = restClientRunner("jdk")
		.withBean(RecordingDelays.class, RecordingDelays::new)
		.withPropertyValues("breaker.instances.http.consecutive-failures=0",
				"breaker.instances.http.failure-rate-threshold=0", "breaker.http.retry.intervals=100ms,200ms,400ms");

	@AutoClose
	private final LoopbackServer server = LoopbackServer.start();

	@BeforeEach
	void setUpServer() {
		this.server.keepNoRequests();
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
			Breaker breaker = this.server.breaker(context);
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
