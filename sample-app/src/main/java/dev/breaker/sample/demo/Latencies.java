package dev.breaker.sample.demo;

import java.util.Arrays;

/** Percentiles of a set of latencies (nearest-rank), in milliseconds. */
final class Latencies {

	private long[] nanos = new long[256];

	private int size;

	void add(long latencyNanos) {
		if (this.size == this.nanos.length) {
			this.nanos = Arrays.copyOf(this.nanos, this.size * 2);
		}
		this.nanos[this.size++] = latencyNanos;
	}

	int count() {
		return this.size;
	}

	/**
	 * The latency under which {@code percent} % of them fall, in ms; -1 when there are
	 * none.
	 */
	double percentileMillis(double percent) {
		if (this.size == 0) {
			return -1;
		}
		long[] sorted = Arrays.copyOf(this.nanos, this.size);
		Arrays.sort(sorted);
		int rank = (int) Math.ceil(percent / 100.0 * this.size);
		return sorted[Math.max(0, Math.min(this.size, rank) - 1)] / 1_000_000.0;
	}

	/**
	 * As {@link #percentileMillis} but formatted for a fixed-width column, e.g.
	 * {@code "  12"} or {@code "   -"}.
	 */
	String format(double percent, int width) {
		double millis = percentileMillis(percent);
		if (millis < 0) {
			return String.format("%" + width + "s", "-");
		}
		return (millis < 10) ? String.format("%" + width + ".1f", millis) : String.format("%" + width + ".0f", millis);
	}

}
