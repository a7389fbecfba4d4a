package dev.breaker.core;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Duration;

/**
 * How numbers and durations read in messages and transition reasons, everywhere in
 * breaker: {@code 50}, {@code 62.5}, {@code 30s}, {@code 1m}, {@code 1.000001ms}.
 * Durations are always exact; {@link #format(double)} rounds (for rates in reasons),
 * {@link #exact(double)} never does (for the values users gave),
 * {@link #asProperty(Duration)} writes a duration as a Spring Boot property value.
 */
public final class Numbers {

	private Numbers() {
	}

	/**
	 * A finite double with at most one decimal and no trailing zero: 120.0 reads "120",
	 * 62.53 reads "62.5".
	 */
	public static String format(double d) {
		return BigDecimal.valueOf(d).setScale(1, RoundingMode.HALF_UP).stripTrailingZeros().toPlainString();
	}

	/** A double exactly as given, without a trailing ".0": 0.99, 100.04, 120, 1.0E300. */
	public static String exact(double d) {
		double abs = Math.abs(d);
		if (Double.isNaN(d) || Double.isInfinite(d) || abs != 0 && (abs < 1e-7 || abs >= 1e16)) {
			return Double.toString(d);
		}
		return BigDecimal.valueOf(d).stripTrailingZeros().toPlainString();
	}

	/**
	 * A duration, exactly, the way an operator writes it: 250ms, 1.000001ms, 999999ns,
	 * 2s, 1.5s, 1m, 1m30s, 2h, 24h0.000000001s; ISO-8601 when negative.
	 */
	public static String format(Duration d) {
		if (d.isNegative()) {
			return d.toString();
		}
		long seconds = d.getSeconds();
		int nanos = d.getNano();
		if (seconds == 0) {
			if (nanos == 0) {
				return "0ms";
			}
			if (nanos < 1_000_000) {
				return nanos + "ns";
			}
			return decimal(nanos / 1_000_000, nanos % 1_000_000, 6) + "ms";
		}
		long h = seconds / 3600;
		long m = seconds / 60 % 60;
		long s = seconds % 60;
		StringBuilder out = new StringBuilder();
		if (h > 0) {
			out.append(h).append('h');
		}
		if (m > 0) {
			out.append(m).append('m');
		}
		if (s > 0 || nanos > 0) {
			out.append(decimal(s, nanos, 9)).append('s');
		}
		return out.toString();
	}

	/**
	 * A duration the way a user writes it in {@code application.properties}, in the one
	 * unit that states it exactly: {@code 0s}, {@code -1s}, {@code -200ms}, {@code 90s},
	 * {@code 1500ms}, {@code 5m}, {@code 2h}, {@code 10ns}; ISO-8601 when its nanoseconds
	 * overflow a long.
	 */
	public static String asProperty(Duration d) {
		long nanos;
		try {
			nanos = d.toNanos();
		}
		catch (ArithmeticException tooLong) {
			return d.toString();
		}
		long seconds = nanos / 1_000_000_000L;
		boolean wholeSeconds = nanos % 1_000_000_000L == 0;
		if (wholeSeconds && seconds != 0 && seconds % 3600 == 0) {
			return (seconds / 3600) + "h";
		}
		if (wholeSeconds && seconds != 0 && seconds % 60 == 0) {
			return (seconds / 60) + "m";
		}
		if (wholeSeconds) {
			return seconds + "s";
		}
		if (nanos % 1_000_000L == 0) {
			return (nanos / 1_000_000L) + "ms";
		}
		return nanos + "ns";
	}

	/**
	 * {@code whole.fraction} with the fraction's {@code digits} digits, trailing zeros
	 * dropped.
	 */
	private static String decimal(long whole, long fraction, int digits) {
		if (fraction == 0) {
			return Long.toString(whole);
		}
		String f = String.format("%0" + digits + "d", fraction).replaceAll("0+$", "");
		return whole + "." + f;
	}

	/**
	 * Nanoseconds of {@code d}, saturated at Long.MAX_VALUE / Long.MIN_VALUE instead of
	 * overflowing (as {@link Duration#toNanos()} does past 292 years).
	 * @param d a duration
	 * @return its nanoseconds, saturated
	 */
	public static long saturatedNanos(Duration d) {
		try {
			return d.toNanos();
		}
		catch (ArithmeticException tooLong) {
			return d.isNegative() ? Long.MIN_VALUE : Long.MAX_VALUE;
		}
	}

}
