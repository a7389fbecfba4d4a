package dev.breaker.core;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * State changes from outside the call path: an operator's overrides and server hints (a
 * peer replica's verdicts are {@link PeerHooks}).
 */
final class Overrides {

	private Overrides() {
	}

	/**
	 * Operator: move to {@code to} (reason "operator"); repeating FORCED_OPEN or DISABLED
	 * is no transition, and neither is a reset of a CLOSED breaker asked from inside a
	 * transition listener.
	 */
	static void operator(Breaker breaker, State to) {
		operator(breaker, to, "operator", false);
	}

	/**
	 * As {@link #operator(Breaker, State)}, with the caller's reason, and from a peer's
	 * operator when {@code remote}.
	 */
	static void operator(Breaker breaker, State to, String reason, boolean remote) {
		for (;;) {
			BreakerState s = breaker.current();
			if (s.state == to && (to == State.FORCED_OPEN || to == State.DISABLED)) {
				return;
			}
			if (s.state == to && TransitionLog.delivering(s)) {
				// a listener asking for the state it is being told about: already there,
				// so a listener that resets (or probes) on every transition terminates
				return;
			}
			if (s.state == State.CLOSED && to == State.CLOSED && TransitionLog.delivering()) {
				// a listener resetting a breaker that is closed already (its own or
				// another): no transition, so listeners resetting each other's breaker
				// end
				return;
			}
			long now = breaker.now();
			Instant wallNow = breaker.config().clock().instant();
			BreakerState next = switch (to) {
				case CLOSED -> new ClosedState(breaker, s, now, wallNow);
				case HALF_OPEN -> new HalfOpenState(breaker, s, now, wallNow);
				case FORCED_OPEN -> new ForcedOpenState(breaker, s, now, wallNow);
				case DISABLED -> new DisabledState(breaker, s, now, wallNow);
				case OPEN -> throw new IllegalArgumentException("OPEN is entered by a trip, not an override");
			};
			if (breaker.moveTo(s, next, reason, remote)) {
				return;
			}
		}
	}

	/**
	 * A wait a server or a peer asked for, in [1 ns, maxOpenWait]: nothing from outside
	 * holds a breaker open longer.
	 */
	static long clamped(Breaker breaker, Duration wait) {
		long max = breaker.config().maxOpenWait().toNanos();
		return Math.max(1, Math.min(Numbers.saturatedNanos(wait), max));
	}

	static void retryAfter(Breaker breaker, Verdicts verdicts, Duration hint) {
		if (hint.isNegative() || hint.isZero()) {
			return;
		}
		long nanos = clamped(breaker, hint);
		long now = breaker.now();
		verdicts.hint(now, nanos);
		if (breaker.current() instanceof OpenState open) {
			open.extend(now, breaker.config().clock().instant(), nanos);
		}
	}

}
