package dev.breaker.core;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.Instant;

/** CLOSED: calls flow, outcomes are recorded, the trip rules watch them. */
final class ClosedState extends BreakerState {

    /*
     * `consecutive` counts failures since the last success. A failure increments it atomically
     * (getAndAdd) so concurrent failures are all counted and exactly one thread sees the threshold
     * crossed first (the state CAS makes the trip single anyway). A success reads it (volatile read:
     * ~free) and writes 0 only when it is not 0 already, so a healthy breaker's successes do not write
     * shared memory. A success racing a failure may erase it: the rule is "consecutive" only up to
     * that race, which is what consecutive means under concurrency.
     *
     * `lastStallCheck` is the ticker value of the last stall check: opaque read/write (atomic, no
     * ordering needed); two threads may both check in the same tick, which is harmless.
     */

    private static final VarHandle CONSECUTIVE;
    private static final VarHandle LAST_STALL_CHECK;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            CONSECUTIVE = lookup.findVarHandle(ClosedState.class, "consecutive", int.class);
            LAST_STALL_CHECK = lookup.findVarHandle(ClosedState.class, "lastStallCheck", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private volatile int consecutive;
    private long lastStallCheck;

    ClosedState(Breaker owner, BreakerState previous, long now, Instant since) {
        super(owner, State.CLOSED, previous, 0, now, since, false);
        lastStallCheck = now;
    }

    /** Counts a failure; returns the consecutive failures so far. */
    int failed() {
        return (int) CONSECUTIVE.getAndAdd(this, 1) + 1;
    }

    void succeeded() {
        if (consecutive != 0) {
            consecutive = 0;
        }
    }

    int consecutive() {
        return consecutive;
    }

    /** True at most once per ticker value: whether the stall rule should be checked now. */
    boolean stallCheckDue(long now) {
        if ((long) LAST_STALL_CHECK.getOpaque(this) == now) {
            return false;
        }
        LAST_STALL_CHECK.setOpaque(this, now);
        return true;
    }
}
