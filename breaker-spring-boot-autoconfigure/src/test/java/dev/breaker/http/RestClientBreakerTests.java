package dev.breaker.http;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Proxy;
import java.net.URI;
import java.net.SocketTimeoutException;
import java.net.URLEncoder;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import dev.breaker.core.Breaker;
import dev.breaker.core.BreakerRegistry;
import dev.breaker.core.ManualTicker;
import dev.breaker.core.Outcome;
import dev.breaker.core.State;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.env.MapPropertySource;
import org.springframework.http.client.ClientHttpResponse;
import org.springframework.http.client.SimpleClientHttpRequestFactory;
import org.springframework.web.client.HttpClientErrorException;
import org.springframework.web.client.HttpServerErrorException;
import org.springframework.web.client.ResourceAccessException;
import org.springframework.web.client.RestClient;

import static dev.breaker.http.HttpClients.restClient;
import static dev.breaker.http.HttpClients.restClientRunner;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * A {@code RestClient} from Spring Boot's builder against real HTTP servers on loopback:
 * each answer is recorded as the right outcome, and the breaker of a host opens, rejects
 * and closes on what that host does. What every client gets is in
 * {@link HttpClientBreakerTests}.
 */
class RestClientBreakerTests {

	private static final int TRIP_AFTER = 4;

	private static final String HANG = "spring.http.clients.read-timeout=300ms";

	private final ApplicationContextRunner runner = restClientRunner("simple")
		// A prompt answer must never time out on a busy machine: a generous read timeout
		// here, a short one (HANG) only where the server hangs on purpose. The timeout is
		// per read for HttpURLConnection, for the whole exchange with the JDK client.
		.withPropertyValues("spring.http.clients.read-timeout=5s",
				"breaker.defaults.consecutive-failures=" + TRIP_AFTER, "breaker.defaults.minimum-calls=" + TRIP_AFTER,
				"breaker.defaults.failure-rate-threshold=50", "breaker.defaults.open-wait=30s",
				"breaker.defaults.open-wait-jitter=0", "breaker.defaults.half-open.successes-to-close=2");

	@AutoClose
	private final LoopbackServer server = LoopbackServer.start();

	@AutoClose
	private final LoopbackServer other = LoopbackServer.start();

	@Test
	void okIsASuccess() {
		this.runner.run((context) -> {
			RestClient client = restClient(context);
			assertThat(client.get().uri(this.server.uri("/status/200")).retrieve().body(String.class))
				.isEqualTo("status 200");
			assertThat(recorded(context, this.server, Outcome.SUCCESS)).isEqualTo(1);
		});
	}

	@Test
	void notFoundIsIgnored() {
		this.runner.run((context) -> {
			Throwable thrown = send(restClient(context), this.server.uri("/status/404"));
			assertThat(thrown).isInstanceOf(HttpClientErrorException.NotFound.class);
			assertThat(recorded(context, this.server, Outcome.IGNORED)).isEqualTo(1);
			assertThat(breaker(context, this.server).snapshot().calls()).isZero();
		});
	}

	@Test
	void tooManyRequestsIsThrottled() {
		this.runner.run((context) -> {
			Throwable thrown = send(restClient(context), this.server.uri("/status/429?retry-after=120"));
			assertThat(thrown).isInstanceOf(HttpClientErrorException.TooManyRequests.class);
			assertThat(recorded(context, this.server, Outcome.THROTTLED)).isEqualTo(1);
			assertThat(recorded(context, this.server, Outcome.FAILURE)).isZero();
		});
	}

	@Test
	void retryAfterIsCappedAtTheMaxOpenWait() {
		this.runner.withPropertyValues("breaker.defaults.max-open-wait=5m").run((context) -> {
			RestClient client = restClient(context);
			send(client, this.server.uri("/status/429?retry-after=86400"));
			tripWithServerErrors(client, this.server);
			assertThat(breaker(context, this.server).snapshot().openUntil())
				.isAfter(Instant.now().plus(Duration.ofSeconds(290)))
				.isBefore(Instant.now().plus(Duration.ofSeconds(301)));
		});
	}

