package dev.breaker.actuate.history;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

import dev.breaker.core.Breaker;
import dev.breaker.core.CallDurations;
import dev.breaker.core.LatencyHistogram;
import dev.breaker.core.Outcome;
import dev.breaker.core.Snapshot;
import dev.breaker.core.State;
import dev.breaker.core.Totals;

/**
 * One breaker's history: a ring of its last {@value BreakerHistory#SECONDS} seconds, and
 * the cumulative totals and latency histogram the previous sample read, so that each
 * second holds the difference. Transitions raise the worst state of the second they fall
 * in; the sampling thread and the readers of {@link #seconds()} meet on this object's
 * lock.
 */
final class Track {

	private static final State[] BY_SEVERITY = { State.CLOSED, State.DISABLED, State.HALF_OPEN, State.OPEN,
			State.FORCED_OPEN };

	final Breaker breaker;

	/** Whether this track listens to its breaker's transitions (set once). */
	final AtomicBoolean listening = new AtomicBoolean();

	private final Second[] ring = new Second[BreakerHistory.SECONDS];

	private int next;

	private int size;

	private final long[] calls = new long[Outcome.values().length];

	private long slow;

	private long rejected;

	private LatencyHistogram latency;

	/** The worst state since the last sample, by severity; raised by transitions. */
	private volatile int worst;

	Track(Breaker breaker, boolean created) {
		this.breaker = breaker;
		if (!created) {
			read(breaker.totals(), this.calls);
			this.slow = breaker.totals().slowCalls();
			this.rejected = breaker.totals().rejected();
		}
		CallDurations durations = breaker.durations();
		this.latency = (durations != null && !created) ? durations.histogram() : null;
		this.worst = severity(breaker.state());
	}

	void entered(State state) {
		int s = severity(state);
		synchronized (this) {
			if (s > this.worst) {
				this.worst = s;
			}
		}
	}

	void sample(Instant at) {
		Totals totals = this.breaker.totals();
		long[] now = new long[this.calls.length];
		read(totals, now);
		long slowNow = totals.slowCalls();
		long rejectedNow = totals.rejected();
		Snapshot snapshot = this.breaker.snapshot();
		CallDurations durations = this.breaker.durations();
		LatencyHistogram latencyNow = (durations != null) ? durations.histogram() : null;
		LatencyHistogram second = null;
		if (latencyNow != null) {
			second = (this.latency != null) ? latencyNow.since(this.latency) : latencyNow;
		}
		State state;
		synchronized (this) {
			state = BY_SEVERITY[Math.max(this.worst, severity(snapshot.state()))];
			this.worst = severity(snapshot.state());
		}
		long success = delta(now, this.calls, Outcome.SUCCESS);
		long failures = delta(now, this.calls, Outcome.FAILURE);
		long timeouts = delta(now, this.calls, Outcome.TIMEOUT);
		boolean timed = second != null && second.count() > 0;
		add(new Second(at, state, success + failures + timeouts, failures, timeouts, Math.max(0, slowNow - this.slow),
				Math.max(0, rejectedNow - this.rejected), snapshot.failureRate(), timed ? second.percentile(0.5) : null,
				timed ? second.percentile(0.99) : null));
		System.arraycopy(now, 0, this.calls, 0, now.length);
		this.slow = slowNow;
		this.rejected = rejectedNow;
		this.latency = latencyNow;
	}

	private static void read(Totals totals, long[] into) {
		for (Outcome outcome : Outcome.values()) {
			into[outcome.ordinal()] = totals.calls(outcome);
		}
	}

	private static long delta(long[] now, long[] before, Outcome outcome) {
		return Math.max(0, now[outcome.ordinal()] - before[outcome.ordinal()]);
	}

	private synchronized void add(Second second) {
		this.ring[this.next] = second;
		this.next = (this.next + 1) % BreakerHistory.SECONDS;
		this.size = Math.min(BreakerHistory.SECONDS, this.size + 1);
	}

	synchronized List<Second> seconds() {
		List<Second> seconds = new ArrayList<>(this.size);
		int first = (this.next - this.size + BreakerHistory.SECONDS) % BreakerHistory.SECONDS;
		for (int i = 0; i < this.size; i++) {
			seconds.add(this.ring[(first + i) % BreakerHistory.SECONDS]);
		}
		return seconds;
	}

	/** How unhealthy a state is: the history shows the worst one of each second. */
	private static int severity(State state) {
		return switch (state) {
			case CLOSED -> 0;
			case DISABLED -> 1;
			case HALF_OPEN -> 2;
			case OPEN -> 3;
			case FORCED_OPEN -> 4;
		};
	}

}
