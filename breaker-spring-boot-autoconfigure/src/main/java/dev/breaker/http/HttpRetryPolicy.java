package dev.breaker.http;

import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

import dev.breaker.aspect.RetryPolicy;
import dev.breaker.core.Outcome;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;

/**
 * How the requests to one host are retried: the pauses, their jitter, which outcomes and
 * statuses retry, and whether requests that are not idempotent may.
 *
 * <p>
 * GET, HEAD, OPTIONS, PUT and DELETE are idempotent (RFC 9110 section 9.2.2, TRACE
 * aside); POST and PATCH retry only with an {@code Idempotency-Key} header, or when
 * {@code nonIdempotent} is on (which lets every method retry).
 *
 * @param intervals the pause before each retry; as many retries as intervals, empty for
 * none
 * @param jitter each pause is drawn from
 * {@code [interval * (1 - jitter), interval * (1 + jitter)]}
 * @param outcomes the outcomes that retry (FAILURE, TIMEOUT, THROTTLED)
 * @param statuses the response statuses that retry, whatever their outcome
 * @param nonIdempotent whether requests of any method retry
 */
public record HttpRetryPolicy(List<Duration> intervals, double jitter, Set<Outcome> outcomes, Set<Integer> statuses,
		boolean nonIdempotent) {

	/** The header that makes a POST or PATCH safe to repeat. */
	public static final String IDEMPOTENCY_KEY = "Idempotency-Key";

	/** No retries. */
	public static final HttpRetryPolicy NONE = new HttpRetryPolicy(List.of(), 0, Set.of(), Set.of(), false);

	private static final Set<HttpMethod> IDEMPOTENT = Set.of(HttpMethod.GET, HttpMethod.HEAD, HttpMethod.OPTIONS,
			HttpMethod.PUT, HttpMethod.DELETE);

	public HttpRetryPolicy {
		intervals = List.copyOf(intervals);
		outcomes = outcomes.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(outcomes));
		statuses = Set.copyOf(statuses);
	}

	/**
	 * How many retries may follow the first attempt of this request: 0 when its method
	 * may not repeat.
	 */
	public int maxRetries(HttpMethod method, HttpHeaders headers) {
		if (this.intervals.isEmpty()) {
			return 0;
		}
		boolean repeatable = this.nonIdempotent || IDEMPOTENT.contains(method)
				|| (HttpMethod.POST.equals(method) || HttpMethod.PATCH.equals(method))
						&& headers.containsHeader(IDEMPOTENCY_KEY);
		return repeatable ? this.intervals.size() : 0;
	}

	/** Whether a response with this status, judged {@code outcome}, retries. */
	public boolean retries(int status, Outcome outcome) {
		return this.statuses.contains(status) || this.outcomes.contains(outcome);
	}

	/**
	 * Whether an exchange that ended with an exception judged {@code outcome} retries.
	 */
	public boolean retries(Outcome outcome) {
		return this.outcomes.contains(outcome);
	}

	/**
	 * The pause before retry number {@code retry} (0-based): the jittered interval, or
	 * the server's {@code Retry-After} when that is longer and at most {@code maxWait};
	 * {@code null} when the server asked for longer than {@code maxWait} (no retry: the
	 * caller gets the answer now).
	 * @param retryAfter the wait a 429 or 503 asked for, or {@code null}
	 * @param random a uniform random number in [0, 1)
	 */
	public Duration pause(int retry, Duration retryAfter, Duration maxWait, double random) {
		Duration interval = RetryPolicy.jittered(this.intervals.get(retry), this.jitter, random);
		if (retryAfter == null || retryAfter.compareTo(interval) <= 0) {
			return interval;
		}
		return (retryAfter.compareTo(maxWait) <= 0) ? retryAfter : null;
	}

}
