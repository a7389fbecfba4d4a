package dev.breaker.core;

import dev.breaker.core.internal.LatencyWindow;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * The call durations of one breaker: the window's histograms for the snapshot, cumulative
 * ones for metrics.
 */
final class Latencies implements CallDurations {

	/*
	 * Recording. A call shorter than SHORTEST (500 ns: it adds 0 µs to any sum, and is
	 * too short for any bin or bound) writes nothing: so the closed path of a call the
	 * cached ticker saw take 0 ns costs one compare. A longer one writes its bin of the
	 * window (LatencyWindow, or only its total when the call's state has already been
	 * left: see Breaker#releaseOwn), adds its microseconds to its outcome's sum, and,
	 * when it is longer than the first bound, counts in its outcome's bucket: one
	 * getAndAdd each (unstriped: a timed call lasts microseconds at least, a contended
	 * add 100 ns).
	 *
	 * Reading. Nobody counts the calls under the first bound: count(o, i) is the
	 * outcome's total calls (Totals, already counted once per call, before its bucket)
	 * minus the calls in the buckets above i. The total is read first, then the buckets,
	 * so a reading is off by the calls finishing meanwhile (too low) or between their
	 * count and their bucket (too high, at most one per thread). Every read computes all
	 * the outcome's bounds from one reading, ordered by bound, and each (outcome, bound)
	 * keeps the highest value reported so far (`reported`, made on the first read): so a
	 * count never goes down, and count(o, i) <= count(o, i + 1) whenever they are read in
	 * that order (the maximum of ordered readings is ordered).
	 */

	/** The bounds every breaker has; its slow-call duration joins them. */
	private static final long[] STANDARD_BOUNDS = { millis(1), micros(2_500), millis(5), millis(10), millis(25),
			millis(50), millis(100), millis(250), millis(500), millis(1_000), millis(2_500), millis(5_000),
			millis(10_000), millis(30_000), millis(60_000) };

	private static final long SHORTEST = 500;

	private static final long LONGEST = Duration.ofHours(24).toNanos();

	private static final int OUTCOMES = Outcome.values().length;

	private static final VarHandle LONGS = MethodHandles.arrayElementVarHandle(long[].class);

	private static final VarHandle REPORTED;

	static {
		try {
			REPORTED = MethodHandles.lookup().findVarHandle(Latencies.class, "reported", AtomicLongArray.class);
		}
		catch (ReflectiveOperationException e) {
			throw new ExceptionInInitializerError(e);
		}
	}

	private final LatencyWindow window;

	private final BreakerTotals totals;

	private final long[] bounds;

	/**
	 * Per outcome, the calls above bounds[0]: [o * n + i - 1] holds (bounds[i - 1],
	 * bounds[i]], the last one everything longer.
	 */
	private final long[] buckets;

	private final long[] micros = new long[OUTCOMES];

	private volatile AtomicLongArray reported;

	Latencies(BreakerConfig config, BreakerTotals totals) {
		long bucketNanos = config.bucket().toNanos();
		this.window = new LatencyWindow(bucketNanos, (int) (config.window().toNanos() / bucketNanos));
		this.totals = totals;
		this.bounds = bounds(config.slowCallDuration().toNanos());
		this.buckets = new long[OUTCOMES * bounds.length];
	}

	private static long[] bounds(long slow) {
		int at = Arrays.binarySearch(STANDARD_BOUNDS, slow);
		if (at >= 0) {
			return STANDARD_BOUNDS;
		}
		int insert = -at - 1;
		long[] bounds = new long[STANDARD_BOUNDS.length + 1];
		System.arraycopy(STANDARD_BOUNDS, 0, bounds, 0, insert);
		bounds[insert] = slow;
		System.arraycopy(STANDARD_BOUNDS, insert, bounds, insert + 1, STANDARD_BOUNDS.length - insert);
		return bounds;
	}

	/**
	 * A call of the state the window shows: in the window and the cumulative histograms.
	 */
	void record(Outcome outcome, long nanos, long now, long era) {
		if (nanos < SHORTEST) {
			return;
		}
		window.record(nanos, now, era);
		cumulative(outcome, nanos);
	}

