package dev.breaker.http;

import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.Map;

import dev.breaker.http.LoopbackServer.Received;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.MapPropertySource;
import org.springframework.http.HttpMethod;
import org.springframework.web.client.HttpServerErrorException;
import org.springframework.web.client.RestClient;

import static dev.breaker.http.HttpClients.restClient;
import static dev.breaker.http.HttpClients.restClientRunner;
import static dev.breaker.http.HttpClients.retrying;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * HTTP retries of a {@code RestClient} from Spring Boot's builder, against a real server
 * on loopback that fails a number of times, then answers 200: which requests retry, how
 * long they pause, and what stops them (the budget of a host, a server asking for too
 * long a wait). What every client gets is in {@link HttpClientRetryTests}.
 */
class RestClientRetryTests {

	private final ApplicationContextRunner runner = retrying(restClientRunner("jdk"), "100ms,200ms,400ms");

	@AutoClose
	private final LoopbackServer server = LoopbackServer.start();

	@Test
	void withoutIntervalsNothingRetries() {
		this.runner.withPropertyValues("breaker.http.retry.intervals=").run((context) -> {
			this.server.failNext(1, 503, null);
			assertThat(send(restClient(context), HttpMethod.GET, false)).isInstanceOf(HttpServerErrorException.class);
			assertThat(this.server.requests()).isEqualTo(1);
		});
	}

	@Test
	void idempotentMethodsRetry() {
		this.runner.run((context) -> {
			for (HttpMethod method : new HttpMethod[] { HttpMethod.GET, HttpMethod.HEAD, HttpMethod.OPTIONS,
					HttpMethod.PUT, HttpMethod.DELETE }) {
				this.server.failNext(1, 503, null);
				assertThat(send(restClient(context), method, false)).as("%s", method).isNull();
			}
			assertThat(this.server.received()).extracting(Received::method)
				.containsExactly("GET", "GET", "HEAD", "HEAD", "OPTIONS", "OPTIONS", "PUT", "PUT", "DELETE", "DELETE");
		});
	}

	@Test
	void postAndPatchWithoutAnIdempotencyKeyDoNotRetry() {
		this.runner.run((context) -> {
			this.server.failNext(1, 503, null);
			assertThat(send(restClient(context), HttpMethod.POST, false)).isInstanceOf(HttpServerErrorException.class);
			this.server.failNext(1, 503, null);
			assertThat(send(restClient(context), HttpMethod.PATCH, false)).isInstanceOf(HttpServerErrorException.class);
			assertThat(this.server.requests()).isEqualTo(2);
			assertThat(pauses(context)).isEmpty();
		});
	}

	@Test
	void postAndPatchWithAnIdempotencyKeyRetryWithTheSameBody() {
		this.runner.run((context) -> {
			this.server.failNext(2, 503, null);
			assertThat(send(restClient(context), HttpMethod.POST, true)).isNull();
			this.server.failNext(1, 500, null);
			assertThat(send(restClient(context), HttpMethod.PATCH, true)).isNull();
			assertThat(this.server.received()).hasSize(5)
				.allSatisfy((received) -> assertThat(received.body()).isEqualTo("{\"order\":42}"))
				.allSatisfy((received) -> assertThat(received.idempotencyKey()).isEqualTo("order-42"));
		});
	}

	@Test
	void aHostConfiguredNonIdempotentRetriesEveryMethod() {
		this.runner.withInitializer(host("retry.non-idempotent", "true")).run((context) -> {
			this.server.failNext(1, 503, null);
			assertThat(send(restClient(context), HttpMethod.POST, false)).isNull();
			assertThat(this.server.requests()).isEqualTo(2);
		});
	}

	@Test
	void aHostsOwnSettingsWinOverTheSettingsOfEveryHost() {
		this.runner.withInitializer(host("retry.intervals", "1s", "retry.on", "500")).run((context) -> {
			this.server.failNext(5, 503, null);
			assertThat(send(restClient(context), HttpMethod.GET, false)).isInstanceOf(HttpServerErrorException.class);
			// 503 is not in this host's retry.on
			assertThat(this.server.requests()).isEqualTo(1);
			this.server.failNext(5, 500, null);
			assertThat(send(restClient(context), HttpMethod.GET, false)).isInstanceOf(HttpServerErrorException.class);
			assertThat(this.server.requests()).isEqualTo(3); // one retry, after 1s
			assertThat(pauses(context)).containsExactly(Duration.ofSeconds(1));
		});
	}

	@Test
	void onlyTheConfiguredOutcomesAndStatusesRetry() {
		this.runner.withPropertyValues("breaker.http.retry.on=timeout,502").run((context) -> {
			this.server.failNext(1, 503, null);
			assertThat(send(restClient(context), HttpMethod.GET, false)).isInstanceOf(HttpServerErrorException.class);
			this.server.failNext(1, 502, null);
			assertThat(send(restClient(context), HttpMethod.GET, false)).isNull();
			assertThat(this.server.requests()).isEqualTo(3);
		});
	}

