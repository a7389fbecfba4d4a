package dev.breaker.core;

import dev.breaker.core.internal.BucketWindow;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The retry budget of one breaker: over its window, retries may add
 * {@code retryBudgetRatio} of the first attempts the breaker saw, plus
 * {@code retryBudgetMinPerSecond} per second of the window.
 */
final class RetryBudget {

	/*
	 * Invariant: no retry is granted unless, at the moment it is granted, the retries
	 * granted in the window (itself included) are at most the budget. `granted`
	 * (cumulative, never reset) is the one word every grant CASes: a grant reads it,
	 * checks the budget against the value read, and CASes that value up by one, so two
	 * grants can never both pass on the same count.
	 *
	 * Retries in the window are `granted` minus its value when the window began, which
	 * the ring `checkpoints` remembers: before its CAS, a grant makes sure its bucket has
	 * a checkpoint (the first to arrive in a bucket writes {epoch, granted read before
	 * the write}, one CAS on the slot; the read is the CAS that moves the fence, below).
	 * Any grant in that bucket sees the checkpoint before its own CAS, so its CAS comes
	 * after the value in the checkpoint was read: every grant of the window is counted.
	 * The count subtracts the least value of the live checkpoints (a stale thread may
	 * write an old bucket's checkpoint late, with a larger value; taking the least keeps
	 * that from hiding anyone's retries). Grants made by threads that read the time a
	 * bucket late are counted in the later bucket: the count may be one bucket too long
	 * for them, never too short. A thread whose bucket's slot already holds a later
	 * bucket (its time is a whole window behind) is refused: a refusal is always safe.
	 *
	 * With time standing still this is exact: a refusal happens only when the count read
	 * really is at the budget. The budget itself reads the breaker's window (the current
	 * state's era): the calls there, less the retries whose attempts the breaker recorded
	 * too (`recorded`, read without ordering: a stale read only shrinks the budget), so
	 * the share is of first attempts whether or not the breaker records each attempt.
	 * Checkpoints are small immutable objects made at most once per bucket, off the call
	 * path: a breaker allocates a budget at its first retry.
	 *
	 * Giving a retry back (its caller gave up before its attempt started) takes one off
	 * `granted`. That is right only while no checkpoint has read `granted` since the
	 * grant: a checkpoint read after it counts the grant before its window, and taking it
	 * off would hide another grant from that window. So the word holds, above the count,
	 * a fence that every checkpoint moves with the CAS that reads its count: a grant
	 * remembers the word it CASed, and goes back (one CAS, from the same fence) only
	 * while the fence has not moved; otherwise it stays spent, which is always safe.
	 * Every checkpoint then holds a count from before the grant, so each window's count
	 * drops by exactly that grant. Returns never take the count below its value at the
	 * latest fence (`fenced`, the word that fence's CAS left; a return while the thread
	 * that moved it has not yet written it is refused), the most any checkpoint holds:
	 * returns never exceed the grants made since, and no window's count goes below zero.
	 * Two threads may move the fence at once (both found their bucket without a
	 * checkpoint) and write their words in either order: `fenced` only ever moves forward
	 * (a CAS loop), so the later fence's word stays; were the earlier one's left, every
	 * return would be refused until the next checkpoint. Returning a grant at most once
	 * is its holder's duty. The count is the word's low 40 bits, read as differences
	 * (sign-extended), correct across its wrap; the fence (23 bits, the top bit stays
	 * clear so a grant is never negative) would have to wrap exactly between a grant and
	 * its return, 8 million checkpoints.
	 */

	private static final VarHandle CHECKPOINTS = MethodHandles.arrayElementVarHandle(Checkpoint[].class);

	private static final VarHandle FENCED;

	static {
		try {
			FENCED = MethodHandles.lookup().findVarHandle(RetryBudget.class, "fenced", long.class);
		}
		catch (ReflectiveOperationException ex) {
			throw new ExceptionInInitializerError(ex);
		}
	}

	private static final int CALL_KINDS = BucketWindow.THROTTLED + 1;

	private static final int COUNT_BITS = 40;

