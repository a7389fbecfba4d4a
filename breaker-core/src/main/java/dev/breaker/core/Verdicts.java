package dev.breaker.core;

import dev.breaker.core.internal.BucketWindow;
import java.util.concurrent.ThreadLocalRandom;

/** The automatic moves of one breaker: trips after outcomes, half-open verdicts, and moves that fall due with time. */
final class Verdicts {

    /*
     * Called by the thread that made the call (or read the state). Every move goes through
     * Breaker.moveTo, whose CAS picks one winner; a loser simply sees the state the winner
     * published. The Retry-After hint is two volatile longs written together: a reader that sees a
     * torn pair takes at worst a hint one bucket too old or too new, which only shifts an open wait.
     */

    private final Breaker breaker;
    private final BreakerConfig config;
    private final TripRules rules;
    private final BucketWindow window;
    private final BreakerTotals totals;
    private final long halfOpenMaxWaitNanos;
    private volatile long hintNanos;
    private volatile long hintAt;

    Verdicts(Breaker breaker, TripRules rules, BucketWindow window, BreakerTotals totals) {
        this.breaker = breaker;
        this.config = breaker.config();
        this.rules = rules;
        this.window = window;
        this.totals = totals;
        this.halfOpenMaxWaitNanos = config.halfOpenMaxWait().toNanos();
    }

    /** After a CLOSED-generation call: the consecutive, failure-rate and slow-call-rate rules. */
    void afterCall(ClosedState closed, Outcome outcome, boolean slow, long now) {
        if (rules.isFailure(outcome)) {
            String reason = rules.consecutive(closed.failed());
            if (reason == null) {
                reason = rules.rates(window, now);
            }
            if (reason != null) {
                trip(closed, now, reason);
            }
            return;
        }
        if (outcome == Outcome.SUCCESS) {
            closed.succeeded();
        }
        if (slow && rules.slowRuleOn()) {
            String reason = rules.rates(window, now);
            if (reason != null) {
                trip(closed, now, reason);
            }
        }
    }

    /** After a probe: a slow probe fails when the slow-call rule is on; IGNORED and THROTTLED give no verdict. */
    void afterProbe(HalfOpenState halfOpen, Outcome outcome, boolean slow, long now) {
        boolean failure = rules.isFailure(outcome) || slow && rules.slowRuleOn();
        boolean success = !failure && outcome == Outcome.SUCCESS;
        if (failure) {
            totals.increment(BreakerTotals.PROBE_FAILURE);
        } else if (success) {
            totals.increment(BreakerTotals.PROBE_SUCCESS);
        }
        switch (halfOpen.finish(success, failure)) {
            case CLOSE -> breaker.moveTo(halfOpen, new ClosedState(breaker, halfOpen, now, config.clock().instant()),
                    halfOpen.successes() + " probes succeeded", false);
            case REOPEN -> trip(halfOpen, now, halfOpen.failures() + " of " + halfOpen.finished() + " probes failed");
            default -> { }
        }
    }

    void checkStall(ClosedState closed, long now) {
        String reason = rules.stall(window, closed.enteredNanos, now);
        if (reason != null) {
            trip(closed, now, reason);
        }
    }

    /** Trips a CLOSED breaker for a reason found outside its window; a breaker in any other state is left alone. */
    void tripNow(long now, String reason) {
        if (breaker.current() instanceof ClosedState closed) {
            trip(closed, now, reason);
        }
    }

    /** Remembers a Retry-After hint: a trip within one bucket from now opens for at least {@code nanos}. */
    void hint(long now, long nanos) {
        hintAt = now;
        hintNanos = nanos;
    }

    /** The current state after any due time-based move (OPEN -> HALF_OPEN, HALF_OPEN -> OPEN). */
    BreakerState settle(long now) {
        for (;;) {
            BreakerState s = breaker.current();
            if (s instanceof OpenState open && open.due(now)) {
                breaker.moveTo(open, new HalfOpenState(breaker, open, now, config.clock().instant()),
                        "open wait of " + TripRules.waitText(open.until() - open.enteredNanos) + " ended", false);
            } else if (s instanceof HalfOpenState halfOpen && now - halfOpen.enteredNanos >= halfOpenMaxWaitNanos) {
                trip(halfOpen, now, "no probe verdict within " + Numbers.format(config.halfOpenMaxWait()));
            } else {
                return s;
            }
        }
    }

    private void trip(BreakerState from, long now, String reason) {
        int streak = from.streak + 1;
        long wait = TripRules.openWaitNanos(config, streak, ThreadLocalRandom.current().nextDouble());
        long hint = hintNanos;
        if (hint > 0 && now - hintAt <= window.bucketNanos()) {
            wait = Math.max(wait, hint);
        }
        breaker.moveTo(from, new OpenState(breaker, from, streak, now, config.clock().instant(), wait), reason, false);
    }
}
