package dev.breaker.core;

/**
 * A call rejected by an open breaker: what the caller gets, the one rule every adapter
 * ({@code @CircuitGuarded}, Spring Cloud CircuitBreaker) follows when it asked with
 * {@link Breaker#acquire()} and was refused, the same rule
 * {@link Breaker#call(java.util.concurrent.Callable)} follows.
 */
public final class Rejections {

	private Rejections() {
	}

	/**
	 * The exception for a call that was refused {@code refused}: the
	 * {@link Breaker#rejection()} of the breaker that refused it. For a registry child
	 * that is the child's own when the child refused, its parent's when the parent did
	 * (also for a half-open child whose probe slot was free but whose parent is open).
	 * Preallocated, so this allocates nothing.
	 * @param refused what {@link Breaker#acquire()} answered, not granted
	 * @return the refusing breaker's {@link Breaker#rejection()}
	 * @throws IllegalArgumentException when {@code refused} was granted, or is not a
	 * breaker's permit
	 */
	public static BreakerOpenException of(Permit refused) {
		if (!(refused instanceof Ticket ticket) || ticket.granted()) {
			throw new IllegalArgumentException("not a refused permit: " + refused);
		}
		return ticket.owner.rejection();
	}

}