	@Test
	void retryAfterDateIsTheLeastTheBreakerStaysOpen() {
		this.runner.run((context) -> {
			RestClient client = restClient(context);
			String date = DateTimeFormatter.RFC_1123_DATE_TIME
				.format(ZonedDateTime.now(ZoneOffset.UTC).plusSeconds(200));
			send(client, this.server.uri("/status/503?retry-after=" + URLEncoder.encode(date, StandardCharsets.UTF_8)));
			assertThat(recorded(context, this.server, Outcome.THROTTLED)).isEqualTo(1);
			tripWithServerErrors(client, this.server);
			assertThat(breaker(context, this.server).snapshot().openUntil())
				.isAfter(Instant.now().plus(Duration.ofSeconds(180)));
		});
	}

	@Test
	void withoutRetryAfterTheBreakerKeepsItsOwnOpenWait() {
		this.runner.run((context) -> {
			tripWithServerErrors(restClient(context), this.server);
			assertThat(breaker(context, this.server).snapshot().openUntil())
				.isBefore(Instant.now().plus(Duration.ofSeconds(31)));
		});
	}

	@Test
	void serverErrorIsAFailure() {
		this.runner.run((context) -> {
			Throwable thrown = send(restClient(context), this.server.uri("/status/500"));
			assertThat(thrown).isInstanceOf(HttpServerErrorException.InternalServerError.class);
			assertThat(recorded(context, this.server, Outcome.FAILURE)).isEqualTo(1);
		});
	}

	@Test
	void unavailableWithoutRetryAfterIsAFailure() {
		this.runner.run((context) -> {
			send(restClient(context), this.server.uri("/status/503"));
			assertThat(recorded(context, this.server, Outcome.FAILURE)).isEqualTo(1);
		});
	}

	@Test
	void unavailableWithRetryAfterIsThrottled() {
		this.runner.run((context) -> {
			send(restClient(context), this.server.uri("/status/503?retry-after=30"));
			assertThat(recorded(context, this.server, Outcome.THROTTLED)).isEqualTo(1);
			assertThat(recorded(context, this.server, Outcome.FAILURE)).isZero();
		});
	}

	@Test
	void hangPastTheReadTimeoutIsATimeout() {
		this.runner.withPropertyValues(HANG).run((context) -> {
			Throwable thrown = send(restClient(context), this.server.uri("/hang"));
			assertThat(thrown).isInstanceOf(ResourceAccessException.class)
				.hasCauseInstanceOf(SocketTimeoutException.class);
			assertThat(recorded(context, this.server, Outcome.TIMEOUT)).isEqualTo(1);
			assertThat(breaker(context, this.server).snapshot().inFlight()).isZero();
		});
	}

	@Test
	void hangPastTheJdkClientsReadTimeoutIsATimeout() {
		this.runner.withPropertyValues(HANG, "spring.http.clients.imperative.factory=jdk").run((context) -> {
			Throwable thrown = send(restClient(context), this.server.uri("/hang"));
			assertThat(thrown).isInstanceOf(ResourceAccessException.class)
				.hasCauseInstanceOf(HttpTimeoutException.class);
			assertThat(recorded(context, this.server, Outcome.TIMEOUT)).isEqualTo(1);
		});
	}

	@Test
	void refusedConnectionIsAFailure() {
		this.runner.run((context) -> {
			URI refusing = LoopbackServer.refusingUri();
			Throwable thrown = send(restClient(context), refusing);
			assertThat(thrown).isInstanceOf(ResourceAccessException.class);
			Breaker breaker = context.getBean(BreakerRegistry.class)
				.find("http:127.0.0.1:" + refusing.getPort())
				.orElseThrow();
			assertThat(breaker.totals().calls(Outcome.FAILURE)).isEqualTo(1);
		});
	}

	@Test
	void throttlingStormsNeverTrip() {
		this.runner.run((context) -> {
			RestClient client = restClient(context);
			for (int i = 0; i < 30; i++) {
				send(client, this.server.uri((i % 2 == 0) ? "/status/429" : "/status/503?retry-after=1"));
			}
			Breaker breaker = breaker(context, this.server);
			assertThat(breaker.state()).isEqualTo(State.CLOSED);
			assertThat(breaker.totals().calls(Outcome.THROTTLED)).isEqualTo(30);
			assertThat(this.server.requests()).isEqualTo(30);
		});
	}

