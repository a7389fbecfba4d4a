package dev.breaker.aspect;

import java.time.Duration;

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

}
