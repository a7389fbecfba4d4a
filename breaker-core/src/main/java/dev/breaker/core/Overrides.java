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
			if ((to == State.CLOSED || to == State.HALF_OPEN) && s.state == to
					&& (TransitionLog.delivering(s) || repeated(breaker, s))) {
				// told to nobody, as is a listener asking for the state it is being told
				// about (so one that resets or probes on every transition terminates); a
				// fresh state still replaces s, so the calls in flight stop counting
				if (restartQuietly(breaker, s)) {
					return;
				}
				continue;
			}
			long now = breaker.now();
			Instant wallNow = breaker.config().clock().instant();
			BreakerState next = switch (to) {
				case CLOSED -> reset(breaker, s, now, wallNow);
				case HALF_OPEN -> marked(new HalfOpenState(breaker, s, now, wallNow), breaker, s);
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
	 * Whether a reset of CLOSED {@code s}, or a halfOpen() of HALF_OPEN {@code s}, is
	 * told to nobody. Such an override still does what it is for (a fresh state replaces
	 * {@code s}: a reset empties the window, a halfOpen() starts a fresh episode, and the
	 * calls in flight stop counting), but it is no transition, when either
	 * <ul>
	 * <li>no call was recorded since an override of the same kind made {@code s} (or
	 * since the breaker was made, for a reset), and either that override found the
	 * breaker in this state already or this thread is delivering a transition (a
	 * listener): so an override repeated on an untouched breaker tells nobody, and
	 * listeners calling it on each other's breaker end, on this thread or through
	 * another; or</li>
	 * <li>this thread is delivering a transition and {@code s} was entered and told in
	 * this same delivery: so listeners calling it on each other's breaker on one thread
	 * end after one turn, whatever calls other threads finish meanwhile (steady
	 * traffic).</li>
	 * </ul>
	 */
	private static boolean repeated(Breaker breaker, BreakerState s) {
		if (TransitionLog.enteredInThisDelivery(s)) {
			return true;
		}
		long mark = s.finishedAtOverride;
		return mark >= 0 && (s.overrideOfSame || TransitionLog.delivering()) && finished(breaker) == mark;
	}

	/**
	 * Swaps in the fresh state of an override told to nobody for {@code s}; a half-open
	 * one then hands its fleet share over (the fleet may set it on {@code s} meanwhile).
	 */
	private static boolean restartQuietly(Breaker breaker, BreakerState s) {
		BreakerState next = restarted(breaker, s);
		if (!breaker.restartQuietly(s, next)) {
			return false;
		}
		if (s instanceof HalfOpenState retired) {
			retired.handOver((HalfOpenState) next);
		}
		return true;
	}

	/**
	 * The fresh state of an override told to nobody, entered now, with the marks of
	 * {@code s} (and, half-open, its fleet share of probes).
	 */
	private static BreakerState restarted(Breaker breaker, BreakerState s) {
		long now = breaker.now();
		Instant wallNow = breaker.config().clock().instant();
		BreakerState next;
		if (s instanceof HalfOpenState halfOpen) {
			HalfOpenState fresh = new HalfOpenState(breaker, s, now, wallNow);
			fresh.inherit(halfOpen.share());
			next = fresh;
		}
		else {
			next = new ClosedState(breaker, s, now, wallNow);
		}
		next.finishedAtOverride = finished(breaker);
		next.overrideOfSame = s.overrideOfSame;
		next.enteredIn = s.enteredIn;
		return next;
	}

	private static ClosedState reset(Breaker breaker, BreakerState from, long now, Instant wallNow) {
		return marked(new ClosedState(breaker, from, now, wallNow), breaker, from);
	}

	/**
	 * {@code next}, which an operator's override made from {@code from}, marked with the
	 * finished calls so far. Counted before the CAS: a call recorded in between makes the
	 * next override a real one, never the other way round.
	 */
	private static <S extends BreakerState> S marked(S next, Breaker breaker, BreakerState from) {
		next.finishedAtOverride = finished(breaker);
		next.overrideOfSame = from.state == next.state;
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
