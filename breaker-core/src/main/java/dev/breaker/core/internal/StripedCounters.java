package dev.breaker.core.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A small, fixed set of monotonic counters, each striped across {@link Stripes#COUNT}
 * cells.
 */
public final class StripedCounters {

	/*
	 * Invariant: the value of counter k is the sum over stripes of cells[stripe * STRIDE
	 * + k]; cells only grow, unless a caller uses add() with a negative delta on that
	 * counter. Writers use getAndAdd (an atomic add: no update is lost even when two
	 * threads share a stripe). Each stripe owns a 128-byte block (STRIDE longs), so
	 * threads on different stripes never write the same cache line. Readers use
	 * getVolatile per cell: the sum is not a snapshot across cells, but each cell is
	 * monotonic, so a sum read later is never smaller than one read earlier by the same
	 * thread.
	 */

	private static final int STRIDE = 16;

	private static final VarHandle CELLS = MethodHandles.arrayElementVarHandle(long[].class);

	private final long[] cells;

	/** {@code counters} counters, at most 16. */
	public StripedCounters(int counters) {
		if (counters > STRIDE) {
			throw new IllegalArgumentException("at most " + STRIDE + " counters but was " + counters);
		}
		cells = new long[Stripes.COUNT * STRIDE];
	}

	/** Adds one to counter {@code k}. */
	public void increment(int k) {
		CELLS.getAndAdd(cells, Stripes.current() * STRIDE + k, 1L);
	}

	/**
	 * Adds {@code delta} to counter {@code k} (a counter that goes down too, e.g. calls
	 * in flight, is not monotonic).
	 */
	public void add(int k, long delta) {
		CELLS.getAndAdd(cells, Stripes.current() * STRIDE + k, delta);
	}

	/** The current value of counter {@code k}. */
	public long sum(int k) {
		long sum = 0;
		for (int s = 0; s < Stripes.COUNT; s++) {
			sum += (long) CELLS.getVolatile(cells, s * STRIDE + k);
		}
		return sum;
	}

}
