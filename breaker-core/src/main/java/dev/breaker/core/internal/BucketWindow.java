package dev.breaker.core.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A time-based sliding window: a ring of buckets holding striped counts per kind
 * (success, failure...), recorded and read lock-free, with no allocation and no update
 * lost when a bucket rolls over.
 */
public final class BucketWindow {

	/*
	 * Layout: cells[((stripe * buckets) + bucket) * kinds + kind]; a stripe's cells are
	 * contiguous, so threads on different stripes write different cache lines.
	 *
	 * Epochs. A bucket's epoch is nanos / bucketNanos plus an `era`: every caller says
	 * which era it writes or reads (the breaker gives each CLOSED state a fresh era, a
	 * whole number of rings ahead of the previous one), so a late writer of an earlier
	 * state lands in epochs that the later state's window never covers, whatever it
	 * races. Eras are multiples of `buckets`, so they move the tag, never the slot.
	 *
	 * Each cell is one long, a tag above a count (see CellWords). Ring slot i holds
	 * epochs e with e mod buckets == i. A writer CASes the whole word: if the tag is its
	 * epoch it adds; if the word is older (or 0) it replaces it with tag|delta and hands
	 * the displaced count to `folded`; if the word is newer (the writer is late), it
	 * leaves the word alone and folds its own delta. Because the epoch and the count
	 * change in one CAS there is no "zero, then add" window in which another writer's
	 * increment could be wiped (the race of a window that checks "is this bucket stale?",
	 * zeroes it, then adds), and a late writer never erases fresher counts.
	 *
	 * Tags wrap after 2^31 epochs, so the window keeps every live tag within 2^28 +
	 * buckets epochs of each other: epochs are grouped in regions of 2^28; the first
	 * access to an epoch of a newer region (after a long idle time, or every 2^28 buckets
	 * of steady use) waits on `lock` while one thread scrubs, i.e. folds every word older
	 * than the new epoch's window and zeroes it. So a tag match is an epoch match, and
	 * "older or newer" is the sign of a 31-bit difference. A write from an older region
	 * than the scrubbed one is folded at once.
	 *
	 * Readers use getVolatile per cell and count only cells whose tag matches the epoch
	 * the slot holds inside the window, so a stale bucket reads as empty without anyone
	 * having to zero it.
	 *
	 * The window doubles as the cumulative totals, so a finished call costs one atomic
	 * update, not two: whoever displaces (or scrubs, or declines to write) a count adds
	 * it to `folded` (getAndAdd), and total() = folded + every cell. A count is always in
	 * exactly one of the two places, except between the displacing CAS and its getAndAdd,
	 * when total() may read it in neither (never twice).
	 *
	 * `clock` caches (epoch << 12 | slot) for the current bucket to avoid two divisions
	 * per call; it is read and written opaquely (atomic, no ordering needed): a stale
	 * value is detected by the range check and recomputed, and any value written was
	 * correct at some instant.
	 */

	public static final int SUCCESS = 0;

	public static final int FAILURE = 1;

	public static final int TIMEOUT = 2;

	public static final int IGNORED = 3;

	public static final int THROTTLED = 4;

	public static final int SLOW = 5;

	/** Kinds of a window of finished calls: the five outcomes, then SLOW. */
	public static final int FINISHED_KINDS = SLOW + 1;

	static final int REGION_BITS = 28;

	private static final long NONE = Long.MIN_VALUE;

	private static final int SLOT_BITS = 12;

	private static final VarHandle CELLS = MethodHandles.arrayElementVarHandle(long[].class);

	private static final VarHandle FOLDED = MethodHandles.arrayElementVarHandle(long[].class);

	private static final VarHandle CLOCK;

	static {
		try {
			CLOCK = MethodHandles.lookup().findVarHandle(BucketWindow.class, "clock", long.class);
		}
		catch (ReflectiveOperationException e) {
			throw new ExceptionInInitializerError(e);
		}
	}

	private final long bucketNanos;

	private final int buckets;

	private final int kinds;

	private final int stripeMask;

	private final long[] cells;

	/**
	 * Per kind: counts that left the cells (displaced by a newer bucket, scrubbed, or
	 * written too late).
	 */
	private final long[] folded;

	private final Object lock = new Object();

	private long clock;

