package dev.breaker.core;

import dev.breaker.core.internal.BucketWindow;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.Instant;

/** CLOSED: calls flow, outcomes are recorded, the trip rules watch them. */
final class ClosedState extends BreakerState {

	/*
	 * `consecutive` counts failures since the last success. A failure increments it
	 * atomically (getAndAdd) so concurrent failures are all counted and exactly one
	 * thread sees the threshold crossed first (the state CAS makes the trip single
	 * anyway). A success reads it (volatile read: ~free) and writes 0 only when it is not
	 * 0 already, so a healthy breaker's successes do not write shared memory. A success
	 * racing a failure may erase it: the rule is "consecutive" only up to that race,
	 * which is what consecutive means under concurrency.
	 *
	 * `rateCheckedAt` (the ticker value of the last rate-rule check that saw at least
	 * minimumCalls calls, else NEVER) lets successes skip the rate rules cheaply and
	 * still be exact: within one ticker value nothing leaves the window, and a success
	 * only lowers both rates, so a success can make a rate rule hold only when it is the
	 * first of its tick (buckets may have rolled) or while the window is still below
	 * minimumCalls. Opaque (atomic, no ordering needed: a stale read only causes one
	 * extra check); written only by a check, so at most once per tick by successes.
	 *
	 * `lastStallCheck` is the ticker value of the last stall check, opaque for the same
	 * reason.
	 *
	 * With the stall rule on, `inFlight` counts this state's calls in flight by the
	 * bucket they started in: each call gets the permit of its start bucket
	 * (`bucketPermit`, made once per bucket), so its release takes it out of exactly that
	 * bucket, whatever elapsed time the caller reports. A call of an earlier state is
	 * never in here.
	 */

	private static final VarHandle CONSECUTIVE;

	private static final VarHandle LAST_STALL_CHECK;

	private static final VarHandle RATE_CHECKED_AT;

	private static final long NEVER = Long.MIN_VALUE;

	private static final VarHandle BUCKET_PERMIT;

	static {
		try {
			MethodHandles.Lookup lookup = MethodHandles.lookup();
			CONSECUTIVE = lookup.findVarHandle(ClosedState.class, "consecutive", int.class);
			LAST_STALL_CHECK = lookup.findVarHandle(ClosedState.class, "lastStallCheck", long.class);
			RATE_CHECKED_AT = lookup.findVarHandle(ClosedState.class, "rateCheckedAt", long.class);
			BUCKET_PERMIT = lookup.findVarHandle(ClosedState.class, "bucketPermit", Ticket.class);
		}
		catch (ReflectiveOperationException e) {
			throw new ExceptionInInitializerError(e);
		}
	}

	private volatile int consecutive;

	private long lastStallCheck;

	private long rateCheckedAt = NEVER;

	private Ticket bucketPermit;

	/**
	 * This state's calls in flight per start bucket, when the stall rule is on; else
	 * null.
	 */
	final BucketWindow inFlight;

	/**
	 * The children whose failures this state saw, when the group trips on breadth; else
	 * null. This state's own, like its era: a call of an earlier state never counts here.
	 */
	final TenantBreadth breadth;

	ClosedState(Breaker owner, BreakerState previous, long now, Instant since) {
		super(owner, State.CLOSED, previous, 0, now, since, false,
				previous == null ? 0 : previous.era + owner.eraStep());
		lastStallCheck = now;
		if (previous == null) {
			finishedAtOverride = 0; // as if a reset made it
		}
		breadth = owner.newBreadth();
		BreakerConfig config = owner.config();
		if (config.stallCalls() > 0) {
			long bucketNanos = config.bucket().toNanos();
			// one bucket more than the window: a call that has left it started more than
			// a whole window (so more than slowCallDuration) ago, and is stalled for sure
			inFlight = new BucketWindow(bucketNanos, (int) (config.window().toNanos() / bucketNanos) + 1, 1);
		}
		else {
			inFlight = null;
		}
	}

	/** Counts a failure; returns the consecutive failures so far. */
	int failed() {
		return (int) CONSECUTIVE.getAndAdd(this, 1) + 1;
	}

	void succeeded() {
		if (consecutive != 0) {
			consecutive = 0;
		}
	}

	int consecutive() {
		return consecutive;
	}

	/**
	 * True at most once per ticker value: whether the stall rule should be checked now.
	 */
	boolean stallCheckDue(long now) {
		if ((long) LAST_STALL_CHECK.getOpaque(this) == now) {
			return false;
		}
		LAST_STALL_CHECK.setOpaque(this, now);
		return true;
	}

	/**
	 * Whether a success at {@code now} could make a rate rule hold (see the block
	 * comment).
	 */
	boolean rateCheckDue(long now) {
		return (long) RATE_CHECKED_AT.getOpaque(this) != now;
	}

	/**
	 * Remembers a rate check at {@code now}; one that saw fewer than minimumCalls calls
	 * leaves the next one due.
	 */
	void rateChecked(long now, boolean belowMinimum) {
		RATE_CHECKED_AT.setOpaque(this, belowMinimum ? NEVER : now);
	}

	/**
	 * Stall rule: counts a call starting at {@code now} in its bucket and returns the
	 * permit of that bucket.
	 */
	Ticket start(long now) {
		long epoch = inFlight.epoch(now);
		inFlight.add(0, epoch, 1);
		Ticket p = (Ticket) BUCKET_PERMIT.getOpaque(this);
		if (p == null || p.epoch != epoch) {
			p = new Ticket(permit.owner, this, false, null, epoch, -1);
			BUCKET_PERMIT.setOpaque(this, p);
		}
		return p;
	}

	/** Stall rule: the call of {@code ticket} has finished (or never ran). */
	void finish(Ticket ticket) {
		inFlight.add(0, ticket.epoch, -1);
	}

}
