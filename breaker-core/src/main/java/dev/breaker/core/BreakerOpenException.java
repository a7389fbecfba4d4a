package dev.breaker.core;

import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * Thrown instead of calling a dependency whose breaker is open; preallocated per breaker
 * and without a stack trace.
 */
public final class BreakerOpenException extends RuntimeException {

	private static final long serialVersionUID = 1L;

	private final transient Breaker breaker;

	BreakerOpenException(Breaker breaker) {
		// No suppression, no stack trace: one instance is thrown by every rejected call,
		// from any thread.
		super(null, null, false, false);
		this.breaker = breaker;
	}

	/** The name of the breaker that rejected the call. */
	public String breaker() {
		return breaker.name();
	}

	/**
	 * Until when the breaker stays open, as of now; null when it is not OPEN (e.g.
	 * FORCED_OPEN).
	 */
	public @Nullable Instant openUntil() {
		return breaker.openUntil();
	}

	@Override
	public String getMessage() {
		String name = BreakerNames.printable(breaker.name());
		State state = breaker.currentState();
		if (state == State.FORCED_OPEN) {
			return "breaker '" + name + "' is FORCED_OPEN by an operator";
		}
		Instant until = openUntil();
		if (until != null) {
			return "breaker '" + name + "' is OPEN until " + until;
		}
		return "breaker '" + name + "' is " + state + " and has no probe slot free";
	}

}
