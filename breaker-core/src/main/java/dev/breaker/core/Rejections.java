package dev.breaker.core;

/**
 * A call rejected by an open breaker: what the caller gets, the one rule every adapter
 * ({@code @CircuitGuarded}, Spring Cloud CircuitBreaker) follows when it asked with
 * {@link Breaker#acquire()} and was refused.
 */
public final class Rejections {

	private Rejections() {
	}

	/**
	 * The exception for a call {@code breaker} refused: a registry child's own, or its
	 * parent's when the parent rejected (a child that is closed or disabled cannot have
	 * rejected the call itself). Preallocated, so this allocates nothing.
	 * @param breaker the breaker the call asked
	 * @return the rejecting breaker's {@link Breaker#rejection()}
	 */
	public static BreakerOpenException of(Breaker breaker) {
		Breaker parent = breaker.parent();
		if (parent != null) {
			State own = breaker.state();
			if (own == State.CLOSED || own == State.DISABLED) {
				return parent.rejection();
			}
		}
		return breaker.rejection();
	}

}
