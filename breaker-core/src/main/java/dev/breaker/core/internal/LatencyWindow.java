package dev.breaker.core.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A time-based sliding window of call durations: per bucket, a fixed log-scale histogram,
 * recorded and read lock-free with no allocation; it also keeps the histogram of every
 * duration ever recorded.
 */
public final class LatencyWindow {

	/*
	 * Bins. Bin b holds durations in [lower(b), upper(b)): four bins per octave, from
	 * 2^13 ns (8.2 µs) to 2^42 ns (73 min), each 2^(1/4) = 1.19 times as wide at its top
	 * as at its bottom, so its geometric middle is within 9.1 % of every duration in it
	 * (typical() rounds that middle to three significant digits). The last bin also takes
	 * everything longer. A duration under 2^13 ns is not recorded at all: whoever reads
	 * the window knows how many calls it had and counts the missing ones as "under 8 µs".
	 * So a fast call, and every call the cached ticker sees as taking 0 ns, writes
	 * nothing here.
	 *
	 * Slots. The window has the count window's buckets, at most MAX_SLOTS: a window of
	 * more buckets is kept in slots of several buckets each (the histogram is
	 * observational, no trip rule reads it, and 116 counts per slot are what a breaker's
	 * memory must stay small against). Slot s holds the slot epoch e (now / slotNanos,
	 * plus the caller's era) with e mod slots == s; `epochs[s]` says which, as 2e, or 2e
	 * + 1 while it is being drained, or NONE. A writer of epoch e, after reading
	 * epochs[s]: - 2e: adds to its bin (getAndAdd) and raises the slot's max (CAS while
	 * larger); - a later epoch, or draining: the writer is late, or racing the drain: its
	 * count goes straight to `folded` (the total keeps it, the window does not show it);
	 * - an earlier epoch: CASes it to 2e + 1 and, alone now, zeroes the max, then takes
	 * every bin with getAndSet(0) and adds what it held to `folded`, then publishes 2e
	 * and writes as above. Nobody waits for anybody (a drainer that stalls only makes the
	 * others fold). A count is always in a cell or in `folded`, never in both; only
	 * between a getAndSet and its add to `folded` can a reader of total() miss it, never
	 * count it twice. A writer that read 2e and adds after its slot was drained for a
	 * later epoch leaves its count in that later bucket: a count shown one ring late, not
	 * lost. A cell that reaches 2^30 is emptied into `folded` by the writer that saw it,
	 * so no count wraps.
	 *
	 * Readers read epochs[s], then the bins, with getVolatile; a slot whose header is not
	 * the epoch the reader wants reads as empty, so nothing has to zero a stale slot.
	 */

	/**
	 * Bins of a histogram: four per octave from {@link #MIN_NANOS} to 2^42 ns (73 min).
	 */
	public static final int BINS = 116;

	/** The shortest duration binned: 2^13 ns (8.2 µs). */
	public static final long MIN_NANOS = 1L << 13;

	/** Most slots a window keeps; a window of more buckets groups them. */
	public static final int MAX_SLOTS = 20;

	private static final int FIRST_OCTAVE = 13;

	private static final long NONE = Long.MIN_VALUE;

	private static final int SPILL = 1 << 30;

	private static final long[] LOWER = new long[BINS + 1];

	private static final long[] TYPICAL = new long[BINS];

	private static final VarHandle LONGS = MethodHandles.arrayElementVarHandle(long[].class);

	private static final VarHandle INTS = MethodHandles.arrayElementVarHandle(int[].class);

	static {
		for (int b = 0; b <= BINS; b++) {
			LOWER[b] = Math.round(Math.pow(2, FIRST_OCTAVE + b / 4.0));
		}
		for (int b = 0; b < BINS; b++) {
			TYPICAL[b] = threeDigits(Math.sqrt((double) LOWER[b] * LOWER[b + 1]));
		}
	}

	private final long slotNanos;

	private final int slots;

	private final long[] epochs;

	private final int[] counts;

	private final long[] max;

	private final long[] folded = new long[BINS];

	/**
	 * @param bucketNanos the length of one bucket of the count window
	 * @param buckets the count window's buckets; more than {@link #MAX_SLOTS} are grouped
	 * into slots
	 */
	public LatencyWindow(long bucketNanos, int buckets) {
		if (buckets < 1 || bucketNanos < 1) {
			throw new IllegalArgumentException(
					"buckets and bucketNanos must be positive but were " + buckets + " and " + bucketNanos);
		}
		int group = (buckets + MAX_SLOTS - 1) / MAX_SLOTS;
		this.slotNanos = bucketNanos * group;
		this.slots = (buckets + group - 1) / group;
		this.epochs = new long[slots];
		java.util.Arrays.fill(epochs, NONE);
		this.counts = new int[slots * BINS];
		this.max = new long[slots];
	}

