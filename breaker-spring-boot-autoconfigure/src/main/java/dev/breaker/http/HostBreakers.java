package dev.breaker.http;

import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;

import dev.breaker.core.Breaker;
import dev.breaker.core.BreakerOpenException;
import dev.breaker.core.BreakerRegistry;
import dev.breaker.core.Outcome;

import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;

/**
 * The breakers of remote hosts, one per host ({@code http:<host>}, or
 * {@code http:<host>:<port>} off the scheme's default port), and how an exchange with
 * each host is judged.
 *
 * <p>
 * Breakers are children of the registry's {@value #GROUP} group, so their number is
 * bounded by the children policy registered for that group.
 */
public final class HostBreakers {

	/** The registry group whose children are the per-host breakers. */
	public static final String GROUP = "http";

	private final BreakerRegistry registry;

	private final HttpClassifier defaultClassifier;

	private final Map<String, HttpClassifier> hostClassifiers;

	private final HttpRetryPolicy defaultRetry;

	private final Map<String, HttpRetryPolicy> hostRetries;

	/**
	 * Breakers whose requests are not retried.
	 * @param classifier how every host's exchanges are judged
	 * @param hostClassifiers how a host's exchanges are judged instead, by host key
	 * ({@code api.acme.com}, {@code api.acme.com:8443})
	 */
	public HostBreakers(BreakerRegistry registry, HttpClassifier classifier,
			Map<String, HttpClassifier> hostClassifiers) {
		this(registry, classifier, hostClassifiers, HttpRetryPolicy.NONE, Map.of());
	}

	/**
	 * @param classifier how every host's exchanges are judged
	 * @param hostClassifiers how a host's exchanges are judged instead, by host key
	 * ({@code api.acme.com}, {@code api.acme.com:8443})
	 * @param retry how every host's requests are retried
	 * @param hostRetries how a host's requests are retried instead, by host key
	 */
	public HostBreakers(BreakerRegistry registry, HttpClassifier classifier,
			Map<String, HttpClassifier> hostClassifiers, HttpRetryPolicy retry,
			Map<String, HttpRetryPolicy> hostRetries) {
		this.registry = registry;
		this.defaultClassifier = classifier;
		this.hostClassifiers = Map.copyOf(hostClassifiers);
		this.defaultRetry = retry;
		this.hostRetries = Map.copyOf(hostRetries);
	}

	/**
	 * The host key of a request URI: the lower-cased host, with {@code :port} when the
	 * port is not the scheme's default; {@code null} for a URI without a host.
	 *
	 * <p>
	 * A host {@code java.net.URI} does not read as a server's name (one holding
	 * {@code _}, as Docker Compose service names do) is taken from the authority as
	 * {@code java.net.URL} and the HTTP clients read it: what follows the {@code @} (an
	 * authority with two has no host), and a trailing {@code :port}. Such a request
	 * reaches its host, so it is guarded as any other.
	 */
	public static @Nullable String hostKey(URI uri) {
		String host = uri.getHost();
		int port = uri.getPort();
		if (host == null) {
			String authority = uri.getRawAuthority();
			if (authority == null) {
				return null;
			}
			int at = authority.indexOf('@');
			if (at != authority.lastIndexOf('@')) {
				return null; // java.net.URL reads no host in it
			}
			host = authority.substring(at + 1);
			int colon = host.lastIndexOf(':');
			if (colon >= 0) {
				if (!isPort(host, colon + 1)) {
					return null; // no client sends to it
				}
				port = (colon + 1 < host.length()) ? Integer.parseInt(host, colon + 1, host.length(), 10) : -1;
				host = host.substring(0, colon);
			}
			if (host.isEmpty() || host.indexOf(':') >= 0) {
				return null;
			}
		}
		host = host.toLowerCase(Locale.ROOT);
		if (port == -1 || port == defaultPort(uri.getScheme())) {
			return host;
		}
		return host + ":" + port;
	}

