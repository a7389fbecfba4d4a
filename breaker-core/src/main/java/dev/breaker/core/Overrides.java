package dev.breaker.core;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * State changes from outside the call path: an operator's overrides, a peer replica's
 * verdicts, server hints.
 */
final class Overrides {

	private Overrides() {
	}

	/**
	 * Operator: move to {@code to} (reason "operator"); repeating FORCED_OPEN or DISABLED
	 * is no transition.
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
			long now = breaker.nanos();
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
	 * A peer tripped: CLOSED or HALF_OPEN moves to OPEN until now + remaining; other
	 * states are left alone.
	 */
	static void openFromPeer(Breaker breaker, Duration remaining, String reason) {
		Objects.requireNonNull(remaining, "remaining");
		for (;;) {
			BreakerState s = breaker.current();
			if (s.state != State.CLOSED && s.state != State.HALF_OPEN) {
				return;
			}
			OpenState open = new OpenState(breaker, s, s.streak + 1, breaker.nanos(),
					breaker.config().clock().instant(), clamped(breaker, remaining));
			if (breaker.moveTo(s, open, reason, true)) {
				return;
			}
		}
	}

	/** A peer closed: OPEN or HALF_OPEN moves to CLOSED; other states are left alone. */
	static void closeFromPeer(Breaker breaker, String reason) {
		for (;;) {
			BreakerState s = breaker.current();
			if (s.state != State.OPEN && s.state != State.HALF_OPEN) {
				return;
			}
			ClosedState closed = new ClosedState(breaker, s, breaker.nanos(), breaker.config().clock().instant());
			if (breaker.moveTo(s, closed, reason, true)) {
				return;
			}
		}
	}

	/**
	 * A wait a server or a peer asked for, in [1 ns, maxOpenWait]: nothing from outside
	 * holds a breaker open longer.
	 */
	private static long clamped(Breaker breaker, Duration wait) {
		long max = breaker.config().maxOpenWait().toNanos();
		return Math.max(1, Math.min(Numbers.saturatedNanos(wait), max));
	}

	static void retryAfter(Breaker breaker, Verdicts verdicts, Duration hint) {
		if (hint.isNegative() || hint.isZero()) {
			return;
		}
		long nanos = clamped(breaker, hint);
		long now = breaker.nanos();
		verdicts.hint(now, nanos);
		if (breaker.current() instanceof OpenState open) {
			open.extend(now, breaker.config().clock().instant(), nanos);
		}
	}

	static void limitProbes(Breaker breaker, int max) {
		int most = breaker.config().halfOpenMaxProbes();
		if (max < 0 || max > most) {
			throw new IllegalArgumentException("a probe share must be in [0, " + most + "] but was " + max);
		}
		if (breaker.current() instanceof HalfOpenState halfOpen) {
			halfOpen.share(max);
		}
	}

}
