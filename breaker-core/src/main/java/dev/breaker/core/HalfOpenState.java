package dev.breaker.core;

import java.time.Instant;

/**
 * HALF_OPEN: a ramping number of concurrent probes (1, then 2, 4... up to the maximum as
 * probes succeed) decides: enough successes close the breaker, enough failures reopen it,
 * and a probe without a verdict for halfOpenMaxWait reopens it.
 */
final class HalfOpenState extends BreakerState {

	/*
	 * All counters are guarded by this object's monitor: half-open is a short episode
	 * with few calls, so a lock costs nothing that matters and makes
	 * "never more probes in flight than the limit" obvious. Each probe gets the permit of
	 * a free slot, which remembers when it started, so the max wait runs from the oldest
	 * probe still in flight and a finishing probe is known exactly. The deadline is
	 * judged the same way by whoever looks first after it passed (a state read, an
	 * acquire, or any probe's release, before that probe counts): a probe released after
	 * it can only find the episode already decided. The breaker reads the verdict under
	 * the lock and makes the transition after releasing it, so no listener ever runs
	 * while it is held. Once a verdict is given, later probes of this state give none and
	 * count nowhere: exactly one thread attempts each exit.
	 */

	enum Verdict {

		/**
		 * The probe did not count (a verdict was already given, or it was not this
		 * episode's).
		 */
		NONE,
		/** The probe counted, no verdict yet. */
		COUNTED, CLOSE, REOPEN,
		/** The oldest probe in flight had no verdict within the max wait. */
		EXPIRED

	}

	private final int maxProbes;

	private final int successesToClose;

	private final int failuresToReopen;

	private final long maxWaitNanos;

	private final Ticket[] probes;

	private final long[] startedAt;

	private final boolean[] busy;

	private int ramp = 1;

	private int share = -1;

	private int inFlight;

	private int successes;

	private int failures;

	private boolean decided;

	/**
	 * The move a verdict decided, set under the lock with `decided`: whoever sees it
	 * helps publish it.
	 */
	private volatile Move move;

	/** The state a verdict moves to, and why. */
	record Move(BreakerState to, String reason) {
	}

	/**
	 * Makes the move of a verdict: called under this object's lock, so it must run no
	 * user code.
	 */
	interface Mover {

		Move close(HalfOpenState from, long now, Instant wallNow);

		Move reopen(HalfOpenState from, long now, Instant wallNow, String reason);

	}

	HalfOpenState(Breaker owner, BreakerState previous, long now, Instant since) {
		super(owner, State.HALF_OPEN, previous, previous.streak, now, since, true, eraAfter(previous));
		BreakerConfig config = owner.config();
		this.maxProbes = owner.maxProbes(now);
		this.successesToClose = config.halfOpenSuccessesToClose();
		this.failuresToReopen = config.halfOpenFailuresToReopen();
		this.maxWaitNanos = config.halfOpenMaxWait().toNanos();
		this.probes = new Ticket[maxProbes];
		this.startedAt = new long[maxProbes];
		this.busy = new boolean[maxProbes];
		for (int i = 0; i < maxProbes; i++) {
			probes[i] = new Ticket(owner, this, true, null, 0, i);
		}
	}

	/**
	 * Takes a probe slot if one is free: its permit, or null (also once decided: see
	 * {@link #move()}).
	 */
	synchronized Ticket tryAcquire(long now) {
		if (decided || inFlight >= limit()) {
			return null;
		}
		for (int i = 0; i < maxProbes; i++) {
			if (!busy[i]) {
				busy[i] = true;
				startedAt[i] = now;
				inFlight++;
				return probes[i];
			}
		}
		return null;
	}

	/** Gives back a probe slot whose call never ran. */
	synchronized void cancel(Ticket probe) {
		free(probe);
	}

	/**
	 * The move decided by a verdict, not yet published; null while undecided (or when
	 * left by an override).
	 */
	Move move() {
		return move;
	}

	/**
	 * Whether the max wait has run out for a probe in flight (then the episode is
	 * decided: reopen).
	 */
	synchronized boolean expire(long now, Instant wallNow, Mover mover, String reason) {
		if (!decided && overdue(now)) {
			decide(mover.reopen(this, now, wallNow, reason));
			return true;
		}
		return false;
	}

	/**
	 * Records a probe's verdict (neither success nor failure: it only frees its slot).
	 */
	synchronized Verdict finish(Ticket probe, boolean success, boolean failure, long now, Instant wallNow, Mover mover,
			String expiredReason) {
		if (probe.slot < 0 || !busy[probe.slot]) {
			return Verdict.NONE;
		}
		boolean late = !decided && overdue(now); // judged with this probe still in flight
		free(probe);
		if (late) {
			decide(mover.reopen(this, now, wallNow, expiredReason));
			return Verdict.EXPIRED;
		}
		if (decided || !success && !failure) {
			return Verdict.NONE;
		}
		if (success) {
			successes++;
			ramp = Math.min(maxProbes, ramp * 2);
			if (successes >= successesToClose) {
				decide(mover.close(this, now, wallNow));
				return Verdict.CLOSE;
			}
		}
		else {
			failures++;
			if (failures >= failuresToReopen) {
				decide(mover.reopen(this, now, wallNow, failures + " of " + (successes + failures) + " probes failed"));
				return Verdict.REOPEN;
			}
		}
		return Verdict.COUNTED;
	}

	private void decide(Move m) {
		decided = true;
		move = m;
	}

	/** The breaker has left this state: nothing released later counts. */
	synchronized void retire() {
		decided = true;
	}

	/** This replica's share of probes for this episode (fleet mode). */
	synchronized void share(int max) {
		share = max;
	}

	/**
	 * The most concurrent probes of this episode (the config's, or sized from traffic
	 * when it began).
	 */
	int maxProbes() {
		return maxProbes;
	}

	synchronized int successes() {
		return successes;
	}

	synchronized Snapshot.Probes probes() {
		return new Snapshot.Probes(limit(), inFlight, successes, failures);
	}

	private void free(Ticket probe) {
		if (probe.slot >= 0 && busy[probe.slot]) {
			busy[probe.slot] = false;
			inFlight--;
		}
	}

	private boolean overdue(long now) {
		for (int i = 0; i < maxProbes; i++) {
			if (busy[i] && now - startedAt[i] >= maxWaitNanos) {
				return true;
			}
		}
		return false;
	}

	private int limit() {
		int limit = Math.min(ramp, maxProbes);
		return share >= 0 ? Math.min(limit, share) : limit;
	}

}
