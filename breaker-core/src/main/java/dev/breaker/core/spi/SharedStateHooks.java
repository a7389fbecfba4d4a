package dev.breaker.core.spi;

import dev.breaker.core.Breaker;
import dev.breaker.core.State;
import dev.breaker.core.Transition;
import dev.breaker.core.internal.EngineAccess;
import java.time.Duration;

/**
 * What a shared-state store (fleet mode's Redis sync, or your own) may do to a breaker
 * besides calling it: apply a peer replica's verdicts, trip on a verdict made outside the
 * breaker's window, hold it open, share out probes.
 *
 * <p>
 * For store implementations, not for application code: an application changes a breaker's
 * state through the operator overrides on {@link Breaker} ({@link Breaker#reset()},
 * {@link Breaker#forceOpen()}...) or the actuator endpoint. Every hook is lock-free, safe
 * from any thread, and bounded: nothing a store passes in holds a breaker open longer
 * than its {@code maxOpenWait}.
 */
public final class SharedStateHooks {

	private SharedStateHooks() {
	}

	/**
	 * A peer tripped: a {@link State#CLOSED} or {@link State#HALF_OPEN} breaker moves to
	 * OPEN until now + {@code remaining} (at least 1 ns, at most {@code maxOpenWait}), as
	 * a remote transition ({@link Transition#remote()}, not counted in the trips). Any
	 * other state is left alone.
	 */
	public static void openFromPeer(Breaker breaker, Duration remaining, String reason) {
		EngineAccess.hooks(breaker).openFromPeer(breaker, remaining, reason);
	}

	/**
	 * A peer closed: an OPEN or HALF_OPEN breaker moves to CLOSED, as a remote
	 * transition; any other state is left alone.
	 */
	public static void closeFromPeer(Breaker breaker, String reason) {
		EngineAccess.hooks(breaker).closeFromPeer(breaker, reason);
	}

	/**
	 * A peer closed the episode whose open this store applied: as
	 * {@link #closeFromPeer(Breaker, String)}, but only while the breaker is still in the
	 * state that open's transition ({@link Transition#generation()}) moved it to. A
	 * breaker that moved on by itself since (its open ran out and its own probe failed)
	 * stays as it is.
	 */
	public static void closeFromPeer(Breaker breaker, String reason, long generation) {
		if (generation < 0) {
			throw new IllegalArgumentException("a transition's generation is at least 0 but was " + generation);
		}
		EngineAccess.hooks(breaker).closeFromPeer(breaker, reason, generation);
	}

	/**
	 * Trips a CLOSED breaker now, as one of its own rules would (counted in the trips,
	 * open wait multiplied, capped and jittered), for a reason found outside its own
	 * window, such as the fleet's combined failure rate. No effect in any other state.
	 */
	public static void tripNow(Breaker breaker, String reason) {
		EngineAccess.hooks(breaker).tripNow(breaker, reason);
	}

	/**
	 * Keeps the breaker open at least until now + {@code wait} (at most
	 * {@code maxOpenWait}): if OPEN now, or if it trips within one bucket from now. The
	 * same bound as {@link Breaker#retryAfter(Duration)}, which is a server's hint; this
	 * is the store's (another replica's open episode, a probe slot held elsewhere).
	 */
	public static void holdOpen(Breaker breaker, Duration wait) {
		EngineAccess.hooks(breaker).holdOpen(breaker, wait);
	}

	/**
	 * This replica's share of the concurrent probes of the current half-open episode, in
	 * [0, {@code halfOpenMaxProbes}]; no effect in other states.
	 * @throws IllegalArgumentException when {@code max} is outside that range
	 */
	public static void limitProbes(Breaker breaker, int max) {
		EngineAccess.hooks(breaker).limitProbes(breaker, max);
	}

}
