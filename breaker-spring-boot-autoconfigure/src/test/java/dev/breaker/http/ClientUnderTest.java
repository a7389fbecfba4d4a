package dev.breaker.http;

import java.net.URI;
import java.time.Duration;

import reactor.core.publisher.Mono;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationContext;
import org.springframework.http.HttpEntity;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import org.springframework.web.client.HttpClientErrorException;
import org.springframework.web.client.HttpServerErrorException;
import org.springframework.web.client.ResourceAccessException;
import org.springframework.web.client.RestClient;
import org.springframework.web.reactive.function.client.WebClient;
import org.springframework.web.reactive.function.client.WebClientRequestException;
import org.springframework.web.reactive.function.client.WebClientResponseException;

/**
 * Each of Spring's HTTP clients as the checks every client must pass use it
 * ({@link HttpClientBreakerTests}, {@link HttpClientRetryTests}): a context with Spring
 * Boot's builder for it ({@link HttpClients}), a request sent by a client from that
 * builder, and the exceptions that client throws.
 */
enum ClientUnderTest {

	/** {@code RestClient} on the JDK's {@code HttpClient}. */
	REST_CLIENT(HttpClients.restClientRunner("jdk")) {

		@Override
		String send(ApplicationContext context, HttpMethod method, URI uri, String json, String idempotencyKey) {
			RestClient.RequestBodySpec request = HttpClients.restClient(context).method(method).uri(uri);
			request.headers((headers) -> headers.addAll(headers(json, idempotencyKey)));
			return ((json != null) ? request.body(json) : request).retrieve().body(String.class);
		}

	},

	/** {@code RestTemplate} on {@code HttpURLConnection}. */
	REST_TEMPLATE(HttpClients.restTemplateRunner("simple")) {

		@Override
		String send(ApplicationContext context, HttpMethod method, URI uri, String json, String idempotencyKey) {
			return HttpClients.restTemplate(context)
				.exchange(uri, method, new HttpEntity<>(json, headers(json, idempotencyKey)), String.class)
				.getBody();
		}

	},

	/** {@code WebClient} on the JDK's {@code HttpClient}, blocking for the answer. */
	WEB_CLIENT(HttpClients.webClientRunner()) {

		@Override
		String send(ApplicationContext context, HttpMethod method, URI uri, String json, String idempotencyKey) {
			WebClient.RequestBodySpec request = HttpClients.webClient(context).method(method).uri(uri);
			request.headers((headers) -> headers.addAll(headers(json, idempotencyKey)));
			Mono<String> body = ((json != null) ? request.bodyValue(json) : request).retrieve()
				.bodyToMono(String.class);
			return body.block(Duration.ofSeconds(10));
		}

		@Override
		Class<? extends Exception> statusError(int status) {
			return switch (status) {
				case 404 -> WebClientResponseException.NotFound.class;
				case 429 -> WebClientResponseException.TooManyRequests.class;
				case 500 -> WebClientResponseException.InternalServerError.class;
				case 502 -> WebClientResponseException.BadGateway.class;
				case 503 -> WebClientResponseException.ServiceUnavailable.class;
				default -> throw new IllegalArgumentException("No expectation for status " + status);
			};
		}

		@Override
		Class<? extends Exception> ioError() {
			return WebClientRequestException.class;
		}

	};

	private final ApplicationContextRunner runner;

	ClientUnderTest(ApplicationContextRunner runner) {
		this.runner = runner;
	}

	/** A context with Spring Boot's builder for this client. */
	ApplicationContextRunner runner() {
		return this.runner;
	}

	/**
	 * Sends a request with a client from the context's builder.
	 * @param json the request body, sent as JSON, or {@code null} for none
	 * @param idempotencyKey the {@code Idempotency-Key} header, or {@code null} for none
	 * @return the body of the answer (for a status the client does not throw on)
	 */
	abstract String send(ApplicationContext context, HttpMethod method, URI uri, String json, String idempotencyKey);

	/** Sends a GET and returns the body of the answer. */
	String get(ApplicationContext context, URI uri) {
		return send(context, HttpMethod.GET, uri, null, null);
	}

	/**
	 * What this client throws for an answer with {@code status} ({@code RestClient} and
	 * {@code RestTemplate} throw the same exceptions).
	 */
	Class<? extends Exception> statusError(int status) {
		return switch (status) {
			case 404 -> HttpClientErrorException.NotFound.class;
			case 429 -> HttpClientErrorException.TooManyRequests.class;
			case 500 -> HttpServerErrorException.InternalServerError.class;
			case 502 -> HttpServerErrorException.BadGateway.class;
			case 503 -> HttpServerErrorException.ServiceUnavailable.class;
			default -> throw new IllegalArgumentException("No expectation for status " + status);
		};
	}

	/**
	 * What this client throws when the exchange fails below HTTP: a refused connection, a
	 * read timeout.
	 */
	Class<? extends Exception> ioError() {
		return ResourceAccessException.class;
	}

	/** The request's headers: JSON if it has a body, and the idempotency key if any. */
	private static HttpHeaders headers(String json, String idempotencyKey) {
		HttpHeaders headers = new HttpHeaders();
		if (json != null) {
			headers.setContentType(MediaType.APPLICATION_JSON);
		}
		if (idempotencyKey != null) {
			headers.add(HttpRetryPolicy.IDEMPOTENCY_KEY, idempotencyKey);
		}
		return headers;
	}

}
