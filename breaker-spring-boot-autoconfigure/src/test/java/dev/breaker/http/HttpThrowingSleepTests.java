package dev.breaker.http;

import java.io.IOException;

import dev.breaker.aspect.DelayScheduler;
import dev.breaker.aspect.BrokenSleep;
import dev.breaker.aspect.WarningsLogged;
import dev.breaker.core.Breaker;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * A scheduler of the application's own whose sleep throws, for the blocking HTTP clients:
 * the request fails as when its pause is refused (an {@code IOException} whose cause is
 * what the sleep threw), the retry goes back to the budget, and each failed pause is
 * logged once, escaped and cut. Against a real server on loopback.
 */
class HttpThrowingSleepTests {

	@AutoClose
	private final LoopbackServer server = LoopbackServer.start();

	@ParameterizedTest
	@EnumSource(names = { "REST_CLIENT", "REST_TEMPLATE" })
	void aSleepThatThrowsIsLoggedOnceEscapedAndBoundedAndTheRetryGoesBack(ClientUnderTest client) {
		client.runner()
			.withBean(DelayScheduler.class, BrokenSleep::new)
			.withPropertyValues("breaker.defaults.consecutive-failures=0", "breaker.defaults.failure-rate-threshold=0",
					"breaker.defaults.track-in-flight=true", "breaker.http.retry.intervals=100ms",
					"breaker.http.retry.jitter=0")
			.run((context) -> {
				this.server.failNext(10, 503, null);
				try (WarningsLogged warnings = WarningsLogged.by(DelayScheduler.class.getName())) {
					Throwable thrown = catchThrowable(() -> client.get(context, this.server.uri("/failing")));
					assertThat(thrown).hasRootCauseInstanceOf(IllegalStateException.class)
						.cause()
						.isInstanceOf(IOException.class);
					assertThat(warnings.messages()).as("warnings after one failed pause").hasSize(1);
					assertThat(warnings.messages().get(0))
						.startsWith("breaker '" + this.server.breakerName() + "': retry not made, the sleep of ")
						.contains("threw java.lang.IllegalStateException: clock gone\\nWARN forged line xxx")
						.doesNotContain("\n")
						.hasSizeLessThan(400);
				}
				Breaker breaker = this.server.breaker(context);
				assertThat(this.server.requests()).as("requests").isEqualTo(1);
				assertThat(breaker.totals().retries()).as("retries granted").isEqualTo(1);
				assertThat(breaker.snapshot().retryBudget().retries()).as("retries taken from the budget").isZero();
				assertThat(breaker.snapshot().inFlight()).as("in flight").isZero();
			});
	}

}
