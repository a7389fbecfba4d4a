package dev.breaker.core;

import dev.breaker.core.internal.BucketWindow;
import dev.breaker.core.internal.StripedCounters;
import java.util.concurrent.atomic.AtomicLongArray;

/** The live {@link Totals} of one breaker: monotonic, allocation-free to read. */
final class BreakerTotals implements Totals {

	/*
	 * Finished calls are counted once, in the window (see BucketWindow#total), which
	 * keeps every call it ever recorded (of every era); only outcomes of a permit found
	 * stale on release, which the window never sees, are counted here (indices 0-5: the
	 * outcomes by ordinal, then SLOW). The window's total may lag by a count that is
	 * moving between two places, so each read is raised to the highest value reported so
	 * far (accumulateAndGet on `reported`): a FunctionCounter never sees a total go down.
	 */

	static final int SLOW = BucketWindow.SLOW;
	static final int REJECTED = 6;
	static final int PROBE_SUCCESS = 7;
	static final int PROBE_FAILURE = 8;
	static final int TRIPS = 9;

	/**
	 * Calls in flight (when tracked): +1 on acquire, -1 on release; not monotonic, not
	 * part of {@link Totals}.
	 */
	static final int IN_FLIGHT = 10;
	static final int RETRIES = 11;
	static final int RETRIES_REFUSED = 12;

	private final StripedCounters counters = new StripedCounters(RETRIES_REFUSED + 1);

	private final AtomicLongArray reported = new AtomicLongArray(SLOW + 1);

	private final BucketWindow window;

	BreakerTotals(BucketWindow window) {
		this.window = window;
	}

	void increment(int counter) {
		counters.increment(counter);
	}

	void inFlight(int delta) {
		counters.add(IN_FLIGHT, delta);
	}

	/** Calls in flight now (0 unless tracked); never negative. */
	long inFlight() {
		return Math.max(0, counters.sum(IN_FLIGHT));
	}

	/**
	 * Counts a finished call of an earlier generation (the window only holds the current
	 * one's).
	 */
	void stale(Outcome outcome, boolean slow) {
		counters.increment(outcome.ordinal());
		if (slow) {
			counters.increment(SLOW);
		}
	}

	@Override
	public long calls(Outcome outcome) {
		return finished(outcome.ordinal());
	}

	@Override
	public long slowCalls() {
		return finished(SLOW);
	}

	private long finished(int kind) {
		return reported.accumulateAndGet(kind, window.total(kind) + counters.sum(kind), Math::max);
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

	@Override
	public long retries() {
		return counters.sum(RETRIES);
	}

	@Override
	public long retriesRefused() {
		return counters.sum(RETRIES_REFUSED);
	}

}
