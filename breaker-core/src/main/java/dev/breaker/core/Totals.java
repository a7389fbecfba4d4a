package dev.breaker.core;

/**
 * Cumulative counters of a breaker since its creation, never reset; reading them
 * allocates nothing.
 */
public interface Totals {

	/** Finished calls with this outcome. */
	long calls(Outcome outcome);

	/**
	 * Finished calls slower than {@code slowCallDuration} that count toward the rates.
	 */
	long slowCalls();

	/** Calls rejected because the breaker (or its parent) was open. */
	long rejected();

	/** Half-open probes that succeeded. */
	long probeSuccesses();

	/** Half-open probes that failed. */
	long probeFailures();

	/**
	 * Times this breaker opened by its own rules (CLOSED or HALF_OPEN to OPEN, not from a
	 * peer).
	 */
	long trips();

	/**
	 * Retries its retry budget allowed (a registry child's are counted in its group's
	 * budget).
	 */
	long retries();

	/**
	 * Retries its retry budget refused: the calls failed or fell back as if their retries
	 * were exhausted.
	 */
	long retriesRefused();

}
