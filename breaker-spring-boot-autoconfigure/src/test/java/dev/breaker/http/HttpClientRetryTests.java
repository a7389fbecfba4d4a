package dev.breaker.http;

import java.net.URI;
import java.time.Duration;
import java.util.List;

import dev.breaker.core.Breaker;
import dev.breaker.core.BreakerRegistry;
import dev.breaker.core.Outcome;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationContext;
import org.springframework.http.HttpMethod;

import static dev.breaker.http.HttpClients.retrying;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * HTTP retries as every client from Spring Boot's builders ({@code RestClient},
 * {@code RestTemplate}, {@code WebClient}) makes them, against a real server on loopback
 * that fails a number of times, then answers 200: which requests retry, how long they
 * pause, and what stops them (the last interval, the breaker, the budget). The retry
 * policy in detail is in {@link RestClientRetryTests}; what only a reactive client has is
 * in {@link WebClientRetryTests}.
 */
class HttpClientRetryTests {

	private static final String ORDER = "{\"order\":42}";

	@AutoClose
	private final LoopbackServer server = LoopbackServer.start();

	@ParameterizedTest
	@EnumSource
	void aGetThatFailsTwiceSucceedsOnTheThirdAttempt(ClientUnderTest client) {
		runner(client).run((context) -> {
			this.server.failNext(2, 503, null);
			assertThat(client.get(context, this.server.uri("/failing"))).isEqualTo("status 200");
			assertThat(this.server.requests()).isEqualTo(3);
			assertThat(pauses(context)).containsExactly(Duration.ofMillis(100), Duration.ofMillis(200));
			Breaker breaker = this.server.breaker(context);
			assertThat(breaker.totals().calls(Outcome.FAILURE)).isEqualTo(2);
			assertThat(breaker.totals().calls(Outcome.SUCCESS)).isEqualTo(1);
			assertThat(breaker.totals().retries()).isEqualTo(2);
			assertThat(breaker.snapshot().inFlight()).isZero();
		});
	}

	@ParameterizedTest
	@EnumSource
	void afterTheLastIntervalTheCallerGetsTheLastAnswer(ClientUnderTest client) {
		runner(client).run((context) -> {
			this.server.failNext(10, 502, null);
			assertThat(get(client, context)).isInstanceOf(client.statusError(502));
			assertThat(this.server.requests()).isEqualTo(4);
			assertThat(this.server.breaker(context).totals().calls(Outcome.FAILURE)).isEqualTo(4);
		});
	}

	@ParameterizedTest
	@EnumSource
	void aPostRetriesOnlyWithAnIdempotencyKey(ClientUnderTest client) {
		runner(client).run((context) -> {
			this.server.failNext(1, 503, null);
			assertThat(catchThrowable(() -> post(client, context, null))).isInstanceOf(client.statusError(503));
			assertThat(this.server.requests()).isEqualTo(1);
			this.server.failNext(1, 503, null);
			assertThat(post(client, context, "order-42")).isEqualTo("status 200");
			assertThat(this.server.requests()).isEqualTo(3);
			assertThat(this.server.received()).allSatisfy((received) -> assertThat(received.body()).isEqualTo(ORDER));
		});
	}

	@ParameterizedTest
	@EnumSource
	void aRetryNeverHappensWhileTheBreakerRejects(ClientUnderTest client) {
		runner(client).withPropertyValues("breaker.defaults.consecutive-failures=2").run((context) -> {
			this.server.failNext(10, 503, null);
			assertThat(get(client, context)).isInstanceOf(BreakerRejectedException.class);
			assertThat(this.server.requests()).isEqualTo(2);
			assertThat(get(client, context)).isInstanceOf(BreakerRejectedException.class);
			assertThat(this.server.requests()).isEqualTo(2);
		});
	}

	@ParameterizedTest
	@EnumSource
	void aRetryTheBudgetRefusesIsNotMadeAndTheCallerGetsTheLastAnswer(ClientUnderTest client) {
		// a budget of one retry per 10-second window
		runner(client)
			.withPropertyValues("breaker.instances.http.retry.budget.ratio=0",
					"breaker.instances.http.retry.budget.min-per-second=0.1")
			.run((context) -> {
				this.server.failNext(10, 503, null);
				assertThat(get(client, context)).isInstanceOf(client.statusError(503));
				assertThat(this.server.requests()).isEqualTo(2);
				assertThat(get(client, context)).isInstanceOf(client.statusError(503));
				assertThat(this.server.requests()).isEqualTo(3);
				assertThat(this.server.breaker(context).totals().retries()).isEqualTo(1);
				assertThat(this.server.breaker(context).totals().retriesRefused()).isEqualTo(2);
				assertThat(pauses(context)).hasSize(1);
			});
	}

	@ParameterizedTest
	@EnumSource
	void aBudgetWithNothingToSpendRefusesTheFirstRetry(ClientUnderTest client) {
		runner(client)
			.withPropertyValues("breaker.instances.http.retry.budget.ratio=0",
					"breaker.instances.http.retry.budget.min-per-second=0")
			.run((context) -> {
				this.server.failNext(1, 503, null);
				assertThat(get(client, context)).isInstanceOf(client.statusError(503));
				assertThat(this.server.requests()).isEqualTo(1);
				assertThat(this.server.breaker(context).totals().retriesRefused()).isEqualTo(1);
			});
	}

	@ParameterizedTest
	@EnumSource
	void aLongerRetryAfterIsThePause(ClientUnderTest client) {
		runner(client).withPropertyValues("breaker.http.retry.on=failure,throttled").run((context) -> {
			this.server.failNext(1, 503, "2");
			assertThat(get(client, context)).isNull();
			this.server.failNext(1, 429, "7");
			assertThat(get(client, context)).isNull();
			assertThat(pauses(context)).containsExactly(Duration.ofSeconds(2), Duration.ofSeconds(7));
		});
	}

	@ParameterizedTest
	@EnumSource
	void aLongerRetryAfterOfAStatusNamedInRetryOnIsThePause(ClientUnderTest client) {
		runner(client).withPropertyValues("breaker.http.retry.on=429").run((context) -> {
			this.server.failNext(1, 429, "3");
			assertThat(get(client, context)).isNull();
			assertThat(pauses(context)).containsExactly(Duration.ofSeconds(3));
		});
	}

	@ParameterizedTest
	@EnumSource
	void aConnectionErrorRetries(ClientUnderTest client) {
		runner(client).run((context) -> {
			URI refusing = LoopbackServer.refusingUri();
			assertThat(catchThrowable(() -> client.get(context, refusing))).isInstanceOf(client.ioError());
			assertThat(pauses(context)).hasSize(3);
			Breaker breaker = context.getBean(BreakerRegistry.class).breaker("http", HostBreakers.hostKey(refusing));
			assertThat(breaker.totals().calls(Outcome.FAILURE)).isEqualTo(4);
		});
	}

	private static ApplicationContextRunner runner(ClientUnderTest client) {
		return retrying(client.runner(), "100ms,200ms,400ms");
	}

	private static List<Duration> pauses(ApplicationContext context) {
		return context.getBean(RecordingDelays.class).pauses;
	}

	/** Sends a GET to /failing and returns what it threw, or {@code null}. */
	private Throwable get(ClientUnderTest client, ApplicationContext context) {
		return catchThrowable(() -> client.get(context, this.server.uri("/failing")));
	}

	/** POSTs an order to /failing, with that idempotency key (or none). */
	private String post(ClientUnderTest client, ApplicationContext context, String idempotencyKey) {
		return client.send(context, HttpMethod.POST, this.server.uri("/failing"), ORDER, idempotencyKey);
	}

}
