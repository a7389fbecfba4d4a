package dev.breaker.http;

import java.net.URI;
import java.time.Instant;

import dev.breaker.core.BreakerNames;

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
		super(method + " " + target(uri) + " not sent: " + reason);
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

	/** The longest target a message shows, escapes included. */
	static final int MAX_TARGET = 300;

	/**
	 * Where a request was going, as a message shows it: scheme, host (with a port off the
	 * scheme's default, as the host's breaker is named) and path; escaped and at most
	 * {@value #MAX_TARGET} characters. User info and the query string may carry secrets,
	 * and the path is whatever a client sent through, so neither goes in raw.
	 */
	static String target(URI uri) {
		String host = HostBreakers.hostKey(uri);
		String path = (uri.getRawPath() != null) ? uri.getRawPath() : "";
		// only what can be shown is copied, however long the path a client sent
		path = path.substring(0, Math.min(path.length(), MAX_TARGET));
		return BreakerNames.printable(uri.getScheme() + "://" + ((host != null) ? host : "") + path, MAX_TARGET);
	}

}
