package dev.breaker.core;

import java.time.Instant;

/**
 * OPEN: every call is rejected until the open wait ends; then the next acquire or state
 * read moves to HALF_OPEN.
 */
final class OpenState extends BreakerState {

	/*
	 * `until` (ticker nanos) and `untilInstant` (wall clock) only move later, under this
	 * object's lock, when a Retry-After hint or a peer extends the wait. Both are
	 * volatile: the rejection path reads `until` with one volatile read and compares; the
	 * exception's message reads untilInstant.
	 */

	/**
	 * The wait this state began with, after multiplier, cap and jitter (for the
	 * transition reason).
	 */
	final long waitNanos;

	private volatile long until;

	private volatile Instant untilInstant;

	OpenState(Breaker owner, BreakerState previous, int streak, long now, Instant since, long waitNanos) {
		super(owner, State.OPEN, previous, streak, now, since, false, eraAfter(previous));
		this.waitNanos = waitNanos;
		this.until = now + waitNanos;
		this.untilInstant = since.plusNanos(waitNanos);
	}

	boolean due(long now) {
		return now - until >= 0;
	}

	long until() {
		return until;
	}

	Instant untilInstant() {
		return untilInstant;
	}

	/** Keeps the breaker open at least until {@code now + nanos}. */
	synchronized void extend(long now, Instant wallNow, long nanos) {
		if (now + nanos - until > 0) {
			until = now + nanos;
			untilInstant = wallNow.plusNanos(nanos);
		}
	}

}
