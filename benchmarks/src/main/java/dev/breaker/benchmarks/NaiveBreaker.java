package dev.breaker.benchmarks;

import java.util.ArrayDeque;
import java.util.Iterator;
import java.util.function.LongSupplier;

/**
 * The textbook breaker the engine is measured against: one mutex around a list of call
 * timestamps.
 *
 * <p>
 * This is the usual first implementation of a breaker, written in Java: every permission
 * check and every recorded outcome takes the same lock, reads {@code System.nanoTime()},
 * appends a new entry to the list and filters out the entries that have left the window.
 * It trips on a failure rate over the calls still in the window (with a minimum number of
 * calls), waits, then lets one probe through. The list keeps at most {@code maxCalls}
 * entries so that a benchmark pushing tens of millions of calls a second through a
 * ten-second window does not exhaust the heap; the oldest entry is dropped first.
 */
public final class NaiveBreaker {

	private enum State {

		CLOSED, OPEN, HALF_OPEN

	}

	private record Call(long at, boolean failed) {
	}

	private final long windowNanos;

	private final int maxCalls;

	private final int minimumCalls;

	private final double failureRateThreshold;

	private final long openWaitNanos;

	private final LongSupplier clock;

	private final ArrayDeque<Call> calls = new ArrayDeque<>();

	private State state = State.CLOSED;

	private long openedAt;

	private boolean probeInFlight;

	/**
	 * @param windowNanos how far back calls count
	 * @param maxCalls the most calls the list holds
	 * @param minimumCalls calls in the window before the failure rate can trip
	 * @param failureRateThreshold percent of failed calls in the window that trips
	 * @param openWaitNanos how long the breaker stays open before it lets a probe through
	 * @param clock nanosecond clock, {@code System::nanoTime} outside tests
	 */
	public NaiveBreaker(long windowNanos, int maxCalls, int minimumCalls, double failureRateThreshold,
			long openWaitNanos, LongSupplier clock) {
		if (windowNanos <= 0 || maxCalls < 1 || minimumCalls < 1 || minimumCalls > maxCalls || failureRateThreshold <= 0
				|| failureRateThreshold > 100 || openWaitNanos <= 0) {
			throw new IllegalArgumentException("window and open wait must be > 0, 1 <= minimumCalls <= maxCalls, "
					+ "failureRateThreshold in (0, 100]");
		}
		this.windowNanos = windowNanos;
		this.maxCalls = maxCalls;
		this.minimumCalls = minimumCalls;
		this.failureRateThreshold = failureRateThreshold;
		this.openWaitNanos = openWaitNanos;
		this.clock = clock;
	}

	/**
	 * Whether a call may go ahead now; a granted call must be followed by
	 * {@link #onSuccess} or {@link #onFailure}.
	 */
	public synchronized boolean tryAcquire() {
		switch (state) {
			case CLOSED:
				return true;
			case OPEN:
				if (clock.getAsLong() - openedAt < openWaitNanos) {
					return false;
				}
				state = State.HALF_OPEN;
				probeInFlight = true;
				return true;
			default:
				if (probeInFlight) {
					return false;
				}
				probeInFlight = true;
				return true;
		}
	}

	/** Records a call that succeeded. */
	public synchronized void onSuccess() {
		record(false);
	}

	/** Records a call that failed. */
	public synchronized void onFailure() {
		record(true);
	}

	/**
	 * Whether the breaker is open (tripped, its wait not yet over or no call has asked
	 * since).
	 */
	public synchronized boolean isOpen() {
		return state == State.OPEN;
	}

	/** Whether calls flow and are counted. */
	public synchronized boolean isClosed() {
		return state == State.CLOSED;
	}

	/**
	 * Calls currently held in the list (for tests: the list never outgrows its bound).
	 */
	public synchronized int callsHeld() {
		return calls.size();
	}

	private void record(boolean failed) {
		long now = clock.getAsLong();
		if (state == State.HALF_OPEN) {
			probeInFlight = false;
			if (failed) {
				open(now);
			}
			else {
				state = State.CLOSED;
				calls.clear();
			}
			return;
		}
		if (state == State.OPEN) {
			return;
		}
		calls.addLast(new Call(now, failed));
		if (calls.size() > maxCalls) {
			calls.removeFirst();
		}
		int total = 0;
		int failures = 0;
		for (Iterator<Call> it = calls.iterator(); it.hasNext();) {
			Call call = it.next();
			if (now - call.at() > windowNanos) {
				it.remove();
			}
			else {
				total++;
				if (call.failed()) {
					failures++;
				}
			}
		}
		if (total >= minimumCalls && failures * 100.0 / total >= failureRateThreshold) {
			open(now);
		}
	}

	private void open(long now) {
		state = State.OPEN;
		openedAt = now;
		calls.clear();
	}

}
