package dev.breaker.http;

import java.net.URI;
import java.time.Instant;

import org.springframework.http.HttpMethod;
import org.springframework.web.client.RestClientException;

/**
 * A request that was not sent because the breaker of its host is open.
 */
public class BreakerRejectedException extends RestClientException {

	private final String breaker;

	private final Instant openUntil;

	public BreakerRejectedException(String breaker, Instant openUntil, HttpMethod method, URI uri, String reason) {
		super(method + " " + withoutQuery(uri) + " not sent: " + reason);
		this.breaker = breaker;
		this.openUntil = openUntil;
	}

	/** The name of the breaker that rejected the request, e.g. {@code http:api.acme.com}. */
	public String breaker() {
		return this.breaker;
	}

	/** When the breaker's open wait ends; {@code null} when an operator forced it open or probes are busy. */
	public Instant openUntil() {
		return this.openUntil;
	}

	// The query string may carry tokens; the message only names where the request was going.
	private static String withoutQuery(URI uri) {
		String path = (uri.getRawPath() != null) ? uri.getRawPath() : "";
		return uri.getScheme() + "://" + uri.getRawAuthority() + path;
	}

}
