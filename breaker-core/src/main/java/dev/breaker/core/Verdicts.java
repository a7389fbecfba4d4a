package dev.breaker.core;

import dev.breaker.core.internal.BucketWindow;
import java.time.Instant;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The automatic moves of one breaker: trips after outcomes, half-open verdicts, and moves
 * that fall due with time.
 */
final class Verdicts implements HalfOpenState.Mover {

	/*
	 * Called by the thread that made the call (or read the state). Every move goes
	 * through Breaker.moveTo, whose CAS picks one winner; a loser simply sees the state
	 * the winner published. Each verdict is judged for the state object the permit
	 * belongs to, never for whatever state is current, so a late release can at most try
	 * (and fail) to move its own, already left, state. The Retry-After hint is two
	 * volatile longs written together: a reader that sees a torn pair takes at worst a
	 * hint one bucket too old or too new, which only shifts an open wait.
	 */

	private final Breaker breaker;

	private final BreakerConfig config;

	private final TripRules rules;

	private final BucketWindow window;

	private final BreakerTotals totals;

	private final String maxWaitReason;

	private volatile long hintNanos;

	private volatile long hintAt;

	Verdicts(Breaker breaker, TripRules rules, BucketWindow window, BreakerTotals totals) {
		this.breaker = breaker;
		this.config = breaker.config();
		this.rules = rules;
		this.window = window;
		this.totals = totals;
		this.maxWaitReason = "no probe verdict within " + Numbers.format(config.halfOpenMaxWait());
	}

	/**
	 * After a CLOSED-generation call: the consecutive rule after a failure; the rate
	 * rules after every call that counts (a plain success only when it could make one
	 * hold, see ClosedState).
	 */
	void afterCall(ClosedState closed, Outcome outcome, boolean slow, long now) {
		if (rules.isFailure(outcome)) {
			int failures = closed.failed();
			if (narrow(closed, now)) {
				return;
			}
			String reason = rules.consecutive(failures);
			if (reason == null) {
				reason = rules.rates(window, closed, now);
			}
			if (reason != null) {
				trip(closed, now, reason);
			}
			return;
		}
		if (outcome == Outcome.SUCCESS) {
			closed.succeeded();
		}
		if (TripRules.counts(outcome) && rules.ratesOn() && (slow || closed.rateCheckDue(now))
				&& !narrow(closed, now)) {
			String reason = rules.rates(window, closed, now);
			if (reason != null) {
				trip(closed, now, reason);
			}
		}
	}

	/**
	 * Whether a group that trips on breadth has seen failures from too few of its
	 * children in this CLOSED state to trip now.
	 */
	private static boolean narrow(ClosedState closed, long now) {
		return closed.breadth != null && !closed.breadth.broad(now);
	}

	/**
	 * After a probe: a slow probe fails when the slow-call rule is on; IGNORED and
	 * THROTTLED give no verdict.
	 */
	void afterProbe(HalfOpenState halfOpen, Ticket probe, Outcome outcome, boolean slow, long now) {
		boolean failure = rules.isFailure(outcome) || slow && rules.slowRuleOn();
		boolean success = !failure && outcome == Outcome.SUCCESS;
		switch (halfOpen.finish(probe, success, failure, now, config.clock().instant(), this, maxWaitReason)) {
			case COUNTED -> counted(success);
			case CLOSE, REOPEN -> {
				counted(success);
				publish(halfOpen);
			}
			case EXPIRED -> publish(halfOpen);
			case NONE -> {
			}
		}
	}

	private void counted(boolean success) {
		totals.increment(success ? BreakerTotals.PROBE_SUCCESS : BreakerTotals.PROBE_FAILURE);
	}

	/**
	 * Publishes the move a half-open verdict decided (any thread may: the CAS picks one).
	 */
	void publish(HalfOpenState halfOpen) {
		HalfOpenState.Move move = halfOpen.move();
		if (move != null) {
			breaker.moveTo(halfOpen, move.to(), move.reason(), false);
		}
	}

	@Override
	public HalfOpenState.Move close(HalfOpenState from, long now, Instant wallNow) {
		return new HalfOpenState.Move(new ClosedState(breaker, from, now, wallNow),
				from.successes() + " probes succeeded");
	}

	@Override
	public HalfOpenState.Move reopen(HalfOpenState from, long now, Instant wallNow, String reason) {
		return new HalfOpenState.Move(opened(from, now, wallNow), reason);
	}

	@Override
	public void lapsed() {
		counted(false);
	}

	void checkStall(ClosedState closed, long now) {
		String reason = rules.stall(closed, now);
		if (reason != null) {
			trip(closed, now, reason);
		}
	}

	/**
	 * Trips a CLOSED breaker for a reason found outside its window; a breaker in any
	 * other state is left alone.
	 */
	void tripNow(long now, String reason) {
		if (breaker.current() instanceof ClosedState closed) {
			trip(closed, now, reason);
		}
	}

	/**
	 * Remembers a Retry-After hint: a trip within one bucket from now opens for at least
	 * {@code nanos}.
	 */
	void hint(long now, long nanos) {
		hintAt = now;
		hintNanos = nanos;
	}

	/**
	 * The current state after any due time-based move (OPEN -> HALF_OPEN, HALF_OPEN ->
	 * OPEN).
	 */
	BreakerState settle(long now) {
		for (;;) {
			BreakerState s = breaker.current();
			if (s instanceof OpenState open && open.due(now)) {
				breaker.moveTo(open, new HalfOpenState(breaker, open, now, config.clock().instant()),
						"open wait of " + TripRules.waitText(open.until() - open.enteredNanos) + " ended", false);
			}
			else if (s instanceof HalfOpenState halfOpen && (halfOpen.move() != null
					|| halfOpen.expire(now, config.clock().instant(), this, maxWaitReason))) {
				publish(halfOpen);
			}
			else {
				return s;
			}
		}
	}

	private void trip(BreakerState from, long now, String reason) {
		breaker.moveTo(from, opened(from, now, config.clock().instant()), reason, false);
	}

	/**
	 * The OPEN state a trip from {@code from} enters: the open wait multiplied, capped,
	 * jittered, or a fresh hint.
	 */
	private OpenState opened(BreakerState from, long now, Instant wallNow) {
		int streak = from.streak + 1;
		long wait = TripRules.openWaitNanos(config, streak, ThreadLocalRandom.current().nextDouble());
		if (now - hintAt <= window.bucketNanos()) {
			wait = Math.max(wait, hintNanos); // no hint yet: 0, which changes nothing
		}
		return new OpenState(breaker, from, streak, now, wallNow, wait);
	}

}