	/** The count's bits of {@link #granted}; above them, the fence. */
	private static final long COUNT = (1L << COUNT_BITS) - 1;

	/** One step of the fence. */
	private static final long FENCE = 1L << COUNT_BITS;

	/** The fence's bits, above the count's (the top bit stays clear). */
	private static final int FENCE_BITS = 63 - COUNT_BITS;

	private final Breaker owner;

	private final BucketWindow window;

	private final BreakerTotals totals;

	private final double ratio;

	private final double floor;

	private final Checkpoint[] checkpoints;

	/**
	 * The fence and, in its low bits, the retries granted (cumulative, less those given
	 * back).
	 */
	private final AtomicLong granted = new AtomicLong();

	private final AtomicLong recorded = new AtomicLong();

	/**
	 * The word as the latest fence left it (its count is the most any checkpoint holds);
	 * written after that fence's CAS, so briefly an older one's, which only refuses. Only
	 * ever moved forward: two threads moving the fence at once write theirs in either
	 * order, and the later fence must win (an older one left here would refuse every
	 * return until the next checkpoint).
	 */
	private volatile long fenced;

	/**
	 * Retries granted (a count of {@link #granted}; and of those, recorded by the
	 * breaker) before bucket {@code epoch} began.
	 */
	private record Checkpoint(long epoch, long granted, long recorded) {
	}

	RetryBudget(Breaker owner, BucketWindow window, BreakerTotals totals) {
		this.owner = owner;
		this.window = window;
		this.totals = totals;
		BreakerConfig config = owner.config();
		this.ratio = config.retryBudgetRatio();
		this.floor = config.retryBudgetMinPerSecond() * config.window().toNanos() / 1e9;
		this.checkpoints = new Checkpoint[window.buckets()];
	}

	/**
	 * Takes one retry from the budget if it allows one now.
	 * @param attemptRecorded whether the retry's attempt is recorded in the breaker's
	 * window as a call
	 * @return the grant (never negative), for {@link #giveBack}, or -1 when refused
	 */
	long tryAcquire(long now, long era, boolean attemptRecorded) {
		long epoch = window.epoch(now);
		for (;;) {
			long g = granted.get();
			Checkpoint since = since(epoch);
			if (since == null || difference(g, since.granted) >= allowed(now, era, recorded.get() - since.recorded)) {
				totals.increment(BreakerTotals.RETRIES_REFUSED);
				return -1;
			}
			long grant = (g & ~COUNT) | ((g + 1) & COUNT);
			if (granted.compareAndSet(g, grant)) {
				if (attemptRecorded) {
					recorded.incrementAndGet();
				}
				totals.increment(BreakerTotals.RETRIES);
				return grant;
			}
		}
	}

	/**
	 * Gives back the retry of {@code grant}, whose attempt was never made, while no
	 * checkpoint has been taken since it (see the invariant): at most once per grant.
	 * @return whether it went back to the budget
	 */
	boolean giveBack(long grant, boolean attemptRecorded) {
		if (attemptRecorded) {
			// first: a checkpoint taken before the count goes back then counts this
			// retry as recorded, which only shrinks the budget
			recorded.decrementAndGet();
		}
		for (;;) {
			long g = granted.get();
			long fence = fenced;
			if ((g & ~COUNT) != (grant & ~COUNT) || (fence & ~COUNT) != (g & ~COUNT) || difference(g, fence) <= 0) {
				if (attemptRecorded) {
					recorded.incrementAndGet();
				}
				return false;
			}
			if (granted.compareAndSet(g, (g & ~COUNT) | ((g - 1) & COUNT))) {
				return true;
			}
		}
	}

	/** The count of {@code word} less {@code count}, across the count's wrap. */
	private static long difference(long word, long count) {
		return ((word - count) << (64 - COUNT_BITS)) >> (64 - COUNT_BITS);
	}

