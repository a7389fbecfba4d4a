package dev.breaker.core.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A time-based sliding window: a ring of buckets holding striped counts per kind (success, failure...),
 * recorded and read lock-free, with no allocation and no update lost when a bucket rolls over.
 */
public final class BucketWindow {

    /*
     * Layout: cells[((stripe * buckets) + bucket) * kinds + kind]; a stripe's cells are contiguous, so
     * threads on different stripes write different cache lines.
     *
     * Each cell is one long: a 32-bit epoch tag (the bucket's epoch = nanos / bucketNanos, low 31
     * bits, high bit set so a live tag is never 0) above a 32-bit signed count. Ring slot i holds
     * epochs e with e mod buckets == i. A writer CASes the whole word: if the tag is its epoch it adds,
     * otherwise (an older epoch, or 0 after clear()) it replaces the word with tag|delta. Because the
     * epoch and the count change in one CAS, there is no "zero, then add" window in which another
     * writer's increment could be wiped (the race of seed 000): every CAS either lands on the word it
     * read or retries. A displaced stale count is returned to the caller (in-flight counts fold it
     * into `ancient`, counts of finished calls simply leave the window).
     *
     * Readers use getVolatile per cell and count only cells whose tag matches the epoch that slot
     * holds inside the window, so a stale bucket reads as empty without anyone having to zero it.
     *
     * The window doubles as the cumulative totals, so a finished call costs one atomic update, not
     * two: whoever displaces a stale word (or clears one) adds its count to `folded` (getAndAdd), and
     * total() = folded + every cell. A count is always in exactly one of the two places, except
     * between the displacing CAS and its getAndAdd, when total() may read it in neither (never twice).
     *
     * `clock` caches (epoch << 12 | slot) for the current bucket to avoid two divisions per call; it
     * is read and written opaquely (atomic, no ordering needed): a stale value is detected by the
     * range check and recomputed, and any value written was correct at some instant.
     *
     * In-flight tracking (only when the stall rule is on): start adds +1 to the bucket of the start
     * time, finish adds -1 to the same bucket, or to `ancient` once that bucket has left the window.
     * Whoever displaces a stale in-flight word adds its count to `ancient` (getAndAdd), so the sum of
     * `ancient` and every in-flight cell is always the number of calls in flight (up to the instant
     * between a displacing CAS and its getAndAdd, when a reader may see one call too few).
     */

    public static final int SUCCESS = 0;
    public static final int FAILURE = 1;
    public static final int TIMEOUT = 2;
    public static final int IGNORED = 3;
    public static final int THROTTLED = 4;
    public static final int SLOW = 5;
    public static final int IN_FLIGHT = 6;

