package dev.breaker.http;

import java.net.URI;
import java.time.Instant;

import org.springframework.http.HttpMethod;
import org.springframework.web.client.RestClientException;

/**
 * A request that was not sent because the breaker of its host is open.
 */
public class BreakerRejectedException extends RestClientException {

	private static final long serialVersionUID = 1L;

	private final String breaker;

	private final Instant openUntil;

	/**
	 * @param breaker the name of the breaker that refused the request
	 * @param openUntil when its open wait ends, or {@code null}
	 * @param method the request's method
	 * @param uri the request's URI; only scheme, host, port and path go into the message
	 * @param reason why the breaker refused, e.g.
	 * {@code breaker 'http:api.acme.com' is OPEN until ...}
	 */
	public BreakerRejectedException(String breaker, Instant openUntil, HttpMethod method, URI uri, String reason) {
		super(method + " " + withoutSecrets(uri) + " not sent: " + reason);
		this.breaker = breaker;
		this.openUntil = openUntil;
	}

	/**
	 * The name of the breaker that rejected the request, e.g. {@code http:api.acme.com}.
	 */
	public String breaker() {
		return this.breaker;
	}

	/**
	 * When the breaker's open wait ends; {@code null} when an operator forced it open or
	 * probes are busy.
	 */
	public Instant openUntil() {
		return this.openUntil;
	}

	// User info and query string may carry secrets; the message only names where the
	// request was going.
	private static String withoutSecrets(URI uri) {
		String port = (uri.getPort() != -1) ? ":" + uri.getPort() : "";
		String path = (uri.getRawPath() != null) ? uri.getRawPath() : "";
		return uri.getScheme() + "://" + uri.getHost() + port + path;
	}

}
