package dev.breaker.core;

import java.time.Duration;

/** The allowed range of every {@link BreakerConfig} setting, checked in {@link BreakerConfig.Builder#build()}. */
final class ConfigValidation {

    /** Most buckets a window may hold: bounds a breaker's memory. */
    static final long MAX_BUCKETS = 3600;
    /** Most concurrent half-open probes any config may allow. */
    static final int MAX_PROBES = 32;
    /** Longest bucket. */
    static final Duration MAX_BUCKET = Duration.ofHours(1);
    /**
     * Longest window, slow-call duration, open wait and half-open max wait: far beyond any useful
     * value, and far below where nanosecond arithmetic on the ticker could overflow.
     */
    static final Duration MAX_DURATION = Duration.ofHours(24);
    /** Longest idle expiry of a registry's children. */
    static final Duration MAX_IDLE_EXPIRY = Duration.ofDays(7);

    /** Largest retry budget ratio: far beyond any retry count, so the budget never overflows a long. */
    static final double MAX_RETRY_RATIO = 1000;
    /** Largest retry budget floor, per second. */
    static final double MAX_RETRIES_PER_SECOND = 1_000_000;

    private static final Duration MIN_BUCKET = Duration.ofMillis(1);

    private ConfigValidation() {
    }

    static void validate(BreakerConfig.Builder b) {
        if (b.bucket == null || b.bucket.compareTo(MIN_BUCKET) < 0) {
            throw new InvalidBreakerConfigException("bucket", b.bucket, "at least 1ms", "at least 1ms");
        }
        atMost("bucket", b.bucket, MAX_BUCKET);
        positive("window", b.window);
        atMost("window", b.window, MAX_DURATION);
        if (b.window.toNanos() % b.bucket.toNanos() != 0) {
            String allowed = "a whole multiple of 'bucket' (" + Numbers.format(b.bucket) + ")";
            throw new InvalidBreakerConfigException("window", b.window, allowed, allowed);
        }
        if (b.window.toNanos() / b.bucket.toNanos() > MAX_BUCKETS) {
            String allowed = "at most " + MAX_BUCKETS + " buckets of " + Numbers.format(b.bucket);
            throw new InvalidBreakerConfigException("window", b.window, allowed, allowed);
        }
        atLeast("consecutiveFailures", b.consecutiveFailures, 0, " (0 turns the rule off)");
        percentOrOff("failureRateThreshold", b.failureRateThreshold);
        atLeast("minimumCalls", b.minimumCalls, 1, "");
        if (!(b.minimumCallsRatio >= 0 && b.minimumCallsRatio < 1)) {
            throw new InvalidBreakerConfigException("minimumCallsRatio", b.minimumCallsRatio, "in [0, 1)",
                    "[0, 1) (0 turns it off)");
        }
        positive("slowCallDuration", b.slowCallDuration);
        atMost("slowCallDuration", b.slowCallDuration, MAX_DURATION);
        percentOrOff("slowCallRateThreshold", b.slowCallRateThreshold);
        atLeast("stallCalls", b.stallCalls, 0, " (0 turns the rule off)");
        if (b.stallCalls > 0 && b.slowCallDuration.compareTo(b.window) > 0) {
            String allowed = "at most 'window' (" + Numbers.format(b.window) + ") when 'stallCalls' is on";
            throw new InvalidBreakerConfigException("slowCallDuration", b.slowCallDuration, allowed, allowed);
        }
        if (!(b.timeoutWeight >= 0 && b.timeoutWeight <= 100)) {
            throw new InvalidBreakerConfigException("timeoutWeight", b.timeoutWeight, "in [0, 100]", "[0, 100]");
        }
        positive("openWait", b.openWait);
        atMost("openWait", b.openWait, MAX_DURATION);
        if (!(b.openWaitMultiplier >= 1 && b.openWaitMultiplier <= 1000)) {
            throw new InvalidBreakerConfigException("openWaitMultiplier", b.openWaitMultiplier, "in [1, 1000]", "[1, 1000]");
        }
        if (b.maxOpenWait == null || b.maxOpenWait.compareTo(b.openWait) < 0) {
            String allowed = "at least 'openWait' (" + Numbers.format(b.openWait) + ")";
            throw new InvalidBreakerConfigException("maxOpenWait", b.maxOpenWait, allowed, allowed);
        }
        atMost("maxOpenWait", b.maxOpenWait, MAX_DURATION);
        if (!(b.openWaitJitter >= 0 && b.openWaitJitter < 1)) {
            throw new InvalidBreakerConfigException("openWaitJitter", b.openWaitJitter, "in [0, 1)", "[0, 1)");
        }
        if (b.halfOpenMaxProbes < 1 || b.halfOpenMaxProbes > MAX_PROBES) {
            throw new InvalidBreakerConfigException("halfOpenMaxProbes", b.halfOpenMaxProbes,
                    "in [1, " + MAX_PROBES + "]", "[1, " + MAX_PROBES + "]");
        }
        atLeast("halfOpenSuccessesToClose", b.halfOpenSuccessesToClose, 1, "");
        atLeast("halfOpenFailuresToReopen", b.halfOpenFailuresToReopen, 1, "");
        positive("halfOpenMaxWait", b.halfOpenMaxWait);
        atMost("halfOpenMaxWait", b.halfOpenMaxWait, MAX_DURATION);
        if (!(b.retryBudgetRatio >= 0 && b.retryBudgetRatio <= MAX_RETRY_RATIO)) {
            throw new InvalidBreakerConfigException("retryBudgetRatio", b.retryBudgetRatio, "in [0, 1000]", "[0, 1000]");
        }
        if (!(b.retryBudgetMinPerSecond >= 0 && b.retryBudgetMinPerSecond <= MAX_RETRIES_PER_SECOND)) {
            throw new InvalidBreakerConfigException("retryBudgetMinPerSecond", b.retryBudgetMinPerSecond,
                    "in [0, 1000000]", "[0, 1000000]");
        }
        present("classifier", b.classifier);
        present("ticker", b.ticker);
        present("clock", b.clock);
    }

    /** The idle expiry of a registry's children: positive, at most {@link #MAX_IDLE_EXPIRY}. */
    static void idleExpiry(Duration idleExpiry) {
        positive("idleExpiry", idleExpiry);
        atMost("idleExpiry", idleExpiry, MAX_IDLE_EXPIRY);
    }

    private static void positive(String setting, Duration value) {
        if (value == null || value.isNegative() || value.isZero()) {
            throw new InvalidBreakerConfigException(setting, value, "positive", "> 0");
        }
    }

    private static void atMost(String setting, Duration value, Duration max) {
        if (value.compareTo(max) > 0) {
            String allowed = "at most " + Numbers.format(max);
            throw new InvalidBreakerConfigException(setting, value, allowed, allowed);
        }
    }

    private static void atLeast(String setting, int value, int min, String note) {
        if (value < min) {
            throw new InvalidBreakerConfigException(setting, value, "at least " + min + note, ">= " + min + note);
        }
    }

    private static void percentOrOff(String setting, double value) {
        if (!(value >= 0 && value <= 100)) {
            throw new InvalidBreakerConfigException(setting, value,
                    "in (0, 100] (or 0 to turn the rule off)", "(0, 100], or 0 to turn the rule off");
        }
    }

    private static void present(String setting, Object value) {
        if (value == null) {
            throw new InvalidBreakerConfigException(setting, null, "set", "not null");
        }
    }
}
