package dev.breaker.core;

import java.time.Duration;
import java.time.Instant;

/**
 * HALF_OPEN: a ramping number of concurrent probes (1, then 2, 4... up to the maximum as
 * probes succeed) decides: enough successes close the breaker, enough failures reopen it,
 * and a probe without a verdict for halfOpenMaxWait reopens it (in a group that trips on
 * breadth, a child's such probe counts once as that child's failed probe instead: see
 * below).
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
	 *
	 * Breadth: in a group that trips on breadth, a failed probe reopens the group only
	 * once failuresToReopen probes failed and they came from `need` = min(minFailing,
	 * failuresToReopen) distinct children (TenantBreadth's 24-bit ids; a call on the
	 * group itself, without a tenant, counts as one), or from no child at all (as CLOSED
	 * trips on failures from no child). The child that asks tags the slot it takes
	 * ({@link #tryAcquire}); the distinct ids are kept in `need` words, under the same
	 * lock, so none is lost or counted twice. A loud tenant's failed probes still count
	 * toward its own breaker, which its calls go through first.
	 *
	 * Breadth and the max wait: a child's probe in flight for maxWait is a lease that
	 * lapses (whoever looks first, as above): it counts as a failed probe of that child,
	 * breadth and all, and its slot is given back at once with a fresh permit, so a
	 * release of the lapsed permit later finds it no longer holds the slot and counts
	 * nowhere, neither again nor for the caller now holding the slot. One loud tenant's
	 * hung probes therefore never reopen the group for everyone, nor stall it. A probe of
	 * the group itself lapsing while no child's probe failed reopens it at once, as in
	 * any breaker.
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

	/**
	 * The permit of each slot's current lease; a lapsed lease's slot gets a fresh one,
	 * its epoch the lapses so far (breadth only, see above).
	 */
	private final Ticket[] probes;

	/**
	 * Per slot: the id of the child whose call holds it (breadth only, else null).
	 */
	private final long[] from;

	/**
	 * The distinct ids of this episode's failed probes, the first {@code failingIds}
	 * words (breadth only, else null).
	 */
	private final long[] failedIds;

	private int failingIds;

	/**
	 * Whether a failed probe of this episode came from a child (not the group itself).
	 */
	private boolean childFailed;

	/** Leases of this episode that lapsed (breadth only). */
	private int lapsed;

	private final long[] startedAt;

	private final boolean[] busy;

	private int ramp = 1;

	private int share = -1;

	/** Whether the fleet set this episode's share (not just inherited it). */
	private boolean shareSet;

	/** The episode a quiet restart swapped in for this one, if any. */
	private HalfOpenState successor;

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

		/**
		 * A probe's lease lapsed and counted as a failed probe (breadth only): for the
		 * totals.
		 */
		void lapsed();

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
		int minFailing = owner.minFailingChildren();
		this.from = minFailing > 0 ? new long[maxProbes] : null;
		this.failedIds = minFailing > 0 ? new long[Math.min(minFailing, failuresToReopen)] : null;
		for (int i = 0; i < maxProbes; i++) {
			probes[i] = new Ticket(owner, this, true, null, 0, i);
		}
	}

	/**
	 * Takes a probe slot if one is free, for a call of {@code child} (null: the group
	 * itself, or a breaker without children): its permit, or null (also once decided: see
	 * {@link #move()}).
	 */
	Ticket tryAcquire(long now, Breaker child) {
		long id = from == null || child == null ? TenantBreadth.ANONYMOUS : TenantBreadth.id(child.key());
		synchronized (this) {
			if (decided || inFlight >= limit()) {
				return null;
			}
			for (int i = 0; i < maxProbes; i++) {
				if (!busy[i]) {
					busy[i] = true;
					startedAt[i] = now;
					inFlight++;
					if (from != null) {
						from[i] = id;
					}
					return probes[i];
				}
			}
			return null;
		}
	}

	/** Gives back a probe slot whose call never ran. */
	synchronized void cancel(Ticket probe) {
		if (holds(probe)) {
			free(probe);
		}
	}

	/**
	 * Whether {@code probe} (a slot's permit, or a copy bound to a parent's permit) holds
	 * its slot: its lease has neither ended nor lapsed. A lapsed slot's fresh permit
	 * carries the number of lapses so far in {@link Ticket#epoch}, unused by probes.
	 */
	private boolean holds(Ticket probe) {
		return probe.slot >= 0 && busy[probe.slot] && probes[probe.slot].epoch == probe.epoch;
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
		if (decided) {
			return false;
		}
		if (from != null) {
			lapse(now, wallNow, mover, reason);
			return decided;
		}
		if (overdue(now)) {
			decide(mover.reopen(this, now, wallNow, reason));
			return true;
		}
		return false;
	}

	/**
	 * Breadth: every lease in flight for the max wait lapses (see above), oldest first
	 * (the one whose max wait ran out first; the lower slot of two started at once),
	 * until one decides the episode: so the verdict is the same whenever the first look
	 * after the deadlines happens.
	 */
	private void lapse(long now, Instant wallNow, Mover mover, String reason) {
		for (int i = oldestOverdue(now); i >= 0 && !decided; i = oldestOverdue(now)) {
			long id = from[i];
			if (id == TenantBreadth.ANONYMOUS && !childFailed) {
				// the group's own call, and no child's probe failed: as in any breaker
				decide(mover.reopen(this, now, wallNow, reason));
				return;
			}
			busy[i] = false;
			inFlight--;
			lapsed++;
			probes[i] = new Ticket(permit.owner, this, true, null, lapsed, i);
			mover.lapsed();
			failed(id, now, wallNow, mover);
		}
	}

	/**
	 * The slot of the probe in flight longest, if that is at least the max wait; else -1.
	 */
	private int oldestOverdue(long now) {
		int oldest = -1;
		long longest = maxWaitNanos - 1;
		for (int i = 0; i < maxProbes; i++) {
			long age = now - startedAt[i];
			if (busy[i] && age > longest) {
				oldest = i;
				longest = age;
			}
		}
		return oldest;
	}

	/**
	 * Records a probe's verdict (neither success nor failure: it only frees its slot).
	 */
	synchronized Verdict finish(Ticket probe, boolean success, boolean failure, long now, Instant wallNow, Mover mover,
			String expiredReason) {
		if (!holds(probe)) {
			return Verdict.NONE;
		}
		long id = from != null ? from[probe.slot] : 0;
		if (from != null) {
			// leases are judged with this probe still in flight; its own may lapse
			boolean open = !decided;
			lapse(now, wallNow, mover, expiredReason);
			if (!holds(probe)) {
				return open && decided ? Verdict.EXPIRED : Verdict.NONE;
			}
			free(probe);
			if (open && decided) {
				return Verdict.EXPIRED;
			}
		}
		else {
			// judged with this probe still in flight
			boolean late = !decided && overdue(now);
			free(probe);
			if (late) {
				decide(mover.reopen(this, now, wallNow, expiredReason));
				return Verdict.EXPIRED;
			}
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
		else if (failed(id, now, wallNow, mover)) {
			return Verdict.REOPEN;
		}
		return Verdict.COUNTED;
	}

	/** Counts a failed probe of child {@code id}; whether it reopens the breaker. */
	private boolean failed(long id, long now, Instant wallNow, Mover mover) {
		failures++;
		String breadth = failedFrom(id);
		if (failures < failuresToReopen || breadth == null) {
			return false;
		}
		String hung = lapsed == 0 ? ""
				: " (" + lapsed + " without a verdict within " + Numbers.format(Duration.ofNanos(maxWaitNanos)) + ")";
		decide(mover.reopen(this, now, wallNow,
				failures + " of " + (successes + failures) + " probes failed" + breadth + hung));
		return true;
	}

	/**
	 * Counts a failed probe of child {@code id}: null while the failed probes are not
	 * broad enough to reopen, else what the reason adds ("" when breadth does not apply).
	 */
	private String failedFrom(long id) {
		if (failedIds == null) {
			return "";
		}
		childFailed |= id != TenantBreadth.ANONYMOUS;
		boolean known = false;
		for (int i = 0; i < failingIds && !known; i++) {
			known = failedIds[i] == id;
		}
		if (!known && failingIds < failedIds.length) {
			failedIds[failingIds++] = id;
		}
		if (!childFailed) {
			return "";
		}
		return failingIds >= failedIds.length ? ", from at least " + failingIds + " tenants" : null;
	}

	private void decide(Move m) {
		decided = true;
		move = m;
	}

	/** The breaker has left this state: nothing released later counts. */
	synchronized void retire() {
		decided = true;
	}

	/**
	 * This replica's share of probes for this episode (fleet mode); once a quiet restart
	 * replaced this episode ({@link #handOver}), the fresh one's too: the fleet may have
	 * read this state just before the swap.
	 */
	void share(int max) {
		HalfOpenState next;
		synchronized (this) {
			share = max;
			shareSet = true;
			next = successor;
		}
		if (next != null) {
			next.share(max);
		}
	}

	/**
	 * A quiet restart swapped in {@code fresh} for this episode: fresh takes this
	 * episode's share unless the fleet has set its own meanwhile, and a share set here
	 * later goes on to fresh. Under this lock, so a share the fleet sets here is either
	 * read now or passed on; fresh's own lock is taken after this one is released.
	 */
	void handOver(HalfOpenState fresh) {
		int inherited;
		synchronized (this) {
			successor = fresh;
			inherited = share;
		}
		fresh.inherit(inherited);
	}

	/** Takes a retired episode's share, unless the fleet set this one's. */
	synchronized void inherit(int max) {
		if (!shareSet) {
			share = max;
		}
	}

	/** This replica's share of probes (fleet mode), -1 for no share. */
	synchronized int share() {
		return share;
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
