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
	 * is no transition, and neither is a reset that would change nothing (see
	 * {@link #repeated}).
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
			if (to == State.CLOSED && s instanceof ClosedState closed && repeated(breaker, closed)) {
				if (breaker.restartQuietly(closed, restarted(breaker, closed))) {
					return;
				}
				continue;
			}
			long now = breaker.now();
			Instant wallNow = breaker.config().clock().instant();
			BreakerState next = switch (to) {
				case CLOSED -> reset(breaker, s, now, wallNow);
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
	 * Whether a reset of {@code closed} is told to nobody: no call was recorded since a
	 * reset made it (or since the breaker was made), and either that reset found the
	 * breaker CLOSED already or this thread is delivering a transition (a listener). Such
	 * a reset still empties the window (it is empty already) and still makes the calls in
	 * flight stop counting (a fresh CLOSED state replaces this one), but it is no
	 * transition: so a reset repeated on an untouched breaker tells nobody, and listeners
	 * resetting each other's breaker end, on this thread or through another.
	 */
	private static boolean repeated(Breaker breaker, ClosedState closed) {
		long mark = closed.finishedAtReset;
		return mark >= 0 && (closed.resetOfClosed || TransitionLog.delivering()) && finished(breaker) == mark;
	}

	/**
	 * The fresh CLOSED state of a reset told to nobody, entered now, with the marks of
	 * {@code closed}.
	 */
	private static ClosedState restarted(Breaker breaker, ClosedState closed) {
		ClosedState next = new ClosedState(breaker, closed, breaker.now(), breaker.config().clock().instant());
		next.finishedAtReset = finished(breaker);
		next.resetOfClosed = closed.resetOfClosed;
		return next;
	}

	private static ClosedState reset(Breaker breaker, BreakerState from, long now, Instant wallNow) {
		// counted before the CAS: a call recorded in between makes the next reset a real
		// one, never the other way round
		ClosedState next = new ClosedState(breaker, from, now, wallNow);
		next.finishedAtReset = finished(breaker);
		next.resetOfClosed = from.state == State.CLOSED;
		return next;
	}

	/** The breaker's finished calls so far (recorded, or stale on release). */
	private static long finished(Breaker breaker) {
		long sum = 0;
		for (Outcome outcome : Outcome.values()) {
			sum += breaker.totals().calls(outcome);
		}
		return sum;
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
