package dev.breaker.core;

import dev.breaker.core.internal.StripedCounters;

/** The live {@link Totals} of one breaker: striped, monotonic, allocation-free to read. */
final class BreakerTotals implements Totals {

    // Counter indices: the five outcomes by ordinal, then these.
    static final int SLOW = 5;
    static final int REJECTED = 6;
    static final int PROBE_SUCCESS = 7;
    static final int PROBE_FAILURE = 8;
    static final int TRIPS = 9;

    private final StripedCounters counters = new StripedCounters(TRIPS + 1);

    void increment(int counter) {
        counters.increment(counter);
    }

    @Override
    public long calls(Outcome outcome) {
        return counters.sum(outcome.ordinal());
    }

    @Override
    public long slowCalls() {
        return counters.sum(SLOW);
    }

    @Override
    public long rejected() {
        return counters.sum(REJECTED);
    }

    @Override
    public long probeSuccesses() {
        return counters.sum(PROBE_SUCCESS);
    }

    @Override
    public long probeFailures() {
        return counters.sum(PROBE_FAILURE);
    }

    @Override
    public long trips() {
        return counters.sum(TRIPS);
    }
}
