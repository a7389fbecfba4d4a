package dev.breaker.aspect;

import java.time.Duration;
import java.util.concurrent.TimeoutException;

/**
 * What the aspect adds around a guarded call of one breaker: a timeout for asynchronous
 * calls and retries.
 *
 * @param timeout how long an asynchronous call may take before it completes with a
 * {@link java.util.concurrent.TimeoutException}; {@code null} for no limit
 * @param retry how the call is retried
 */
public record CallPolicy(Duration timeout, RetryPolicy retry) {

	/** No timeout, no retries. */
	public static final CallPolicy NONE = new CallPolicy(null, RetryPolicy.NONE);

	/**
	 * What an asynchronous call still running at its timeout fails with: the one message
	 * for {@code CompletionStage}, Reactor and Spring Cloud's reactive calls.
	 * @param breaker the breaker's name
	 * @param timeout the timeout that passed
	 * @return a new exception, recorded as TIMEOUT by the default classifier
	 */
	public static TimeoutException timedOut(String breaker, Duration timeout) {
		return new TimeoutException("breaker '" + breaker + "': did not complete within " + timeout);
	}

}