	@Test
	void aClientErrorNeverRetriesByDefault() {
		this.runner.run((context) -> {
			this.server.failNext(1, 404, null);
			assertThat(send(restClient(context), HttpMethod.GET, false)).isNotNull();
			assertThat(this.server.requests()).isEqualTo(1);
		});
	}

	@Test
	void aRetryAfterDateIsThePause() {
		this.runner.withPropertyValues("breaker.http.retry.on=throttled").run((context) -> {
			String date = DateTimeFormatter.RFC_1123_DATE_TIME
				.format(ZonedDateTime.now(ZoneOffset.UTC).plusSeconds(90));
			this.server.failNext(1, 503, date);
			assertThat(send(restClient(context), HttpMethod.GET, false)).isNull();
			assertThat(pauses(context)).singleElement()
				.satisfies((pause) -> assertThat(pause).isBetween(Duration.ofSeconds(85), Duration.ofSeconds(91)));
		});
	}

	@Test
	void aShorterRetryAfterLeavesTheInterval() {
		this.runner.withPropertyValues("breaker.http.retry.intervals=3s", "breaker.http.retry.on=503")
			.run((context) -> {
				this.server.failNext(1, 503, "1");
				assertThat(send(restClient(context), HttpMethod.GET, false)).isNull();
				assertThat(pauses(context)).containsExactly(Duration.ofSeconds(3));
			});
	}

	@Test
	void aRetryAfterLongerThanTheMaxOpenWaitIsNoRetry() {
		this.runner.withPropertyValues("breaker.http.retry.on=throttled", "breaker.defaults.max-open-wait=5m")
			.run((context) -> {
				this.server.failNext(1, 429, "301");
				assertThat(send(restClient(context), HttpMethod.GET, false))
					.isInstanceOf(org.springframework.web.client.HttpClientErrorException.TooManyRequests.class);
				this.server.failNext(1, 429, "9223372036854775807");
				send(restClient(context), HttpMethod.GET, false);
				this.server.failNext(1, 503, "Fri, 31 Dec 9999 23:59:59 GMT");
				send(restClient(context), HttpMethod.GET, false);
				assertThat(this.server.requests()).isEqualTo(3);
				assertThat(pauses(context)).isEmpty();
				assertThat(this.server.breaker(context).totals().retries()).isZero();
			});
	}

	@Test
	void aRetryAfterOfExactlyTheMaxOpenWaitIsThePause() {
		this.runner.withPropertyValues("breaker.http.retry.on=throttled", "breaker.defaults.max-open-wait=5m")
			.run((context) -> {
				this.server.failNext(1, 429, "300");
				assertThat(send(restClient(context), HttpMethod.GET, false)).isNull();
				assertThat(pauses(context)).containsExactly(Duration.ofMinutes(5));
			});
	}

	@Test
	void aHostsOwnBudgetIsItsBreakers() {
		this.runner.withInitializer(host("retry.budget.ratio", "0", "retry.budget.min-per-second", "0"))
			.run((context) -> {
				this.server.failNext(1, 503, null);
				assertThat(send(restClient(context), HttpMethod.GET, false))
					.isInstanceOf(HttpServerErrorException.class);
				assertThat(this.server.requests()).isEqualTo(1);
				assertThat(this.server.breaker(context).snapshot().retryBudget().allowed()).isZero();
			});
	}

	/**
	 * Settings of this server's host ({@code host:port} keys do not survive
	 * withPropertyValues).
	 */
	private ApplicationContextInitializer<ConfigurableApplicationContext> host(String... keysAndValues) {
		String prefix = "breaker.http.instances[" + this.server.breakerName().substring("http:".length()) + "].";
		Map<String, Object> properties = new LinkedHashMap<>();
		for (int i = 0; i < keysAndValues.length; i += 2) {
			properties.put(prefix + keysAndValues[i], keysAndValues[i + 1]);
		}
		return (context) -> context.getEnvironment()
			.getPropertySources()
			.addFirst(new MapPropertySource("host", properties));
	}

	private static java.util.List<Duration> pauses(AssertableApplicationContext context) {
		return context.getBean(RecordingDelays.class).pauses;
	}

	/**
	 * Sends a request to /failing (POST, PUT and PATCH with a JSON body) and returns what
	 * it threw, or null.
	 */
	private Throwable send(RestClient client, HttpMethod method, boolean idempotencyKey) {
		return catchThrowable(() -> {
			RestClient.RequestBodySpec spec = client.method(method).uri(this.server.uri("/failing"));
			if (idempotencyKey) {
				spec.header(HttpRetryPolicy.IDEMPOTENCY_KEY, "order-42");
			}
			if (method == HttpMethod.POST || method == HttpMethod.PUT || method == HttpMethod.PATCH) {
				spec.contentType(org.springframework.http.MediaType.APPLICATION_JSON).body("{\"order\":42}");
			}
			spec.retrieve().toBodilessEntity();
		});
	}

}
