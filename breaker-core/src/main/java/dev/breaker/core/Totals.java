package dev.breaker.core;

/** Cumulative counters of a breaker since its creation, never reset; reading them allocates nothing. */
public interface Totals {

    /** Finished calls with this outcome. */
    long calls(Outcome outcome);

    /** Finished calls slower than {@code slowCallDuration} that count toward the rates. */
    long slowCalls();

    /** Calls rejected because the breaker (or its parent) was open. */
    long rejected();

    /** Half-open probes that succeeded. */
    long probeSuccesses();

    /** Half-open probes that failed. */
    long probeFailures();

    /** Times this breaker opened by its own rules (CLOSED or HALF_OPEN to OPEN, not from a peer). */
    long trips();
}