	/** Whether {@code text} from {@code start} is a port: no digits, or up to five. */
	private static boolean isPort(String text, int start) {
		int digits = text.length() - start;
		if (digits > 5) {
			return false;
		}
		for (int i = start; i < text.length(); i++) {
			if (text.charAt(i) < '0' || text.charAt(i) > '9') {
				return false;
			}
		}
		return true;
	}

	private static int defaultPort(String scheme) {
		if (scheme == null) {
			return -1;
		}
		return switch (scheme.toLowerCase(Locale.ROOT)) {
			case "http", "ws" -> 80;
			case "https", "wss" -> 443;
			default -> -1;
		};
	}

	/**
	 * The breaker guarding requests to this URI's host; {@code null} for a URI without a
	 * host.
	 */
	public Breaker breaker(URI uri) {
		String key = hostKey(uri);
		return (key != null) ? this.registry.breaker(GROUP, key) : null;
	}

	/** The outcome of a response from the breaker's host. */
	public Outcome classify(Breaker breaker, int status, HttpHeaders headers) {
		// only a Retry-After that asks for a wait makes a 503 throttling: a gateway that
		// sends garbage, 0 or a date gone by with every 503 would otherwise keep the
		// breaker closed for good (THROTTLED never trips), though no wait is honoured
		boolean retryAfter = status == 503 && retryAfter(breaker, status, headers) != null;
		return classifier(breaker).classify(status, retryAfter);
	}

	/**
	 * The outcome of an exchange with the breaker's host that ended with this exception.
	 */
	public Outcome classify(Breaker breaker, Throwable error) {
		return classifier(breaker).classify(error);
	}

	/** How requests to the breaker's host are retried. */
	public HttpRetryPolicy retryPolicy(Breaker breaker) {
		HttpRetryPolicy retry = this.hostRetries.get(breaker.key());
		return (retry != null) ? retry : this.defaultRetry;
	}

	private HttpClassifier classifier(Breaker breaker) {
		HttpClassifier classifier = this.hostClassifiers.get(breaker.key());
		return (classifier != null) ? classifier : this.defaultClassifier;
	}

	/**
	 * Passes a 429's or 503's {@code Retry-After} to the breaker, so that if it is open
	 * or trips now, it stays open at least that long. The hint is capped at the breaker's
	 * {@code maxOpenWait}: a server cannot park the breaker for a day.
	 */
	public void honourRetryAfter(Breaker breaker, int status, HttpHeaders headers) {
		Duration hint = retryAfter(breaker, status, headers);
		if (hint != null) {
			Duration max = breaker.config().maxOpenWait();
			breaker.retryAfter((hint.compareTo(max) > 0) ? max : hint);
		}
	}

	/**
	 * The wait a 429's or 503's {@code Retry-After} asks for, read on the breaker's
	 * clock; {@code null} for any other status, or without a readable, future value.
	 */
	public @Nullable Duration retryAfter(Breaker breaker, int status, HttpHeaders headers) {
		if (status != 429 && status != 503) {
			return null;
		}
		String value = headers.getFirst(HttpHeaders.RETRY_AFTER);
		if (value == null) {
			return null;
		}
		Clock clock = breaker.config().clock();
		return RetryAfter.parse(value, clock);
	}

	/** The exception a request to a host whose breaker refused it fails with. */
	public BreakerRejectedException rejected(Breaker breaker, HttpMethod method, URI uri) {
		return rejected(breaker.rejection(), method, uri);
	}

	/**
	 * The exception a request fails with when {@code rejection}'s breaker refused it: the
	 * host's breaker, or the group breaker it consults (with a registry whose
	 * {@value #GROUP} children consult it), each named as the one to look at.
	 */
	public BreakerRejectedException rejected(BreakerOpenException rejection, HttpMethod method, URI uri) {
		return new BreakerRejectedException(rejection.breaker(), rejection.openUntil(), method, uri,
				rejection.getMessage());
	}

}