	/**
	 * The region (epoch >> REGION_BITS) of the last scrub, NONE before the first access:
	 * every live tag is within that region or the one before.
	 */
	private volatile long region = NONE;

	/**
	 * @param bucketNanos length of a bucket
	 * @param buckets number of buckets, at most 4095
	 * @param kinds kinds of counts per bucket ({@link #FINISHED_KINDS} for a breaker's
	 * window of finished calls)
	 */
	public BucketWindow(long bucketNanos, int buckets, int kinds) {
		this(bucketNanos, buckets, kinds, Stripes.COUNT);
	}

	/**
	 * With {@code stripes} (a power of two, at most {@link Stripes#COUNT}) stripes; 1
	 * makes every writer contend.
	 */
	BucketWindow(long bucketNanos, int buckets, int kinds, int stripes) {
		if (Integer.bitCount(stripes) != 1 || stripes > Stripes.COUNT) {
			throw new IllegalArgumentException(
					"stripes must be a power of two <= " + Stripes.COUNT + " but was " + stripes);
		}
		if (buckets < 1 || buckets >= 1 << SLOT_BITS) {
			throw new IllegalArgumentException("buckets must be in [1, 4095] but was " + buckets);
		}
		if (kinds < 1) {
			throw new IllegalArgumentException("kinds must be at least 1 but was " + kinds);
		}
		this.bucketNanos = bucketNanos;
		this.buckets = buckets;
		this.kinds = kinds;
		this.stripeMask = stripes - 1;
		this.cells = new long[stripes * buckets * kinds];
		this.folded = new long[kinds];
	}

	public long bucketNanos() {
		return bucketNanos;
	}

	public int buckets() {
		return buckets;
	}

	/**
	 * The epoch (bucket number since the ticker's origin, era 0) of instant {@code now}.
	 */
	public long epoch(long now) {
		return clock(now) >> SLOT_BITS;
	}

	/** Counts one of {@code kind} at {@code now} in era 0. */
	public void record(int kind, long now) {
		record(kind, now, 0);
	}

	/**
	 * Counts one of {@code kind} at {@code now} in {@code era} (a multiple of
	 * {@link #buckets()}).
	 */
	public void record(int kind, long now, long era) {
		long c = clock(now);
		add(kind, (c >> SLOT_BITS) + era, (int) (c & (1 << SLOT_BITS) - 1), 1);
	}

	/**
	 * Adds {@code delta} to {@code kind} in bucket {@code epoch} (era included); late or
	 * ancient deltas are folded.
	 */
	public void add(int kind, long epoch, int delta) {
		add(kind, epoch, (int) Math.floorMod(epoch, (long) buckets), delta);
	}

	private void add(int kind, long epoch, int slot, int delta) {
		long r = region;
		if (epoch >> REGION_BITS != r && !enterRegion(epoch)) {
			FOLDED.getAndAdd(folded, kind, (long) delta);
			return;
		}
		int i = cell(stripe(), slot, kind);
		long tag = CellWords.tag(epoch);
		for (;;) {
			long w = (long) CELLS.getVolatile(cells, i);
			long next;
			int displaced;
			if ((w & CellWords.TAG_MASK) == tag) {
				next = tag | ((int) w + delta) & CellWords.COUNT_MASK;
				displaced = 0;
			}
			else if (w != 0 && CellWords.newer(w, tag)) {
				FOLDED.getAndAdd(folded, kind, (long) delta);
				return;
			}
			else {
				next = tag | delta & CellWords.COUNT_MASK;
				displaced = (int) w;
			}
			if (CELLS.compareAndSet(cells, i, w, next)) {
				if (displaced != 0) {
					FOLDED.getAndAdd(folded, kind, (long) displaced);
				}
				return;
			}
		}
	}

	/**
	 * Everything of {@code kind} ever added (not only in the window): the folded counts
	 * plus every cell, live or stale. Reads `folded` before the cells, so a count moving
	 * from a cell to `folded` meanwhile is missed, never counted twice: the result may
	 * lag by that count, never exceed the truth.
	 */
	public long total(int kind) {
		long sum = (long) FOLDED.getVolatile(folded, kind);
		for (int s = 0; s <= stripeMask; s++) {
			for (int b = 0; b < buckets; b++) {
				sum += (int) (long) CELLS.getVolatile(cells, cell(s, b, kind));
			}
		}
		return sum;
	}

