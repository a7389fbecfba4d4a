package dev.breaker.http;

import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;

import dev.breaker.core.Breaker;
import dev.breaker.core.Outcome;
import dev.breaker.core.State;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * What every HTTP client from Spring Boot's builders ({@code RestClient},
 * {@code RestTemplate}, {@code WebClient}) gets from the per-host breaker, against real
 * servers on loopback: each answer recorded as its outcome, a breaker that opens, rejects
 * without touching the network and keeps hosts apart. What only one client has is in its
 * own tests ({@link RestClientBreakerTests}, {@link WebClientBreakerTests}).
 */
class HttpClientBreakerTests {

	private static final int TRIP_AFTER = 3;

	@AutoClose
	private final LoopbackServer server = LoopbackServer.start();

	@ParameterizedTest
	@EnumSource
	void eachAnswerIsRecordedAsItsOutcome(ClientUnderTest client) {
		runner(client).run((context) -> {
			assertThat(client.get(context, this.server.uri("/status/200"))).isEqualTo("status 200");
			assertThat(send(client, context, "/status/404")).isInstanceOf(client.statusError(404));
			assertThat(send(client, context, "/status/429?retry-after=5")).isInstanceOf(client.statusError(429));
			assertThat(send(client, context, "/status/503?retry-after=5")).isInstanceOf(client.statusError(503));
			assertThat(send(client, context, "/status/500")).isInstanceOf(client.statusError(500));
			Breaker breaker = this.server.breaker(context);
			assertThat(breaker.totals().calls(Outcome.SUCCESS)).isEqualTo(1);
			assertThat(breaker.totals().calls(Outcome.IGNORED)).isEqualTo(1);
			assertThat(breaker.totals().calls(Outcome.THROTTLED)).isEqualTo(2);
			assertThat(breaker.totals().calls(Outcome.FAILURE)).isEqualTo(1);
		});
	}

	@ParameterizedTest
	@EnumSource
	void a503WhoseRetryAfterCannotBeReadIsAFailureAndTrips(ClientUnderTest client) {
		assertThrottlesNoneAndTrips(client, "soon", "-5", "1.5e3");
	}

	@ParameterizedTest
	@EnumSource
	void a503WhoseRetryAfterAsksForNoWaitIsAFailureAndTrips(ClientUnderTest client) {
		// "Retry-After: 0" or a date gone by is no hint (it is ignored as one) either
		assertThrottlesNoneAndTrips(client, "0", "000", "Wed, 21 Oct 2015 07:28:00 GMT");
	}

	/**
	 * Answers 503 with each of {@code retryAfters}: none is throttling, and the breaker
	 * trips. A gateway that answers every call so would otherwise keep the breaker closed
	 * for good (THROTTLED never trips).
	 */
	private void assertThrottlesNoneAndTrips(ClientUnderTest client, String... retryAfters) {
		assertThat(retryAfters).hasSize(TRIP_AFTER);
		runner(client).run((context) -> {
			for (String retryAfter : retryAfters) {
				String query = URLEncoder.encode(retryAfter, StandardCharsets.UTF_8);
				assertThat(send(client, context, "/status/503?retry-after=" + query))
					.isInstanceOf(client.statusError(503));
			}
			Breaker breaker = this.server.breaker(context);
			assertThat(breaker.totals().calls(Outcome.THROTTLED)).as("throttled").isZero();
			assertThat(breaker.totals().calls(Outcome.FAILURE)).as("failures").isEqualTo(TRIP_AFTER);
			assertThat(breaker.state()).isEqualTo(State.OPEN);
		});
	}

	@ParameterizedTest
	@EnumSource
	void hangPastTheReadTimeoutIsATimeout(ClientUnderTest client) {
		runner(client).withPropertyValues("spring.http.clients.read-timeout=300ms").run((context) -> {
			assertThat(send(client, context, "/hang")).isInstanceOf(client.ioError());
			assertThat(this.server.breaker(context).totals().calls(Outcome.TIMEOUT)).isEqualTo(1);
			assertThat(this.server.breaker(context).snapshot().inFlight()).isZero();
		});
	}

