package dev.breaker.core;

/** The five states of a breaker. */
public enum State {

	/** Calls flow; outcomes are recorded and a trip rule may open the breaker. */
	CLOSED,
	/** Calls are rejected at once until the open wait ends. */
	OPEN,
	/** A small, ramping number of probe calls decide between CLOSED and OPEN. */
	HALF_OPEN,
	/**
	 * Calls are rejected until an operator resets the breaker or overrides it otherwise.
	 */
	FORCED_OPEN,
	/** Calls flow and are recorded for metrics, but no rule trips the breaker. */
	DISABLED

}
