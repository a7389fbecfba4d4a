package dev.breaker.core;

import dev.breaker.core.internal.LatencyWindow;
import java.time.Duration;
import java.util.Arrays;

/**
 * Call durations counted in fixed log-scale bins (four per octave, 8 µs to 73 min):
 * percentiles within about 10 %; immutable.
 */
public final class LatencyHistogram {

	/*
	 * counts[0] holds the calls too short to bin (under 8.2 µs, or 0 ns: a call the
	 * cached ticker did not see take any time), counts[1 + b] those of LatencyWindow bin
	 * b.
	 */

	private final long[] counts;

	private final long count;

	/**
	 * @param counts the calls under {@link LatencyWindow#MIN_NANOS} first, then one count
	 * per bin; kept, not copied
	 */
	LatencyHistogram(long[] counts) {
		this.counts = counts;
		long sum = 0;
		for (long c : counts) {
			sum += c;
		}
		this.count = sum;
	}

	/** The calls counted. */
	public long count() {
		return count;
	}

	/**
	 * The nearest-rank percentile: the duration that {@code fraction} of the calls took
	 * at most, within about 10 %; 0 for calls too short to time, and with no calls.
	 * @param fraction in (0, 1], e.g. 0.99
	 */
	public Duration percentile(double fraction) {
		if (!(fraction > 0 && fraction <= 1)) {
			throw new IllegalArgumentException("fraction must be in (0, 1] but was " + fraction);
		}
		return Duration.ofNanos(percentileNanos(counts, count, fraction));
	}

	/**
	 * The calls counted here and not in {@code earlier}, a histogram taken before this
	 * one from the same breaker.
	 */
	public LatencyHistogram since(LatencyHistogram earlier) {
		long[] delta = new long[counts.length];
		for (int i = 0; i < delta.length; i++) {
			delta[i] = Math.max(0, counts[i] - earlier.counts[i]);
		}
		return new LatencyHistogram(delta);
	}

	static long percentileNanos(long[] counts, long count, double fraction) {
		if (count == 0) {
			return 0;
		}
		long rank = Math.max(1, Math.min(count, (long) Math.ceil(fraction * count - 1e-9)));
		long seen = 0;
		for (int i = 0; i < counts.length; i++) {
			seen += counts[i];
			if (seen >= rank) {
				return i == 0 ? 0 : LatencyWindow.typical(i - 1);
			}
		}
		return LatencyWindow.typical(LatencyWindow.BINS - 1);
	}

	@Override
	public boolean equals(Object o) {
		return o instanceof LatencyHistogram other && Arrays.equals(counts, other.counts);
	}

	@Override
	public int hashCode() {
		return Arrays.hashCode(counts);
	}

	@Override
	public String toString() {
		return "LatencyHistogram[" + count + " calls, p50 " + Numbers.format(percentile(0.5)) + ", p99 "
				+ Numbers.format(percentile(0.99)) + "]";
	}

}
