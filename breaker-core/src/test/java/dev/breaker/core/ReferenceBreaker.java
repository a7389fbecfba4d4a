package dev.breaker.core;

import java.util.ArrayList;
import java.util.List;

/**
 * An obviously-correct breaker to check the engine against: single lock, plain fields, a list of
 * every outcome since the breaker last closed, everything recomputed from scratch on every call.
 * No ramp limit matters here because the model test releases every permit at once.
 */
final class ReferenceBreaker {

    private final BreakerConfig config;
    private final long bucket;
    private final int buckets;
    private State state = State.CLOSED;
    private long enteredAt;
    private long openUntil;
    private int streak;
    private int consecutive;
    private int probeSuccesses;
    private int probeFailures;
    private final List<long[]> outcomes = new ArrayList<>(); // {time, outcome ordinal}

    ReferenceBreaker(BreakerConfig config) {
        this.config = config;
        this.bucket = config.bucket().toNanos();
        this.buckets = (int) (config.window().toNanos() / bucket);
    }

    synchronized State state(long now) {
        for (;;) {
            if (state == State.OPEN && now >= openUntil) {
                enter(State.HALF_OPEN, now);
            } else if (state == State.HALF_OPEN && now - enteredAt >= config.halfOpenMaxWait().toNanos()) {
                trip(now);
            } else {
                return state;
            }
        }
    }

    synchronized int consecutiveFailures() {
        return state == State.CLOSED ? consecutive : 0;
    }

    /** One call that ends at once with {@code outcome}; returns whether it was let through. */
    synchronized boolean call(Outcome outcome, long now) {
        State s = state(now);
        if (s == State.OPEN || s == State.FORCED_OPEN) {
            return false;
        }
        outcomes.add(new long[] {now, outcome.ordinal()});
        boolean failure = outcome == Outcome.FAILURE || outcome == Outcome.TIMEOUT && config.timeoutWeight() > 0;
        if (s == State.HALF_OPEN) {
            if (failure && ++probeFailures >= config.halfOpenFailuresToReopen()) {
                trip(now);
            } else if (outcome == Outcome.SUCCESS && ++probeSuccesses >= config.halfOpenSuccessesToClose()) {
                enter(State.CLOSED, now);
            }
        } else if (s == State.CLOSED) {
            if (outcome == Outcome.SUCCESS) {
                consecutive = 0;
            } else if (failure) {
                consecutive++;
                if (config.consecutiveFailures() > 0 && consecutive >= config.consecutiveFailures()
                        || failureRateTrips(now)) {
                    trip(now);
                }
            }
        }
        return true;
    }

    synchronized void override(State to, long now) {
        state(now);
        if (to == state && (to == State.FORCED_OPEN || to == State.DISABLED)) {
            return;
        }
        enter(to, now);
    }

    private boolean failureRateTrips(long now) {
        if (config.failureRateThreshold() == 0) {
            return false;
        }
        long current = Math.floorDiv(now, bucket);
        long s = 0, f = 0, t = 0;
        for (long[] o : outcomes) {
            long epoch = Math.floorDiv(o[0], bucket);
            if (epoch > current - buckets) {
                if (o[1] == Outcome.SUCCESS.ordinal()) s++;
                if (o[1] == Outcome.FAILURE.ordinal()) f++;
                if (o[1] == Outcome.TIMEOUT.ordinal()) t++;
            }
        }
        if (s + f + t < config.minimumCalls()) {
            return false;
        }
        double weighted = f + config.timeoutWeight() * t;
        double rate = weighted == 0 ? 0 : 100 * weighted / (s + weighted);
        return rate >= config.failureRateThreshold();
    }

    private void trip(long now) {
        streak++;
        double wait = config.openWait().toNanos() * Math.pow(config.openWaitMultiplier(), streak - 1);
        openUntil = now + (long) Math.min(wait, config.maxOpenWait().toNanos());
        state = State.OPEN;
        enteredAt = now;
    }

    private void enter(State to, long now) {
        if (to == State.CLOSED) {
            outcomes.clear();
            streak = 0;
            consecutive = 0;
        }
        probeSuccesses = 0;
        probeFailures = 0;
        state = to;
        enteredAt = now;
    }
}
