package dev.breaker.core.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The highest value recorded over the last hour, in twelve steps of five minutes: a value
 * is forgotten 55 to 60 minutes after it was recorded. Lock-free, allocation-free.
 */
public final class HourlyPeak {

	/*
	 * Slot i holds the highest value of one five-minute step s (s mod 12 == i) as one
	 * long: the step, offset to be positive, in the high 27 bits above the value in the
	 * low 37 bits. A nanosecond ticker spans at most 2^64 ns, about 6.1e7 steps, so the
	 * step always fits and never wraps: a tag match is a step match, and a slot untouched
	 * for any length of time reads as old. Recording CASes the slot until it holds the
	 * step with at least the value (a newer step is left alone). Values saturate at 2^37
	 * - 1. Reading takes the highest value of the slots within the last twelve steps.
	 */

	public static final long STEP_NANOS = 5L * 60 * 1_000_000_000;

	public static final int STEPS = 12;

	/** The highest value a slot holds; larger values are recorded as this. */
	public static final long MAX_VALUE = (1L << 37) - 1;

	private static final int VALUE_BITS = 37;

	/**
	 * Steps of the whole ticker range lie within +/-2^25: offset, they are positive and
	 * fit in 27 bits.
	 */
	private static final long STEP_OFFSET = 1L << 25;

	private static final VarHandle SLOTS = MethodHandles.arrayElementVarHandle(long[].class);

	private final long[] slots = new long[STEPS];

	/**
	 * Raises the value of {@code now}'s step to at least {@code value} (negative values
	 * count as 0).
	 */
	public void record(long now, long value) {
		long step = Math.floorDiv(now, STEP_NANOS);
		int slot = (int) Math.floorMod(step, (long) STEPS);
		long v = Math.max(0, Math.min(value, MAX_VALUE));
		long w;
		long next;
		do {
			w = (long) SLOTS.getVolatile(slots, slot);
			boolean empty = w == 0;
			long held = stepOf(w);
			if (!empty && held > step) {
				return; // a later step has the slot: this value is old news
			}
			next = pack(step, !empty && held == step ? Math.max(w & MAX_VALUE, v) : v);
		}
		while (next != w && !SLOTS.compareAndSet(slots, slot, w, next));
	}

	/**
	 * The highest value recorded in the last hour (the twelve steps up to {@code now}'s),
	 * 0 if none.
	 */
	public long max(long now) {
		long step = Math.floorDiv(now, STEP_NANOS);
		long max = 0;
		for (int i = 0; i < STEPS; i++) {
			long w = (long) SLOTS.getVolatile(slots, i);
			long held = stepOf(w);
			if (w != 0 && held > step - STEPS && held <= step) {
				max = Math.max(max, w & MAX_VALUE);
			}
		}
		return max;
	}

	private static long pack(long step, long value) {
		return (step + STEP_OFFSET) << VALUE_BITS | value;
	}

	private static long stepOf(long w) {
		return (w >>> VALUE_BITS) - STEP_OFFSET;
	}

}
