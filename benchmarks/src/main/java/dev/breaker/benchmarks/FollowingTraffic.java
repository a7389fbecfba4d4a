package dev.breaker.benchmarks;

import dev.breaker.core.Breaker;
import dev.breaker.core.BreakerConfig;
import dev.breaker.core.Outcome;
import dev.breaker.core.Permit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.infra.Blackhole;

/**
 * What following traffic costs on the closed path, and what asking the retry budget
 * costs.
 *
 * <p>
 * {@link #defaults} is {@code ClosedPath.OneThread.breaker} again, measured beside
 * {@link #followingTraffic} (minimum-calls-ratio and auto probes on, so the peaks are
 * kept) in the same run: the target is within 10% of it. {@link #retryBudgetAsk} is one
 * {@code tryRetry} on a breaker whose window holds calls (the budget reads the window's
 * counts and its checkpoints); it runs after a failure and before a pause, never on the
 * closed path.
 */
@State(Scope.Benchmark)
@Threads(1)
public class FollowingTraffic extends Measured {

	final Dependency dependency = new Dependency();

	Breaker defaults;

	Breaker following;

	Breaker retrying;

	@Setup(Level.Trial)
	public void createBreakers() {
		defaults = Contenders.breaker();
		BreakerConfig config = defaults.config().toBuilder().minimumCallsRatio(0.5).halfOpenMaxProbesAuto().build();
		following = Breaker.of("following", config);
		// a huge floor: every ask is granted, as in a storm the budget has room for
		retrying = Breaker.of("retrying", defaults.config().toBuilder().retryBudgetMinPerSecond(1_000_000).build());
		for (int i = 0; i < 1000; i++) {
			retrying.release(retrying.acquire(), Outcome.SUCCESS, 0);
		}
	}

	@TearDown(Level.Trial)
	public void checkBreakersStayed() {
		for (Breaker b : new Breaker[] { defaults, following, retrying }) {
			if (b.state() != dev.breaker.core.State.CLOSED) {
				throw new IllegalStateException("not closed after measuring: " + b.name());
			}
		}
	}

	@Benchmark
	public void defaults(Blackhole bh) {
		call(defaults, bh);
	}

	@Benchmark
	public void followingTraffic(Blackhole bh) {
		call(following, bh);
	}

	@Benchmark
	public boolean retryBudgetAsk() {
		return retrying.tryRetry(false);
	}

	private void call(Breaker breaker, Blackhole bh) {
		Permit permit = breaker.acquire();
		if (!permit.granted()) {
			bh.consume(Contenders.FALLBACK);
			return;
		}
		long start = breaker.nanos();
		String reply = dependency.call();
		breaker.release(permit, Outcome.SUCCESS, breaker.nanos() - start);
		bh.consume(reply);
	}

}