	/** Counts of {@code kind} in the window ending at {@code now}, era 0. */
	public long sum(int kind, long now) {
		return sum(kind, now, 0);
	}

	/** Counts of {@code kind} in the window of {@code era} ending at {@code now}. */
	public long sum(int kind, long now, long era) {
		long current = epoch(now) + era;
		long sum = 0;
		for (long e = current - buckets + 1; e <= current; e++) {
			sum += count(kind, e);
		}
		return sum;
	}

	/**
	 * Counts of {@code kind} in bucket {@code epoch}, era included (0 once that bucket
	 * has left the window).
	 */
	public long count(int kind, long epoch) {
		readRegion(epoch);
		int slot = (int) Math.floorMod(epoch, (long) buckets);
		long tag = CellWords.tag(epoch);
		long sum = 0;
		for (int s = 0; s <= stripeMask; s++) {
			long w = (long) CELLS.getVolatile(cells, cell(s, slot, kind));
			if ((w & CellWords.TAG_MASK) == tag) {
				sum += (int) w;
			}
		}
		return sum;
	}

	/**
	 * Counts of {@code kind} from buckets that ended at or before {@code cutoff},
	 * counting everything that has left the window (it ended long before), for the window
	 * ending at {@code now} in era 0: for calls in flight, those started at least
	 * {@code now - cutoff} ago, one bucket conservatively.
	 */
	public long sumEndedBy(int kind, long cutoff, long now) {
		long current = epoch(now);
		readRegion(current);
		long oldest = current - buckets + 1;
		long sum = (long) FOLDED.getVolatile(folded, kind);
		for (int b = 0; b < buckets; b++) {
			for (int s = 0; s <= stripeMask; s++) {
				long w = (long) CELLS.getVolatile(cells, cell(s, b, kind));
				if (w == 0) {
					continue;
				}
				long e = CellWords.decode(w, current);
				if (e < oldest || e <= current && e + 1 <= Math.floorDiv(cutoff, bucketNanos)) {
					sum += (int) w;
				}
			}
		}
		return sum;
	}

	private int stripe() {
		return Stripes.current() & stripeMask;
	}

	private int cell(int stripe, int slot, int kind) {
		return (stripe * buckets + slot) * kinds + kind;
	}

	/**
	 * Makes {@code epoch}'s region the current one, scrubbing first if it is newer;
	 * returns false when {@code epoch} is from an older region than the current one (its
	 * count belongs in `folded`).
	 */
	private boolean enterRegion(long epoch) {
		long wanted = epoch >> REGION_BITS;
		synchronized (lock) {
			long r = region;
			if (wanted > r) {
				if (r != NONE) {
					scrub(epoch, ((r + 1) << REGION_BITS) - 1);
				}
				region = wanted;
				return true;
			}
			// the region before still decodes: the scrub kept its window
			return wanted >= r - 1;
		}
	}

	/**
	 * A reader of {@code epoch}: a newer region is entered (scrubbed) first, so nothing
	 * stale reads as live.
	 */
	private void readRegion(long epoch) {
		if (epoch >> REGION_BITS > region) {
			enterRegion(epoch);
		}
	}

	/**
	 * Folds and zeroes every word older than the window ending at {@code epoch}; every
	 * live tag is at most {@code newest}.
	 */
	private void scrub(long epoch, long newest) {
		for (int i = 0; i < cells.length; i++) {
			for (;;) {
				long w = (long) CELLS.getVolatile(cells, i);
				if (w == 0 || CellWords.decode(w, newest) > epoch - buckets) {
					break;
				}
				if (CELLS.compareAndSet(cells, i, w, 0L)) {
					if ((int) w != 0) {
						FOLDED.getAndAdd(folded, i % kinds, (long) (int) w);
					}
					break;
				}
			}
		}
	}

	private long clock(long now) {
		long c = (long) CLOCK.getOpaque(this);
		long offset = now - (c >> SLOT_BITS) * bucketNanos;
		if (offset >= 0 && offset < bucketNanos) {
			return c;
		}
		long epoch = Math.floorDiv(now, bucketNanos);
		c = epoch << SLOT_BITS | Math.floorMod(epoch, (long) buckets);
		CLOCK.setOpaque(this, c);
		return c;
	}

}
