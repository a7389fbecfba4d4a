package dev.breaker.core;

/**
 * How one finished call counts toward the breaker's rules.
 *
 * <p>
 * The order is load-bearing; append, never reorder. The ordinal is the call's count index
 * in the window ({@code BucketWindow.SUCCESS}..{@code THROTTLED}), in the totals and in
 * the latency arrays, and the outcomes that count toward the rates (SUCCESS, FAILURE,
 * TIMEOUT) come first: "counts" is {@code ordinal() <=
 * TIMEOUT.ordinal()}. {@code OutcomeOrderTests} checks both.
 */
public enum Outcome {

	/** The call worked. */
	SUCCESS,
	/** The dependency failed (connection error, 5xx, a failure result...). */
	FAILURE,
	/** The call timed out; counts {@code timeoutWeight} toward the failure rate. */
	TIMEOUT,
	/** The caller's fault (validation error, 4xx): neither success nor failure. */
	IGNORED,
	/**
	 * The dependency asked us to slow down (429, rate limit): reported, not a failure.
	 */
	THROTTLED

}
