package dev.breaker.http;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

import dev.breaker.aspect.DelayScheduler;
import dev.breaker.core.Breaker;
import dev.breaker.core.BreakerConfig;
import dev.breaker.core.BreakerRegistry;
import dev.breaker.core.ManualTicker;
import dev.breaker.core.Outcome;
import dev.breaker.observation.CallObserver;
import org.junit.jupiter.api.Test;

import org.springframework.http.HttpMethod;
import org.springframework.http.client.ClientHttpRequestExecution;
import org.springframework.http.client.ClientHttpResponse;
import org.springframework.mock.http.client.MockClientHttpRequest;
import org.springframework.mock.http.client.MockClientHttpResponse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The interceptor on its own, with a real registry and a scripted execution in place of
 * the network (the loopback tests cover real servers).
 */
class HttpBreakerInterceptorTests {

	private static final URI ORDERS = URI.create("https://api.acme.com/orders");

	private final ManualTicker ticker = new ManualTicker();

	private final BreakerRegistry registry = BreakerRegistry.builder()
		// stall-calls on, so the breaker tracks calls in flight
		.defaults(BreakerConfig.builder().ticker(this.ticker).consecutiveFailures(2).stallCalls(5).build())
		.children(HostBreakers.GROUP, new BreakerRegistry.Children(10, Duration.ofMinutes(1), false))
		.build();

	private final HttpBreakerInterceptor interceptor = new HttpBreakerInterceptor(
			new HostBreakers(this.registry, HttpClassifier.defaults(), Map.of()));

	private final AtomicInteger executions = new AtomicInteger();

	@Test
	void closingTheResponseTwiceRecordsTheCallOnce() throws IOException {
		ClientHttpResponse response = intercept(new MockClientHttpResponse(new byte[0], 200));
		response.close();
		response.close();
		assertThat(breaker().totals().calls(Outcome.SUCCESS)).isEqualTo(1);
		assertThat(breaker().snapshot().inFlight()).isZero();
	}

	@Test
	void theCallIsInFlightUntilTheResponseIsClosed() throws IOException {
		ClientHttpResponse response = intercept(new MockClientHttpResponse(new byte[0], 200));
		assertThat(breaker().snapshot().inFlight()).isEqualTo(1);
		assertThat(breaker().totals().calls(Outcome.SUCCESS)).isZero();
		response.close();
		assertThat(breaker().snapshot().inFlight()).isZero();
		assertThat(breaker().totals().calls(Outcome.SUCCESS)).isEqualTo(1);
	}

	@Test
	void aReadTimeoutInTheBodyIsATimeoutWhateverTheStatus() throws IOException {
		InputStream body = new SequenceInputStream(new ByteArrayInputStream("part".getBytes()), new InputStream() {
			@Override
			public int read() throws IOException {
				throw new SocketTimeoutException("Read timed out");
			}
		});
		ClientHttpResponse response = intercept(new MockClientHttpResponse(body, 200));
		assertThatExceptionOfType(SocketTimeoutException.class).isThrownBy(() -> response.getBody().readAllBytes());
		response.close();
		assertThat(breaker().totals().calls(Outcome.TIMEOUT)).isEqualTo(1);
		assertThat(breaker().totals().calls(Outcome.SUCCESS)).isZero();
	}

	@Test
	void anOpenBreakerNeverRunsTheExecution() throws IOException {
		intercept(new MockClientHttpResponse(new byte[0], 500)).close();
		intercept(new MockClientHttpResponse(new byte[0], 502)).close();
		assertThat(this.executions).hasValue(2);

		assertThatExceptionOfType(BreakerRejectedException.class)
			.isThrownBy(() -> intercept(new MockClientHttpResponse(new byte[0], 200)))
			.satisfies((ex) -> assertThat(ex.breaker()).isEqualTo("http:api.acme.com"));
		assertThat(this.executions).hasValue(2);
	}

	@Test
	void theRejectionMessageLeavesOutUserInfoAndQuery() throws IOException {
		intercept(new MockClientHttpResponse(new byte[0], 500)).close();
		intercept(new MockClientHttpResponse(new byte[0], 500)).close();
		MockClientHttpRequest request = new MockClientHttpRequest(HttpMethod.POST,
				URI.create("https://bob:secret@api.acme.com/orders?token=abc"));
		assertThatExceptionOfType(BreakerRejectedException.class)
			.isThrownBy(() -> this.interceptor.intercept(request, new byte[0],
					execution(new MockClientHttpResponse(new byte[0], 200))))
			.withMessageStartingWith(
					"POST https://api.acme.com/orders not sent: breaker 'http:api.acme.com' is OPEN until ")
			.withMessageNotContaining("secret")
			.withMessageNotContaining("token");
	}

	/**
	 * Host breakers built on a registry whose {@code http} group breaker is consulted
	 * (the auto-configuration never does so, the public constructor allows it): when the
	 * group breaker refuses, the rejection names it and says why, not the host's breaker,
	 * which is closed and is not what an operator should reset.
	 */
	@Test
	void aRejectionByTheGroupBreakerNamesTheGroupBreaker() {
		BreakerRegistry consulting = BreakerRegistry.builder()
			.defaults(BreakerConfig.builder().ticker(this.ticker).build())
			.children(HostBreakers.GROUP, new BreakerRegistry.Children(10, Duration.ofMinutes(1), true))
			.build();
		consulting.breaker(HostBreakers.GROUP).forceOpen();
		HttpBreakerInterceptor guarded = new HttpBreakerInterceptor(
				new HostBreakers(consulting, HttpClassifier.defaults(), Map.of()));
		assertThatExceptionOfType(BreakerRejectedException.class)
			.isThrownBy(() -> guarded.intercept(new MockClientHttpRequest(HttpMethod.GET, ORDERS), new byte[0],
					execution(new MockClientHttpResponse(new byte[0], 200))))
			.withMessage("GET https://api.acme.com/orders not sent: breaker 'http' is FORCED_OPEN by an operator")
			.satisfies((ex) -> assertThat(ex.breaker()).isEqualTo("http"));
		assertThat(this.executions).hasValue(0);
	}

