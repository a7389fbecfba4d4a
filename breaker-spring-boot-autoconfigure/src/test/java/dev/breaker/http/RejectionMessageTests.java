package dev.breaker.http;

import java.net.URI;

import org.junit.jupiter.api.Test;

import org.springframework.http.HttpMethod;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a refused request's message says of where it was going: the scheme, the host and
 * the path, escaped and bounded, for any path a client could have sent through.
 */
class RejectionMessageTests {

	private static final String REASON = "breaker 'http:api.acme.com' is FORCED_OPEN";

	@Test
	void aHugePathIsCut() {
		// a proxy forwarding a client's path: the path is what the client sent
		URI uri = URI.create("https://api.acme.com/files/" + "x".repeat(100_000));

		String message = new BreakerRejectedException("http:api.acme.com", null, HttpMethod.GET, uri, REASON)
			.getMessage();

		assertThat(message).startsWith("GET https://api.acme.com/files/xxx")
			.endsWith("x… not sent: " + REASON)
			.hasSizeLessThan(400);
	}

	@Test
	void aPathsFormatAndControlCharactersAreEscaped() {
		// java.net.URI keeps non-ASCII characters raw, U+202E (a bidi override) too
		URI uri = URI.create("https://api.acme.com/invoice/\u202Efdp.exe");

		assertThat(new BreakerRejectedException("http:api.acme.com", null, HttpMethod.GET, uri, REASON).getMessage())
			.isEqualTo("GET https://api.acme.com/invoice/\\u202efdp.exe not sent: " + REASON);
	}

	@Test
	void aHostThatJavaNetUriReadsAsNoServerIsNamedAsItsBreakerNamesIt() {
		URI uri = URI.create("http://ops:secret@payments_api:8080/charge?card=4242");

		assertThat(
				new BreakerRejectedException("http:payments_api:8080", null, HttpMethod.POST, uri, REASON).getMessage())
			.isEqualTo("POST http://payments_api:8080/charge not sent: " + REASON);
	}

}
