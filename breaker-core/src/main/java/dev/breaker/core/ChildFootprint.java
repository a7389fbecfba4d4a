package dev.breaker.core;

import dev.breaker.core.internal.BucketWindow;
import dev.breaker.core.internal.LatencyWindow;
import dev.breaker.core.internal.Stripes;

/**
 * How many bytes one registry child (a tenant of a group, a host of the HTTP breakers)
 * takes, from its {@link BreakerConfig}: what a policy's {@code maxEntries} multiplies,
 * so that start-up can refuse a group whose children could fill the heap.
 *
 * <p>
 * An upper estimate for a 64-bit JVM with compressed references (the default below a 32
 * GiB heap; without them a breaker takes 4 to 7 % more): measured allocation lies within
 * it and at most {@link #SLACK_BYTES} below it ({@code ChildFootprintTests}). It grows
 * with the window's buckets ({@code window / bucket}): each bucket of the count window
 * holds {@value BucketWindow#FINISHED_KINDS} longs per stripe.
 */
public final class ChildFootprint {

	/**
	 * Everything a child holds whatever its window: the breaker, its state, totals,
	 * verdicts, rules, the exception and ticket it reuses for rejections (measured, with
	 * room for the JIT's run-to-run variation).
	 */
	static final long FIXED_BYTES = 1_950;

	/**
	 * The histograms a breaker that records latency holds whatever its window: the
	 * cumulative totals, the metrics' buckets per outcome and the window's fixed arrays.
	 */
	static final long LATENCY_FIXED_BYTES = 1_950;

	/**
	 * A {@link BucketWindow} besides its cells: its fields, its lock and its folded
	 * counts.
	 */
	static final long WINDOW_OBJECT_BYTES = 160;

	/** How far below the estimate a measured size may lie. */
	static final long SLACK_BYTES = 512;

	private static final long ARRAY_HEADER = 16;

	private ChildFootprint() {
	}

	/**
	 * The bytes one child of {@code config} takes.
	 * @param config the child's configuration
	 * @param consultsParent whether the child consults its parent (then its parent, not
	 * the child, records latency)
	 * @return an upper estimate of its bytes
	 */
	public static long bytes(BreakerConfig config, boolean consultsParent) {
		int buckets = buckets(config);
		long bytes = FIXED_BYTES + windowBytes(config);
		if (config.stallCalls() > 0) {
			// calls in flight: one bucket more than the window, one kind
			bytes += WINDOW_OBJECT_BYTES + longArray((long) Stripes.COUNT * (buckets + 1));
		}
		if (config.recordLatency() && !consultsParent) {
			// LatencyWindow's slots: groups of buckets, at most MAX_SLOTS
			int group = (buckets + LatencyWindow.MAX_SLOTS - 1) / LatencyWindow.MAX_SLOTS;
			int slots = (buckets + group - 1) / group;
			bytes += LATENCY_FIXED_BYTES + intArray((long) slots * LatencyWindow.BINS) + 2 * longArray(slots);
		}
		return bytes;
	}

	/**
	 * The bytes of the count window of a breaker of {@code config}: {@code 16 + 8 x 4
	 * stripes x buckets x 6 kinds}.
	 * @param config the breaker's configuration
	 * @return the bytes of its window's cells
	 */
	public static long windowBytes(BreakerConfig config) {
		return longArray((long) Stripes.COUNT * buckets(config) * BucketWindow.FINISHED_KINDS);
	}

	private static int buckets(BreakerConfig config) {
		return (int) (config.window().toNanos() / config.bucket().toNanos());
	}

	private static long longArray(long length) {
		return ARRAY_HEADER + 8 * length;
	}

	private static long intArray(long length) {
		return (ARRAY_HEADER + 4 * length + 7) & ~7L;
	}

}