	/** The bin of a duration, or -1 for one shorter than {@link #MIN_NANOS}. */
	public static int bin(long nanos) {
		if (nanos < MIN_NANOS) {
			return -1;
		}
		int octave = 63 - Long.numberOfLeadingZeros(nanos);
		int b = (octave - FIRST_OCTAVE) * 4;
		if (b >= BINS) {
			return BINS - 1;
		}
		if (nanos >= LOWER[b + 2]) {
			return nanos >= LOWER[b + 3] ? b + 3 : b + 2;
		}
		return nanos >= LOWER[b + 1] ? b + 1 : b;
	}

	/** The shortest duration of bin {@code b}, nanos. */
	public static long lower(int b) {
		return LOWER[b];
	}

	/**
	 * The end (exclusive) of bin {@code b}, nanos; the last bin also holds everything
	 * longer.
	 */
	public static long upper(int b) {
		return LOWER[b + 1];
	}

	/**
	 * The duration that stands for bin {@code b}: its geometric middle to three
	 * significant digits, nanos.
	 */
	public static long typical(int b) {
		return TYPICAL[b];
	}

	/** Length of one slot: the count window's bucket, or a group of them. */
	public long slotNanos() {
		return slotNanos;
	}

	public int slots() {
		return slots;
	}

	/**
	 * Records a call of {@code nanos} that finished at {@code now}, in {@code era}; one
	 * under {@link #MIN_NANOS} is not recorded.
	 */
	public void record(long nanos, long now, long era) {
		int bin = bin(nanos);
		if (bin < 0) {
			return;
		}
		long epoch = Math.floorDiv(now, slotNanos) + era;
		int slot = (int) Math.floorMod(epoch, (long) slots);
		long want = epoch << 1;
		for (;;) {
			long h = (long) LONGS.getVolatile(epochs, slot);
			if (h == want) {
				add(slot, bin);
				raiseMax(slot, nanos);
				return;
			}
			if ((h & 1) != 0 || h >> 1 > epoch) {
				LONGS.getAndAdd(folded, bin, 1L);
				return;
			}
			if (LONGS.compareAndSet(epochs, slot, h, want | 1)) {
				drain(slot);
				LONGS.setVolatile(epochs, slot, want);
			}
		}
	}

	/**
	 * Counts a call of {@code nanos} in the total only (a call the window must not show);
	 * one under {@link #MIN_NANOS} is not recorded.
	 */
	public void fold(long nanos) {
		int bin = bin(nanos);
		if (bin >= 0) {
			LONGS.getAndAdd(folded, bin, 1L);
		}
	}

	/**
	 * Adds the counts of the window of {@code era} ending at {@code now} into
	 * {@code bins} (one per bin) and returns the longest duration recorded in it (0 with
	 * none).
	 */
	public long read(long now, long era, long[] bins) {
		long current = Math.floorDiv(now, slotNanos) + era;
		long longest = 0;
		for (long e = current - slots + 1; e <= current; e++) {
			int slot = (int) Math.floorMod(e, (long) slots);
			if ((long) LONGS.getVolatile(epochs, slot) != e << 1) {
				continue;
			}
			for (int b = 0; b < BINS; b++) {
				bins[b] += (int) INTS.getVolatile(counts, slot * BINS + b);
			}
			longest = Math.max(longest, (long) LONGS.getVolatile(max, slot));
		}
		return longest;
	}

	/**
	 * Every call ever recorded (or folded) in bin {@code b}. Reads `folded` before the
	 * cells, so a count moving from a cell to `folded` meanwhile is missed, never counted
	 * twice.
	 */
	public long total(int b) {
		long sum = (long) LONGS.getVolatile(folded, b);
		for (int s = 0; s < slots; s++) {
			sum += (int) INTS.getVolatile(counts, s * BINS + b);
		}
		return sum;
	}

	private void add(int slot, int bin) {
		int i = slot * BINS + bin;
		if ((int) INTS.getAndAdd(counts, i, 1) >= SPILL) {
			LONGS.getAndAdd(folded, bin, (long) (int) INTS.getAndSet(counts, i, 0));
		}
	}

	private void raiseMax(int slot, long nanos) {
		for (;;) {
			long m = (long) LONGS.getVolatile(max, slot);
			if (nanos <= m || LONGS.compareAndSet(max, slot, m, nanos)) {
				return;
			}
		}
	}

	/**
	 * Empties slot {@code slot} into `folded`; only the writer that marked it draining
	 * calls this.
	 */
	private void drain(int slot) {
		LONGS.setVolatile(max, slot, 0L);
		for (int b = 0; b < BINS; b++) {
			int held = (int) INTS.getAndSet(counts, slot * BINS + b, 0);
			if (held != 0) {
				LONGS.getAndAdd(folded, b, (long) held);
			}
		}
	}

	private static long threeDigits(double v) {
		double scale = Math.pow(10, Math.floor(Math.log10(v)) - 2);
		return Math.round(Math.round(v / scale) * scale);
	}

}
