package dev.breaker.core;

import java.time.Instant;

/**
 * One state of one breaker, entered once: every transition publishes a new object, so the
 * object's identity is its generation, and a permit stamped with it is stale as soon as
 * the state changes.
 */
abstract class BreakerState {

	/*
	 * Fields are final and published by the volatile write of Breaker.state, so readers
	 * that reached this object through that field see them. `combined` caches the permit
	 * handed to callers of a child that consults its parent: read and written as a
	 * volatile (a lost race only costs one more small allocation, and only after the
	 * parent changed state or a new bucket began).
	 */

	final State state;

	/** Bumped on every transition. */
	final long generation;

	/**
	 * Consecutive trips so far (the open-wait multiplier's exponent); 0 once the breaker
	 * closes.
	 */
	final int streak;

	/** Ticker time at which this state was entered. */
	final long enteredNanos;

	/** Wall-clock time at which this state was entered. */
	final Instant since;

	/**
	 * The window era this state records into and reads: a CLOSED state starts a fresh
	 * one, so nothing an earlier state's permit records can ever count toward it; other
	 * states keep the previous era.
	 */
	final long era;

	/**
	 * The permit every granted call of this state gets (but for per-bucket and per-probe
	 * permits).
	 */
	final Ticket permit;

	private volatile Ticket combined;

	/**
	 * The breaker's finished calls when an operator's override that restarts a state
	 * (reset(), halfOpen()) made this state ({@code 0} for a breaker's first state,
	 * {@code -1} for a state no such override made): an override that finds the same
	 * count knows no call was recorded since. Written before the CAS that publishes the
	 * state (see Overrides).
	 */
	long finishedAtOverride = -1;

	/**
	 * Whether the override that made this state found the breaker in this state already
	 * (a reset of a CLOSED breaker, a halfOpen() of a HALF_OPEN one).
	 */
	boolean overrideOfSame;

	/**
	 * The delivery of transitions (TransitionLog) on whose thread this state was entered
	 * and told, while it runs; compared only with the asking thread's own delivery, so a
	 * stale read by another thread can never match.
	 */
	Object enteredIn;

	BreakerState(Breaker owner, State state, BreakerState previous, int streak, long enteredNanos, Instant since,
			boolean probe, long era) {
		this.state = state;
		this.generation = previous == null ? 0 : previous.generation + 1;
		this.streak = streak;
		this.enteredNanos = enteredNanos;
		this.since = since;
		this.era = era;
		this.permit = new Ticket(owner, this, probe, null);
	}

	/** The era a state keeps when it follows {@code previous}. */
	static long eraAfter(BreakerState previous) {
		return previous == null ? 0 : previous.era;
	}

	/**
	 * {@code own} (a permit of this state) bound to a parent's permit: cached, so it
	 * allocates only when either changes.
	 */
	final Ticket withParent(Ticket own, Ticket parentPermit) {
		Ticket c = combined;
		if (c == null || c.parent != parentPermit || c.epoch != own.epoch || c.slot != own.slot) {
			c = own.withParent(parentPermit);
			combined = c;
		}
		return c;
	}

	@Override
	public String toString() {
		return state + "#" + generation;
	}

}