	@Test
	void anErrorBeforeTheResponseIsRecordedAndRethrownUnchanged() {
		IOException reset = new IOException("Connection reset");
		ClientHttpRequestExecution failing = (request, body) -> {
			throw reset;
		};
		assertThatExceptionOfType(IOException.class)
			.isThrownBy(() -> this.interceptor.intercept(new MockClientHttpRequest(HttpMethod.GET, ORDERS), new byte[0],
					failing))
			.isSameAs(reset);
		assertThat(breaker().totals().calls(Outcome.FAILURE)).isEqualTo(1);
		assertThat(breaker().snapshot().inFlight()).isZero();
	}

	@Test
	void aRequestWithoutAHostIsNotGuarded() throws IOException {
		MockClientHttpRequest request = new MockClientHttpRequest(HttpMethod.GET, URI.create("/relative"));
		this.interceptor.intercept(request, new byte[0], execution(new MockClientHttpResponse(new byte[0], 500)))
			.close();
		assertThat(this.executions).hasValue(1);
		assertThat(this.registry.children(HostBreakers.GROUP)).isEmpty();
	}

	@Test
	void theRetryAnInterruptedPauseNamesShowsItsPathEscapedAndCut() {
		HttpBreakerInterceptor retrying = retryingOnce();
		URI hostile = URI.create("https://api.acme.com/\u202e" + "x".repeat(100_000));
		try {
			assertThatExceptionOfType(IOException.class)
				.isThrownBy(() -> retrying.intercept(new MockClientHttpRequest(HttpMethod.GET, hostile), new byte[0],
						execution(new MockClientHttpResponse(new byte[0], 503))))
				.withMessageStartingWith("interrupted before retry 1 of GET /\\u202exxx")
				.withMessageEndingWith("x…")
				.satisfies((ex) -> assertThat(ex.getMessage()).hasSizeLessThan(400));
		}
		finally {
			Thread.interrupted();
		}
	}

	@Test
	void aPauseInterruptedAfterAnAnswerEndsTheRequestNamingTheRetryAndKeepsTheInterrupt() {
		HttpBreakerInterceptor retrying = retryingOnce();
		try {
			assertThatExceptionOfType(IOException.class)
				.isThrownBy(() -> retrying.intercept(new MockClientHttpRequest(HttpMethod.GET, ORDERS), new byte[0],
						execution(new MockClientHttpResponse(new byte[0], 503))))
				.withMessage("interrupted before retry 1 of GET /orders");
			assertThat(Thread.currentThread().isInterrupted()).isTrue();
		}
		finally {
			Thread.interrupted();
		}
		assertThat(this.executions).hasValue(1);
		assertThat(breaker().totals().calls(Outcome.FAILURE)).isEqualTo(1);
		assertThat(breaker().totals().retries()).isEqualTo(1);
		assertThat(breaker().snapshot().inFlight()).isZero();
	}

	@Test
	void aPauseInterruptedAfterAnErrorRethrowsTheErrorAndKeepsTheInterrupt() {
		IOException reset = new IOException("Connection reset");
		ClientHttpRequestExecution failing = (request, body) -> {
			this.executions.incrementAndGet();
			throw reset;
		};
		try {
			assertThatExceptionOfType(IOException.class)
				.isThrownBy(() -> retryingOnce().intercept(new MockClientHttpRequest(HttpMethod.GET, ORDERS),
						new byte[0], failing))
				.isSameAs(reset);
			assertThat(Thread.currentThread().isInterrupted()).isTrue();
		}
		finally {
			Thread.interrupted();
		}
		assertThat(this.executions).hasValue(1);
		assertThat(breaker().snapshot().inFlight()).isZero();
	}

	/** An interceptor with one retry after 1s, whose pauses are interrupted. */
	private HttpBreakerInterceptor retryingOnce() {
		HttpRetryPolicy once = new HttpRetryPolicy(List.of(Duration.ofSeconds(1)), 0, Set.of(Outcome.FAILURE), Set.of(),
				false);
		DelayScheduler interrupted = new DelayScheduler() {
			@Override
			public void sleep(Duration pause) throws InterruptedException {
				throw new InterruptedException();
			}

			@Override
			public Future<?> schedule(Duration delay, Runnable task) {
				throw new UnsupportedOperationException();
			}
		};
		return new HttpBreakerInterceptor(
				new HostBreakers(this.registry, HttpClassifier.defaults(), Map.of(), once, Map.of()), interrupted,
				CallObserver.NONE);
	}

	private ClientHttpResponse intercept(ClientHttpResponse answer) throws IOException {
		return this.interceptor.intercept(new MockClientHttpRequest(HttpMethod.GET, ORDERS), new byte[0],
				execution(answer));
	}

	private ClientHttpRequestExecution execution(ClientHttpResponse answer) {
		return (request, body) -> {
			this.executions.incrementAndGet();
			return answer;
		};
	}

	private Breaker breaker() {
		return this.registry.find("http:api.acme.com").orElseThrow();
	}

}