    private static final long TAG_MASK = 0xFFFF_FFFF_0000_0000L;
    private static final long COUNT_MASK = 0xFFFF_FFFFL;
    private static final int SLOT_BITS = 12;
    private static final VarHandle CELLS = MethodHandles.arrayElementVarHandle(long[].class);
    private static final VarHandle CLOCK;
    private static final VarHandle ANCIENT;
    private static final VarHandle FOLDED = MethodHandles.arrayElementVarHandle(long[].class);

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            CLOCK = lookup.findVarHandle(BucketWindow.class, "clock", long.class);
            ANCIENT = lookup.findVarHandle(BucketWindow.class, "ancient", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final long bucketNanos;
    private final int buckets;
    private final int kinds;
    private final int stripeMask;
    private final long[] cells;
    /** Per finished-call kind: counts that left the cells (displaced by a newer bucket, or cleared). */
    private final long[] folded = new long[IN_FLIGHT];
    private long clock;
    private long ancient;

    /**
     * @param bucketNanos length of a bucket
     * @param buckets number of buckets, at most 4095
     * @param trackInFlight whether {@link #start}/{@link #finish} are used (costs one more count per bucket)
     */
    public BucketWindow(long bucketNanos, int buckets, boolean trackInFlight) {
        this(bucketNanos, buckets, trackInFlight, Stripes.COUNT);
    }

    /** With {@code stripes} (a power of two, at most {@link Stripes#COUNT}) stripes; 1 makes every writer contend. */
    BucketWindow(long bucketNanos, int buckets, boolean trackInFlight, int stripes) {
        if (Integer.bitCount(stripes) != 1 || stripes > Stripes.COUNT) {
            throw new IllegalArgumentException("stripes must be a power of two <= " + Stripes.COUNT + " but was " + stripes);
        }
        if (buckets < 1 || buckets >= 1 << SLOT_BITS) {
            throw new IllegalArgumentException("buckets must be in [1, 4095] but was " + buckets);
        }
        this.bucketNanos = bucketNanos;
        this.buckets = buckets;
        this.kinds = trackInFlight ? IN_FLIGHT + 1 : IN_FLIGHT;
        this.stripeMask = stripes - 1;
        this.cells = new long[stripes * buckets * kinds];
    }

    public long bucketNanos() {
        return bucketNanos;
    }

    public int buckets() {
        return buckets;
    }

    /** The epoch (bucket number since the ticker's origin) of instant {@code now}. */
    public long epoch(long now) {
        return clock(now) >> SLOT_BITS;
    }

    /** Counts one finished call of {@code kind} at {@code now}. */
    public void record(int kind, long now) {
        long c = clock(now);
        int displaced = bump(cell(stripe(), (int) (c & (1 << SLOT_BITS) - 1), kind), tag(c >> SLOT_BITS), 1);
        if (displaced != 0) {
            FOLDED.getAndAdd(folded, kind, (long) displaced);
        }
    }

    /**
     * Every call of {@code kind} ever recorded (not only in the window): the folded counts plus every
     * cell, live or stale. Reads `folded` before the cells, so a count moving from a cell to `folded`
     * meanwhile is missed, never counted twice: the result may lag by that count, never exceed the truth.
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

    /** Marks a call as started at {@code now}; pair with {@link #finish}. */
    public void start(long now) {
        long c = clock(now);
        fold(bump(cell(stripe(), (int) (c & (1 << SLOT_BITS) - 1), IN_FLIGHT), tag(c >> SLOT_BITS), 1));
    }

    /** Marks a call that started at {@code startNanos} as finished at {@code now}. */
    public void finish(long startNanos, long now) {
        long current = epoch(now);
        long started = Math.min(Math.floorDiv(startNanos, bucketNanos), current);
        if (started <= current - buckets) {
            ANCIENT.getAndAdd(this, -1L);
            return;
        }
        int slot = (int) Math.floorMod(started, (long) buckets);
        fold(bump(cell(stripe(), slot, IN_FLIGHT), tag(started), -1));
    }

    /** Finished calls of {@code kind} in the window ending at {@code now}. */
    public long sum(int kind, long now) {
        long current = epoch(now);
        long sum = 0;
        for (long e = current - buckets + 1; e <= current; e++) {
            sum += count(kind, e);
        }
        return sum;
    }

    /** Calls of {@code kind} in bucket {@code epoch} (0 once that bucket has left the window). */
    public long count(int kind, long epoch) {
        int slot = (int) Math.floorMod(epoch, (long) buckets);
        long tag = tag(epoch);
        long sum = 0;
        for (int s = 0; s <= stripeMask; s++) {
            long w = (long) CELLS.getVolatile(cells, cell(s, slot, kind));
            if ((w & TAG_MASK) == tag) {
                sum += (int) w;
            }
        }
        return sum;
    }

    /** Calls in flight now (0 unless in-flight tracking is on). */
    public long inFlight() {
        if (kinds <= IN_FLIGHT) {
            return 0;
        }
        long sum = (long) ANCIENT.getVolatile(this);
        for (int b = 0; b < buckets; b++) {
            for (int s = 0; s <= stripeMask; s++) {
                sum += (int) (long) CELLS.getVolatile(cells, cell(s, b, IN_FLIGHT));
            }
        }
        return Math.max(0, sum);
    }

    /**
     * Calls still in flight that started in a bucket ending at or before {@code cutoff} and not in a
     * bucket before the one holding {@code since}: the calls of the current state running longer than
     * now - cutoff, counted one bucket conservatively (a call may be counted up to a bucket late).
     */
    public long inFlightStartedBefore(long cutoff, long since, long now) {
        if (kinds <= IN_FLIGHT) {
            return 0;
        }
        long current = epoch(now);
        long oldest = current - buckets + 1;
        long sinceEpoch = Math.floorDiv(since, bucketNanos);
        boolean olderCount = sinceEpoch < oldest;
        long sum = olderCount ? (long) ANCIENT.getVolatile(this) : 0;
        for (long e = oldest; e <= current; e++) {
            int slot = (int) Math.floorMod(e, (long) buckets);
            long tag = tag(e);
            boolean counted = e >= sinceEpoch && (e + 1) * bucketNanos <= cutoff;
            for (int s = 0; s <= stripeMask; s++) {
                long w = (long) CELLS.getVolatile(cells, cell(s, slot, IN_FLIGHT));
                if ((w & TAG_MASK) == tag ? counted : olderCount) {
                    sum += (int) w;
                }
            }
        }
        return Math.max(0, sum);
    }

    /** Empties the window of finished calls (kept in {@link #total}); in-flight counts stay: those calls still run. */
    public void clear() {
        for (int s = 0; s <= stripeMask; s++) {
            for (int b = 0; b < buckets; b++) {
                for (int k = 0; k < IN_FLIGHT; k++) {
                    int count = (int) (long) CELLS.getAndSet(cells, cell(s, b, k), 0L);
                    if (count != 0) {
                        FOLDED.getAndAdd(folded, k, (long) count);
                    }
                }
            }
        }
    }

    private int stripe() {
        return Stripes.current() & stripeMask;
    }

    private int cell(int stripe, int slot, int kind) {
        return (stripe * buckets + slot) * kinds + kind;
    }

    private static long tag(long epoch) {
        return ((epoch & 0x7FFF_FFFFL) | 0x8000_0000L) << 32;
    }

    /** Adds delta to the cell for the epoch of {@code tag}; returns the count of a stale word it displaced. */
    private int bump(int i, long tag, int delta) {
        for (;;) {
            long w = (long) CELLS.getVolatile(cells, i);
            boolean same = (w & TAG_MASK) == tag;
            long next = tag | ((same ? (int) w : 0) + delta) & COUNT_MASK;
            if (CELLS.compareAndSet(cells, i, w, next)) {
                return same ? 0 : (int) w;
            }
        }
    }

    private void fold(int displaced) {
        if (displaced != 0) {
            ANCIENT.getAndAdd(this, (long) displaced);
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