	@Test
	void fiveHundredStormsTrip() {
		this.runner.run((context) -> {
			tripWithServerErrors(restClient(context), this.server);
			assertThat(breaker(context, this.server).state()).isEqualTo(State.OPEN);
			assertThat(breaker(context, this.server).totals().trips()).isEqualTo(1);
		});
	}

	@Test
	void hangsTrip() {
		this.runner.withPropertyValues(HANG).run((context) -> {
			RestClient client = restClient(context);
			for (int i = 0; i < TRIP_AFTER; i++) {
				assertThat(send(client, this.server.uri("/hang"))).isInstanceOf(ResourceAccessException.class);
			}
			assertThat(breaker(context, this.server).state()).isEqualTo(State.OPEN);
			assertThat(recorded(context, this.server, Outcome.TIMEOUT)).isEqualTo(TRIP_AFTER);
		});
	}

	@Test
	void refusedConnectionsTrip() {
		this.runner.run((context) -> {
			RestClient client = restClient(context);
			URI refusing = LoopbackServer.refusingUri();
			for (int i = 0; i < TRIP_AFTER; i++) {
				send(client, refusing);
			}
			Throwable thrown = send(client, refusing);
			assertThat(thrown).isInstanceOf(BreakerRejectedException.class);
		});
	}

	@Test
	void aHostThatJavaNetUriReadsAsNoServerIsGuardedAsAnyOther() {
		// Docker Compose service names hold '_': java.net.URI has no host for them,
		// though
		// HttpURLConnection sends to them. The loopback server stands for the service, as
		// the proxy every request to it goes through.
		URI service = URI.create("http://payments_api:8080/status/503");
		this.runner.run((context) -> {
			SimpleClientHttpRequestFactory viaLoopback = new SimpleClientHttpRequestFactory();
			viaLoopback.setProxy(new Proxy(Proxy.Type.HTTP,
					new InetSocketAddress(InetAddress.getLoopbackAddress(), this.server.uri("/").getPort())));
			RestClient client = context.getBean(RestClient.Builder.class).requestFactory(viaLoopback).build();
			for (int i = 0; i < TRIP_AFTER; i++) {
				assertThat(send(client, service)).isInstanceOf(HttpServerErrorException.class);
			}
			assertThat(send(client, service)).as("a request once the service failed %d times", TRIP_AFTER)
				.isInstanceOf(BreakerRejectedException.class);
			assertThat(this.server.requests()).isEqualTo(TRIP_AFTER);
			assertThat(context.getBean(BreakerRegistry.class).find("http:payments_api:8080")).isPresent();
		});
	}

	@Test
	void breakerClosesAfterTheServerRecovers() {
		this.runner.run((context) -> {
			RestClient client = restClient(context);
			this.server.flakyStatus(500);
			for (int i = 0; i < TRIP_AFTER; i++) {
				send(client, this.server.uri("/flaky"));
			}
			Breaker breaker = breaker(context, this.server);
			assertThat(breaker.state()).isEqualTo(State.OPEN);

			this.server.flakyStatus(200);
			context.getBean(ManualTicker.class).advance(Duration.ofSeconds(31));
			assertThat(breaker.state()).isEqualTo(State.HALF_OPEN);
			int probes = 0;
			while (breaker.state() == State.HALF_OPEN && probes < 20) {
				assertThat(send(client, this.server.uri("/flaky"))).isNull();
				probes++;
			}
			assertThat(breaker.state()).isEqualTo(State.CLOSED);
			assertThat(probes).isEqualTo(2);
		});
	}

	@Test
	void aHostCanJudgeStatusesOtherwise() {
		this.runner.withInitializer((context) -> context.getEnvironment()
			.getPropertySources()
			.addFirst(new MapPropertySource("host",
					Map.of("breaker.http.instances[" + hostKey(this.server) + "].status-outcomes.404", "success",
							"breaker.http.instances[" + hostKey(this.server) + "].status-outcomes.409", "failure"))))
			.run((context) -> {
				RestClient client = restClient(context);
				send(client, this.server.uri("/status/404"));
				send(client, this.server.uri("/status/409"));
				send(client, this.other.uri("/status/404"));
				send(client, this.other.uri("/status/409"));
				assertThat(recorded(context, this.server, Outcome.SUCCESS)).isEqualTo(1);
				assertThat(recorded(context, this.server, Outcome.FAILURE)).isEqualTo(1);
				assertThat(recorded(context, this.other, Outcome.IGNORED)).isEqualTo(2);
			});
	}

