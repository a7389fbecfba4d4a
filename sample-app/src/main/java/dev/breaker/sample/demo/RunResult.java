package dev.breaker.sample.demo;

/**
 * What one run of the incident measured, for the summary table.
 *
 * @param label {@code breakers on} or {@code breakers off}
 * @param wedgeToTripMillis from the wedge to the payments breaker opening, -1 if it did
 * not (or is off)
 * @param recoveryToClosedMillis from the recovery to the payments breaker closing, -1 if
 * it did not
 * @param healthy the requests sent in the healthy phase
 * @param wedged the requests sent while the payments gateway was wedged
 * @param recovered the requests sent after it recovered
 * @param maxBusyThreads the most request threads busy at once while wedged
 * @param maxThreads the size of the request thread pool
 * @param maxWaiting the most requests waiting for a request thread while wedged
 */
record RunResult(String label, long wedgeToTripMillis, long recoveryToClosedMillis, PhaseStats healthy,
		PhaseStats wedged, PhaseStats recovered, int maxBusyThreads, int maxThreads, int maxWaiting) {
}
