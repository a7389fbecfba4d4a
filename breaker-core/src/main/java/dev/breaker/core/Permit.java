package dev.breaker.core;

/**
 * The answer to {@link Breaker#acquire()}: hand it back to {@link Breaker#release} when
 * the call ends.
 */
public interface Permit {

	/** Whether the call may proceed. */
	boolean granted();

	/**
	 * Whether the call is a half-open probe whose outcome decides the breaker's next
	 * state.
	 */
	boolean probe();

}
