package dev.breaker.core;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Duration;

/** How numbers and durations read in messages and transition reasons: {@code 50}, {@code 62.5}, {@code 30s}, {@code 1m}. */
final class Numbers {

    private Numbers() {
    }

    /** A double with at most one decimal and no trailing zero: 120.0 reads "120", 62.53 reads "62.5". */
    static String format(double d) {
        if (Double.isNaN(d) || Double.isInfinite(d)) {
            return Double.toString(d);
        }
        return BigDecimal.valueOf(d).setScale(1, RoundingMode.HALF_UP).stripTrailingZeros().toPlainString();
    }

    /** A duration the way an operator writes it: 250ms, 2s, 1.5s, 1m, 1m30s, 2h; ISO-8601 when negative. */
    static String format(Duration d) {
        if (d.isNegative()) {
            return d.toString();
        }
        long ms = d.toMillis();
        if (ms == 0 && !d.isZero()) {
            return d.toNanos() + "ns";
        }
        if (ms < 1000) {
            return ms + "ms";
        }
        long h = ms / 3_600_000;
        long m = ms / 60_000 % 60;
        long s = ms / 1000 % 60;
        long rest = ms % 1000;
        StringBuilder out = new StringBuilder();
        if (h > 0) {
            out.append(h).append('h');
        }
        if (m > 0) {
            out.append(m).append('m');
        }
        if (s > 0 || rest > 0) {
            out.append(s);
            if (rest > 0) {
                out.append('.').append(String.format("%03d", rest).replaceAll("0+$", ""));
            }
            out.append('s');
        }
        return out.toString();
    }
}