	/** A call of a state already left: in the cumulative histograms only. */
	void stale(Outcome outcome, long nanos) {
		if (nanos < SHORTEST) {
			return;
		}
		window.fold(nanos);
		cumulative(outcome, nanos);
	}

	private void cumulative(Outcome outcome, long nanos) {
		long bounded = Math.min(nanos, LONGEST);
		LONGS.getAndAdd(micros, outcome.ordinal(), (bounded + 500) / 1000);
		if (bounded > bounds[0]) {
			int at = Arrays.binarySearch(bounds, bounded);
			int bucket = at >= 0 ? at : -at - 1;
			LONGS.getAndAdd(buckets, outcome.ordinal() * bounds.length + bucket - 1, 1L);
		}
	}

	/**
	 * The window's percentiles; {@code calls} is how many calls the count window holds
	 * (the unbinned ones among them).
	 */
	Snapshot.Latency snapshot(long now, long era, long calls) {
		long[] counts = new long[LatencyWindow.BINS + 1];
		long[] bins = new long[LatencyWindow.BINS];
		long max = window.read(now, era, bins);
		long binned = 0;
		for (int b = 0; b < bins.length; b++) {
			counts[b + 1] = bins[b];
			binned += bins[b];
		}
		counts[0] = Math.max(0, calls - binned);
		long count = counts[0] + binned;
		return new Snapshot.Latency(percentile(counts, count, 0.5), percentile(counts, count, 0.9),
				percentile(counts, count, 0.99), percentile(counts, count, 0.999), Duration.ofNanos(max));
	}

	private static Duration percentile(long[] counts, long count, double fraction) {
		return Duration.ofNanos(LatencyHistogram.percentileNanos(counts, count, fraction));
	}

	@Override
	public List<Duration> bounds() {
		List<Duration> list = new ArrayList<>(bounds.length);
		for (long b : bounds) {
			list.add(Duration.ofNanos(b));
		}
		return List.copyOf(list);
	}

	@Override
	public long count(Outcome outcome, int bound) {
		if (bound < 0 || bound > bounds.length) {
			throw new IndexOutOfBoundsException("bound " + bound + " of " + bounds.length + " bounds");
		}
		int o = outcome.ordinal();
		long all = totals.calls(outcome);
		long[] above = new long[bounds.length];
		long longer = 0;
		for (int i = 0; i < bounds.length; i++) {
			above[i] = (long) LONGS.getVolatile(buckets, o * bounds.length + i);
			longer += above[i];
		}
		// every bound from one reading, ascending, so the highest values reported stay
		// ordered by bound
		AtomicLongArray reported = reported();
		long asked = all;
		long under = all - longer;
		for (int i = 0; i < bounds.length; i++) {
			long r = reported.accumulateAndGet(o * bounds.length + i, Math.max(0, under), Math::max);
			if (i == bound) {
				asked = r;
			}
			under += above[i];
		}
		return asked;
	}

	private AtomicLongArray reported() {
		AtomicLongArray r = reported;
		if (r == null) {
			REPORTED.compareAndSet(this, null, new AtomicLongArray(OUTCOMES * bounds.length));
			r = reported;
		}
		return r;
	}

	@Override
	public double totalSeconds(Outcome outcome) {
		return (long) LONGS.getVolatile(micros, outcome.ordinal()) / 1e6;
	}

	@Override
	public LatencyHistogram histogram() {
		long[] counts = new long[LatencyWindow.BINS + 1];
		long binned = 0;
		for (int b = 0; b < LatencyWindow.BINS; b++) {
			counts[b + 1] = window.total(b);
			binned += counts[b + 1];
		}
		long calls = 0;
		for (Outcome outcome : Outcome.values()) {
			calls += totals.calls(outcome);
		}
		counts[0] = Math.max(0, calls - binned);
		return new LatencyHistogram(counts);
	}

	private static long millis(long ms) {
		return ms * 1_000_000;
	}

	private static long micros(long us) {
		return us * 1_000;
	}

}
