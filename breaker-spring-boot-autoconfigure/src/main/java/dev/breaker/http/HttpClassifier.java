package dev.breaker.http;

import java.io.IOException;
import java.net.SocketTimeoutException;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpTimeoutException;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeoutException;

import dev.breaker.core.CauseChain;
import dev.breaker.core.Outcome;

/**
 * Judges an HTTP exchange: 5xx and connection errors are failures, a read timeout is a
 * timeout, 4xx is the caller's fault, 429 and 503 with {@code Retry-After} are
 * throttling.
 *
 * <p>
 * Statuses can be judged otherwise per host, e.g. 404 as {@link Outcome#SUCCESS} for an
 * API where "not found" is an ordinary answer, or 409 as {@link Outcome#FAILURE}.
 */
public final class HttpClassifier {

	private static final HttpClassifier DEFAULTS = new HttpClassifier(Map.of());

	private final Map<Integer, Outcome> statusOutcomes;

	private HttpClassifier(Map<Integer, Outcome> statusOutcomes) {
		this.statusOutcomes = statusOutcomes;
	}

	/** The rules above, with no status judged otherwise. */
	public static HttpClassifier defaults() {
		return DEFAULTS;
	}

	/**
	 * These rules with the given statuses judged as given; the later map wins for a
	 * status in both.
	 * @throws IllegalArgumentException for a status outside 100..599
	 */
	public HttpClassifier withStatusOutcomes(Map<Integer, Outcome> outcomes) {
		if (outcomes.isEmpty()) {
			return this;
		}
		Map<Integer, Outcome> merged = new HashMap<>(this.statusOutcomes);
		outcomes.forEach((status, outcome) -> {
			if (status == null || status < 100 || status > 599) {
				throw new IllegalArgumentException("HTTP status must be in 100..599 but was " + status);
			}
			if (outcome == null) {
				throw new IllegalArgumentException("Outcome for HTTP status " + status + " must not be null");
			}
			merged.put(status, outcome);
		});
		return new HttpClassifier(Collections.unmodifiableMap(merged));
	}

	/** The statuses judged otherwise than by the default rules. */
	public Map<Integer, Outcome> statusOutcomes() {
		return this.statusOutcomes;
	}

	/**
	 * The outcome of a response with this status.
	 * @param retryAfter whether the response carried a {@code Retry-After} header that
	 * asks for a wait (delta-seconds above zero or an HTTP-date still to come)
	 */
	public Outcome classify(int status, boolean retryAfter) {
		Outcome override = this.statusOutcomes.get(status);
		if (override != null) {
			return override;
		}
		if (status == 429 || (status == 503 && retryAfter)) {
			return Outcome.THROTTLED;
		}
		if (status >= 500) {
			return Outcome.FAILURE;
		}
		if (status >= 400) {
			return Outcome.IGNORED;
		}
		return Outcome.SUCCESS;
	}

	/**
	 * The outcome of an exchange that ended with this exception instead of a response.
	 *
	 * <p>
	 * The exception and its causes are searched: a connect timeout, refused or reset
	 * connection or any other I/O error is a {@link Outcome#FAILURE}; a timeout waiting
	 * for the response is a {@link Outcome#TIMEOUT}. An exception with no I/O error or
	 * timeout behind it (a bug in another interceptor, say) says nothing about the host:
	 * {@link Outcome#IGNORED}.
	 */
	public Outcome classify(Throwable error) {
		Outcome outcome = CauseChain.first(error, HttpClassifier::classifyOne);
		return (outcome != null) ? outcome : Outcome.IGNORED;
	}

	private static Outcome classifyOne(Throwable error) {
		// The server never answered the connect: it is down or unreachable, not slow.
		if (error instanceof HttpConnectTimeoutException || isConnectTimeoutByName(error)) {
			return Outcome.FAILURE;
		}
		if (error instanceof SocketTimeoutException) {
			// HttpURLConnection says which timeout it was only in the message.
			String message = error.getMessage();
			boolean connect = message != null && message.toLowerCase().contains("connect");
			return connect ? Outcome.FAILURE : Outcome.TIMEOUT;
		}
		if (error instanceof HttpTimeoutException || error instanceof TimeoutException || isReadTimeoutByName(error)) {
			return Outcome.TIMEOUT;
		}
		if (error instanceof IOException) {
			return Outcome.FAILURE;
		}
		return null;
	}

	// Netty, Apache HttpClient and Jetty name their timeouts this way; matching by name
	// keeps those libraries optional.
	private static boolean isConnectTimeoutByName(Throwable error) {
		return error.getClass().getSimpleName().equals("ConnectTimeoutException");
	}

	private static boolean isReadTimeoutByName(Throwable error) {
		String name = error.getClass().getSimpleName();
		return name.equals("ReadTimeoutException") || name.equals("ResponseTimeoutException");
	}

}
