package dev.breaker.aspect;

import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.URI;
import java.time.Duration;

import dev.breaker.annotation.CircuitGuarded;
import dev.breaker.autoconfigure.BreakerAutoConfiguration;
import dev.breaker.core.Breaker;
import dev.breaker.core.BreakerRegistry;
import dev.breaker.core.ManualTicker;
import dev.breaker.http.LoopbackServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The retry storm: a dependency on a real loopback server fails every call, each call has
 * three retries, traffic is steady. Without a budget the dependency gets four times the
 * calls it would get without retries; with the default budget (20% of the calls, plus 10
 * a second) about 1.2 times. The trip rules are off, so the budget alone stands between
 * the dependency and the storm. Time is a manual ticker, advanced by 1/rate per call;
 * pauses return at once.
 */
class RetryAmplificationTests {

	/**
	 * Calls a (simulated) second; with the floor of 10 a second the budget allows 1.2 +
	 * 10/rate.
	 */
	private static final int RATE = 500;

	private static final int SECONDS = "long".equals(System.getProperty("breaker.stress")) ? 60 : 20;

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, BreakerAutoConfiguration.class))
		.withUserConfiguration(Services.class)
		.withPropertyValues("breaker.instances.dependency.retry.intervals=100ms,200ms,400ms",
				"breaker.instances.dependency.consecutive-failures=0",
				"breaker.instances.dependency.failure-rate-threshold=0");

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
	void withTheDefaultBudgetAFailingDependencyGetsAboutOnePointTwoTimesItsCalls() {
		this.runner.run((context) -> {
			int calls = RATE * SECONDS;
			steadyTraffic(context, calls);
			double amplification = (double) this.server.requests() / calls;
			System.out.printf("retry amplification with the default budget: %d calls, %d requests, %.3fx%n", calls,
					this.server.requests(), amplification);
			assertThat(amplification).isBetween(1.15, 1.25);
			Breaker breaker = context.getBean(BreakerRegistry.class).breaker("dependency");
			assertThat(breaker.totals().retries()).isEqualTo(this.server.requests() - calls);
			// a call stops asking at its first refusal: every call either made its three
			// retries or was refused once
			long refused = breaker.totals().retriesRefused();
			assertThat(refused).isPositive().isLessThanOrEqualTo(calls);
			assertThat(breaker.totals().retries() + refused).isLessThanOrEqualTo(3L * calls);
		});
	}

	@Test
	void withoutABudgetAFailingDependencyGetsFourTimesItsCalls() {
		this.runner.withPropertyValues("breaker.instances.dependency.retry.budget.ratio=1000").run((context) -> {
			int calls = RATE;
			steadyTraffic(context, calls);
			System.out.printf("retry amplification without a budget: %d calls, %d requests, %.3fx%n", calls,
					this.server.requests(), (double) this.server.requests() / calls);
			assertThat(this.server.requests()).isEqualTo(4 * calls);
		});
	}

	private void steadyTraffic(AssertableApplicationContext context, int calls) throws IOException {
		ManualTicker ticker = context.getBean(ManualTicker.class);
		Dependency dependency = context.getBean(Dependency.class);
		URI failing = this.server.uri("/status/503");
		long step = Duration.ofSeconds(1).toNanos() / RATE;
		for (int i = 0; i < calls; i++) {
			assertThat(dependency.fetch(failing)).isEqualTo("fallback");
			ticker.advanceNanos(step);
		}
	}

	@Configuration(proxyBeanMethods = false)
	@Import(ManualTime.class)
	static class Services {

		@Bean
		Dependency dependency() {
			return new Dependency();
		}

	}

	static class Dependency {

		@CircuitGuarded(name = "dependency", fallbackMethod = "fallback")
		public String fetch(URI uri) throws IOException {
			HttpURLConnection connection = (HttpURLConnection) uri.toURL().openConnection();
			int status = connection.getResponseCode();
			try (InputStream body = (status < 400) ? connection.getInputStream() : connection.getErrorStream()) {
				if (body != null) {
					body.readAllBytes();
				}
			}
			if (status >= 500) {
				throw new IOException("status " + status);
			}
			return "status " + status;
		}

		String fallback(URI uri, Throwable cause) {
			return "fallback";
		}

	}

}
