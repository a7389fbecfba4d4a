package dev.breaker.core;

import java.util.ArrayList;
import java.util.List;

/**
 * An obviously-correct breaker to check the engine against: single lock, plain fields, a
 * list of every outcome since the breaker last closed, everything recomputed from scratch
 * after every call, straight from the documented rules (README, "The engine"): the
 * consecutive rule after a failure, the rate rules after every call that counts, probes
 * ramping 1, 2, 4..., the half-open max wait from the oldest probe in flight, and
 * outcomes of a permit of an earlier state counted toward nothing.
 */
final class ReferenceBreaker {

	/**
	 * A granted permit still out: the generation it belongs to and when it was granted.
	 */
	record Held(long generation, long at, boolean probe) {
	}

	private final BreakerConfig config;

	private final long bucket;

	private final int buckets;

	private State state = State.CLOSED;

	private long generation;

	private long openUntil;

	private int streak;

	private int consecutive;

	private int probeSuccesses;

	private int probeFailures;

	private int ramp = 1;

	private final List<Held> probesInFlight = new ArrayList<>();

	// {time, outcome ordinal, slow}
	private final List<long[]> outcomes = new ArrayList<>();

	ReferenceBreaker(BreakerConfig config) {
		this.config = config;
		this.bucket = config.bucket().toNanos();
		this.buckets = (int) (config.window().toNanos() / bucket);
	}

	synchronized State state(long now) {
		for (;;) {
			if (state == State.OPEN && now >= openUntil) {
				enter(State.HALF_OPEN);
			}
			else if (state == State.HALF_OPEN && overdue(now)) {
				trip(now);
			}
			else {
				return state;
			}
		}
	}

	synchronized int consecutiveFailures() {
		return state == State.CLOSED ? consecutive : 0;
	}

	/** Asks for a permit at {@code now}: the held permit, or null when rejected. */
	synchronized Held acquire(long now) {
		State s = state(now);
		if (s == State.OPEN || s == State.FORCED_OPEN) {
			return null;
		}
		if (s == State.HALF_OPEN) {
			if (probesInFlight.size() >= Math.min(ramp, config.halfOpenMaxProbes())) {
				return null;
			}
			Held probe = new Held(generation, now, true);
			probesInFlight.add(probe);
			return probe;
		}
		return new Held(generation, now, false);
	}

	/**
	 * The call of {@code held} ended at {@code now} with {@code outcome}, taking
	 * {@code elapsed}.
	 */
	synchronized void release(Held held, Outcome outcome, long elapsed, long now) {
		boolean slow = elapsed > config.slowCallDuration().toNanos() && outcome.ordinal() <= Outcome.TIMEOUT.ordinal();
		if (held.generation() != generation) {
			probesInFlight.remove(held);
			return; // an earlier state's permit: counted toward nothing
		}
		boolean failure = outcome == Outcome.FAILURE || outcome == Outcome.TIMEOUT && config.timeoutWeight() > 0;
		if (state == State.HALF_OPEN) {
			if (overdue(now)) {
				trip(now);
				return;
			}
			probesInFlight.remove(held);
			outcomes.add(new long[] { now, outcome.ordinal(), slow ? 1 : 0 });
			boolean probeFailure = failure || slow && config.slowCallRateThreshold() > 0;
			if (probeFailure) {
				if (++probeFailures >= config.halfOpenFailuresToReopen()) {
					trip(now);
				}
			}
			else if (outcome == Outcome.SUCCESS) {
				probeSuccesses++;
				ramp = Math.min(config.halfOpenMaxProbes(), ramp * 2);
				if (probeSuccesses >= config.halfOpenSuccessesToClose()) {
					enter(State.CLOSED);
				}
			}
			return;
		}
		if (state != State.CLOSED) {
			return; // DISABLED: recorded, never trips
		}
		outcomes.add(new long[] { now, outcome.ordinal(), slow ? 1 : 0 });
		if (outcome == Outcome.SUCCESS) {
			consecutive = 0;
		}
		else if (failure) {
			consecutive++;
			if (config.consecutiveFailures() > 0 && consecutive >= config.consecutiveFailures()) {
				trip(now);
				return;
			}
		}
		if (outcome.ordinal() <= Outcome.TIMEOUT.ordinal() && rateRuleHolds(now)) {
			trip(now);
		}
	}

	synchronized void override(State to, long now) {
		state(now);
		if (to == state && (to == State.FORCED_OPEN || to == State.DISABLED)) {
			return;
		}
		enter(to);
	}

	private boolean overdue(long now) {
		for (Held probe : probesInFlight) {
			if (now - probe.at() >= config.halfOpenMaxWait().toNanos()) {
				return true;
			}
		}
		return false;
	}

	private boolean rateRuleHolds(long now) {
		long current = Math.floorDiv(now, bucket);
		long s = 0, f = 0, t = 0, slow = 0;
		for (long[] o : outcomes) {
			if (Math.floorDiv(o[0], bucket) > current - buckets) {
				if (o[1] == Outcome.SUCCESS.ordinal())
					s++;
				if (o[1] == Outcome.FAILURE.ordinal())
					f++;
				if (o[1] == Outcome.TIMEOUT.ordinal())
					t++;
				if (o[1] <= Outcome.TIMEOUT.ordinal())
					slow += o[2];
			}
		}
		long calls = s + f + t;
		if (calls < config.minimumCalls()) {
			return false;
		}
		double weighted = f + config.timeoutWeight() * t;
		double rate = weighted == 0 ? 0 : 100 * weighted / (s + weighted);
		if (config.failureRateThreshold() > 0 && rate >= config.failureRateThreshold()) {
			return true;
		}
		double slowRate = Math.min(100, 100.0 * slow / calls);
		return config.slowCallRateThreshold() > 0 && slowRate >= config.slowCallRateThreshold();
	}

	private void trip(long now) {
		streak++;
		double wait = config.openWait().toNanos() * Math.pow(config.openWaitMultiplier(), streak - 1);
		generation++;
		openUntil = now + (long) Math.min(wait, config.maxOpenWait().toNanos());
		state = State.OPEN;
		probesInFlight.clear();
	}

	private void enter(State to) {
		if (to == State.CLOSED) {
			outcomes.clear();
			streak = 0;
			consecutive = 0;
		}
		generation++;
		probeSuccesses = 0;
		probeFailures = 0;
		ramp = 1;
		probesInFlight.clear();
		state = to;
	}

}