	/** The budget's state now (allocates; for snapshots). */
	Snapshot.RetryBudget snapshot(long now, long era) {
		long epoch = window.epoch(now);
		long g = granted.get();
		Checkpoint since = least(epoch, g);
		long retries = since == null ? 0 : Math.max(0, difference(g, since.granted));
		long recordedRetries = since == null ? 0 : recorded.get() - since.recorded;
		return state(owner, window, now, era, retries, recordedRetries);
	}

	/** The state of a budget that has granted nothing yet (no budget allocated). */
	static Snapshot.RetryBudget unused(Breaker owner, BucketWindow window, long now, long era) {
		return state(owner, window, now, era, 0, 0);
	}

	private static Snapshot.RetryBudget state(Breaker owner, BucketWindow window, long now, long era, long retries,
			long recordedRetries) {
		BreakerConfig config = owner.config();
		long firstAttempts = Math.max(0, calls(window, now, era) - recordedRetries);
		double floor = config.retryBudgetMinPerSecond() * config.window().toNanos() / 1e9;
		long allowed = (long) Math.floor(config.retryBudgetRatio() * firstAttempts + floor);
		return new Snapshot.RetryBudget(owner.name(), firstAttempts, allowed, retries);
	}

	/**
	 * Retries allowed in the window ending at {@code now}: ratio x first attempts +
	 * floor.
	 */
	private double allowed(long now, long era, long recordedRetries) {
		long firstAttempts = Math.max(0, calls(window, now, era) - recordedRetries);
		return Math.floor(ratio * firstAttempts + floor);
	}

	private static long calls(BucketWindow window, long now, long era) {
		long calls = 0;
		for (int kind = 0; kind < CALL_KINDS; kind++) {
			calls += window.sum(kind, now, era);
		}
		return calls;
	}

	/**
	 * Makes sure bucket {@code epoch} has its checkpoint (with the count read as the
	 * fence moves, if it is the first), then returns the live checkpoint with the fewest
	 * grants; null when this thread's time is a whole window behind another's.
	 */
	private Checkpoint since(long epoch) {
		int slot = (int) Math.floorMod(epoch, (long) checkpoints.length);
		for (;;) {
			Checkpoint c = (Checkpoint) CHECKPOINTS.getVolatile(checkpoints, slot);
			long ahead = c == null ? -1 : c.epoch - epoch;
			if (ahead > 0) {
				return null;
			}
			long g = granted.get();
			if (ahead == 0) {
				return least(epoch, g);
			}
			// the count is read with the CAS that moves the fence: a grant made before
			// it can no longer go back (then re-read)
			long next = (g + FENCE) & Long.MAX_VALUE;
			if (granted.compareAndSet(g, next)) {
				advanceFenced(next);
				CHECKPOINTS.compareAndSet(checkpoints, slot, c, new Checkpoint(epoch, g & COUNT, recorded.get()));
			}
		}
	}

	/**
	 * Records {@code word} (the word a fence's CAS left) as {@link #fenced} unless a
	 * later fence is already there: another thread may have moved the fence after this
	 * one's CAS and written its word first.
	 */
	private void advanceFenced(long word) {
		for (;;) {
			long seen = fenced;
			if (fenceDifference(word, seen) <= 0 || FENCED.compareAndSet(this, seen, word)) {
				return;
			}
		}
	}

	/** The fence of {@code word} less that of {@code other}, across the fence's wrap. */
	private static long fenceDifference(long word, long other) {
		return (((word >>> COUNT_BITS) - (other >>> COUNT_BITS)) << (64 - FENCE_BITS)) >> (64 - FENCE_BITS);
	}

	/**
	 * The live checkpoint (inside the window ending at bucket {@code epoch}) with the
	 * fewest grants (the most before {@code word}'s count), or null.
	 */
	private Checkpoint least(long epoch, long word) {
		Checkpoint least = null;
		for (int i = 0; i < checkpoints.length; i++) {
			Checkpoint c = (Checkpoint) CHECKPOINTS.getVolatile(checkpoints, i);
			if (c != null && c.epoch > epoch - checkpoints.length && c.epoch <= epoch
					&& (least == null || difference(word, c.granted) > difference(word, least.granted))) {
				least = c;
			}
		}
		return least;
	}

}