	@ParameterizedTest
	@EnumSource
	void openBreakerRejectsWithoutTouchingTheNetwork(ClientUnderTest client) {
		runner(client).run((context) -> {
			tripWithServerErrors(client, context);
			assertThat(this.server.breaker(context).state()).isEqualTo(State.OPEN);

			Throwable thrown = send(client, context, "/status/200");

			assertThat(thrown).isInstanceOf(BreakerRejectedException.class);
			BreakerRejectedException rejected = (BreakerRejectedException) thrown;
			assertThat(rejected.breaker()).isEqualTo(this.server.breakerName());
			assertThat(rejected.openUntil()).isEqualTo(this.server.breaker(context).snapshot().openUntil());
			assertThat(rejected.openUntil()).isAfter(Instant.now());
			assertThat(rejected).hasMessageStartingWith("GET " + this.server.url() + "/status/200 not sent: ");
			assertThat(this.server.requests()).isEqualTo(TRIP_AFTER);
		});
	}

	@ParameterizedTest
	@EnumSource
	void fourHundredStormsNeverTrip(ClientUnderTest client) {
		int[] statuses = { 400, 404, 422 };
		runner(client).run((context) -> {
			for (int i = 0; i < 60; i++) {
				send(client, context, "/status/" + statuses[i % statuses.length]);
			}
			Breaker breaker = this.server.breaker(context);
			assertThat(breaker.state()).isEqualTo(State.CLOSED);
			assertThat(breaker.totals().calls(Outcome.IGNORED)).isEqualTo(60);
			assertThat(breaker.totals().trips()).isZero();
			assertThat(this.server.requests()).isEqualTo(60);
		});
	}

	@ParameterizedTest
	@EnumSource
	void retryAfterIsTheLeastTheBreakerStaysOpen(ClientUnderTest client) {
		runner(client).run((context) -> {
			send(client, context, "/status/429?retry-after=120");
			tripWithServerErrors(client, context);
			assertThat(this.server.breaker(context).state()).isEqualTo(State.OPEN);
			assertThat(this.server.breaker(context).snapshot().openUntil()).isAfter(Instant.now().plusSeconds(110));
		});
	}

	@ParameterizedTest
	@EnumSource
	void oneFailingHostDoesNotAffectAnother(ClientUnderTest client) {
		try (LoopbackServer other = LoopbackServer.start()) {
			runner(client).run((context) -> {
				tripWithServerErrors(client, context);
				for (int i = 0; i < 10; i++) {
					assertThat(send(client, context, other.uri("/status/200"))).isNull();
				}
				assertThat(send(client, context, "/status/200")).isInstanceOf(BreakerRejectedException.class);
				assertThat(other.breaker(context).state()).isEqualTo(State.CLOSED);
				assertThat(other.breaker(context).totals().calls(Outcome.SUCCESS)).isEqualTo(10);
				assertThat(other.requests()).isEqualTo(10);
			});
		}
	}

	private static ApplicationContextRunner runner(ClientUnderTest client) {
		return client.runner()
			.withPropertyValues("breaker.defaults.consecutive-failures=" + TRIP_AFTER,
					"breaker.defaults.minimum-calls=" + TRIP_AFTER);
	}

	private void tripWithServerErrors(ClientUnderTest client, ApplicationContext context) {
		for (int i = 0; i < TRIP_AFTER; i++) {
			assertThat(send(client, context, "/status/500")).isInstanceOf(client.statusError(500));
		}
	}

	/** Sends a GET to this test's server and returns what it threw, or {@code null}. */
	private Throwable send(ClientUnderTest client, ApplicationContext context, String path) {
		return send(client, context, this.server.uri(path));
	}

	private static Throwable send(ClientUnderTest client, ApplicationContext context, URI uri) {
		return catchThrowable(() -> client.get(context, uri));
	}

}
