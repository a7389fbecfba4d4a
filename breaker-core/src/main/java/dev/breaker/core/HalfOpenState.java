package dev.breaker.core;

import java.time.Instant;

/**
 * HALF_OPEN: a ramping number of concurrent probes (1, then 2, 4... up to the maximum as probes
 * succeed) decides: enough successes close the breaker, enough failures reopen it.
 */
final class HalfOpenState extends BreakerState {

    /*
     * All counters are guarded by this object's monitor: half-open is a short episode with few calls,
     * so a lock costs nothing that matters and makes "never more probes in flight than the limit"
     * obvious. The breaker reads the verdict under the lock and makes the transition after releasing
     * it, so no listener ever runs while it is held. Once a verdict is given, later probes of this
     * state give none: exactly one thread attempts each exit.
     */

    enum Verdict { NONE, CLOSE, REOPEN }

    private final int maxProbes;
    private final int successesToClose;
    private final int failuresToReopen;
    private int ramp = 1;
    private int share = -1;
    private int inFlight;
    private int successes;
    private int failures;
    private boolean decided;

    HalfOpenState(Breaker owner, BreakerState previous, long now, Instant since) {
        super(owner, State.HALF_OPEN, previous, previous.streak, now, since, true);
        BreakerConfig config = owner.config();
        this.maxProbes = config.halfOpenMaxProbes();
        this.successesToClose = config.halfOpenSuccessesToClose();
        this.failuresToReopen = config.halfOpenFailuresToReopen();
    }

    /** Takes a probe slot if one is free. */
    synchronized boolean tryAcquire() {
        if (decided || inFlight >= limit()) {
            return false;
        }
        inFlight++;
        return true;
    }

    /** Gives back a probe slot whose call never ran. */
    synchronized void cancel() {
        if (inFlight > 0) {
            inFlight--;
        }
    }

    /** Records a probe's verdict (neither success nor failure: it only frees its slot). */
    synchronized Verdict finish(boolean success, boolean failure) {
        if (inFlight > 0) {
            inFlight--;
        }
        if (decided) {
            return Verdict.NONE;
        }
        if (success) {
            successes++;
            ramp = Math.min(maxProbes, ramp * 2);
            if (successes >= successesToClose) {
                decided = true;
                return Verdict.CLOSE;
            }
        } else if (failure) {
            failures++;
            if (failures >= failuresToReopen) {
                decided = true;
                return Verdict.REOPEN;
            }
        }
        return Verdict.NONE;
    }

    /** This replica's share of probes for this episode (fleet mode). */
    synchronized void share(int max) {
        share = max;
    }

    synchronized int successes() {
        return successes;
    }

    synchronized int failures() {
        return failures;
    }

    synchronized int finished() {
        return successes + failures;
    }

    synchronized Snapshot.Probes probes() {
        return new Snapshot.Probes(limit(), inFlight, successes, failures);
    }

    private int limit() {
        int limit = Math.min(ramp, maxProbes);
        return share >= 0 ? Math.min(limit, share) : limit;
    }
}