	@Test
	void aHostCanBeTunedLikeAnyBreaker() {
		this.runner
			.withInitializer((context) -> context.getEnvironment()
				.getPropertySources()
				.addFirst(new MapPropertySource("host",
						Map.of("breaker.http.instances[" + hostKey(this.server) + "].consecutive-failures", "2"))))
			.run((context) -> {
				RestClient client = restClient(context);
				for (int i = 0; i < 2; i++) {
					send(client, this.server.uri("/status/500"));
					send(client, this.other.uri("/status/500"));
				}
				assertThat(breaker(context, this.server).state()).isEqualTo(State.OPEN);
				assertThat(breaker(context, this.other).state()).isEqualTo(State.CLOSED);
			});
	}

	@Test
	void callTimeIncludesReadingTheBody() {
		this.runner.withPropertyValues("breaker.defaults.slow-call-duration=2s").run((context) -> {
			ManualTicker ticker = context.getBean(ManualTicker.class);
			// Inside the breaker's interceptor: the body takes 3s (on the breaker's
			// clock) to arrive.
			RestClient client = context.getBean(RestClient.Builder.class)
				.requestInterceptor((request, body, execution) -> new SlowBody(execution.execute(request, body),
						() -> ticker.advance(Duration.ofSeconds(3))))
				.build();
			String body = client.get().uri(this.server.uri("/status/200")).retrieve().body(String.class);
			assertThat(body).isEqualTo("status 200");
			assertThat(breaker(context, this.server).totals().slowCalls()).isEqualTo(1);
		});
	}

	@Test
	void requestsHangingInFlightTripTheBreakerBeforeTheyFinish() {
		this.runner
			.withPropertyValues("spring.http.clients.read-timeout=20s", "breaker.defaults.stall-calls=1",
					"breaker.defaults.slow-call-duration=1s")
			.run((context) -> {
				RestClient client = restClient(context);
				CompletableFuture<Throwable> hanging = CompletableFuture
					.supplyAsync(() -> send(client, this.server.uri("/hang")));
				Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> this.server.requests() == 1);
				Breaker breaker = breaker(context, this.server);
				assertThat(breaker.snapshot().inFlight()).isEqualTo(1);

				context.getBean(ManualTicker.class).advance(Duration.ofSeconds(2));
				send(client, this.server.uri("/status/200"));

				assertThat(breaker.state()).isEqualTo(State.OPEN);
				assertThat(breaker.snapshot().transitions()).last()
					.satisfies((transition) -> assertThat(transition.reason()).startsWith("stall"));
				assertThat(hanging).isNotDone();
			});
	}

	private static String hostKey(LoopbackServer server) {
		return server.breakerName().substring("http:".length());
	}

	/** Sends a GET and returns what it threw, or {@code null}. */
	private static Throwable send(RestClient client, URI uri) {
		return catchThrowable(() -> client.get().uri(uri).retrieve().toBodilessEntity());
	}

	private static void tripWithServerErrors(RestClient client, LoopbackServer server) {
		for (int i = 0; i < TRIP_AFTER; i++) {
			assertThat(send(client, server.uri("/status/500"))).isInstanceOf(HttpServerErrorException.class);
		}
	}

	private static Breaker breaker(AssertableApplicationContext context, LoopbackServer server) {
		return context.getBean(BreakerRegistry.class).find(server.breakerName()).orElseThrow();
	}

	private static long recorded(AssertableApplicationContext context, LoopbackServer server, Outcome outcome) {
		return breaker(context, server).totals().calls(outcome);
	}

	/**
	 * A response whose body is slow to arrive: {@code beforeBody} runs when the body is
	 * asked for.
	 */
	private static final class SlowBody extends ResponseDecorator {

		private final Runnable beforeBody;

		SlowBody(ClientHttpResponse response, Runnable beforeBody) {
			super(response);
			this.beforeBody = beforeBody;
		}

		@Override
		public InputStream getBody() throws IOException {
			this.beforeBody.run();
			return super.getBody();
		}

	}

}
