package dev.breaker.core;

import java.time.Duration;
import org.jetbrains.lincheck.datastructures.IntGen;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.jetbrains.lincheck.datastructures.StressOptions;
import org.jetbrains.lincheck.datastructures.ThreadIdGen;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Lincheck: acquire, release and transitions on one breaker are linearizable. Each thread
 * holds at most one permit (acquire takes it, release gives it back with an outcome), so
 * permits outlive the state they were granted in; operators reset, force open and start
 * probing at any moment. Every concurrent run must read as some one-at-a-time order of
 * the same operations on a fresh breaker: an outcome of a permit from an earlier state
 * counted toward a later one, a probe verdict given twice, or a granted call the state
 * never allowed would each show up as an impossible result.
 */
@Tag("stress")
@Param(name = "thread", gen = ThreadIdGen.class)
@Param(name = "outcome", gen = IntGen.class, conf = "0:3")
public class BreakerLincheckTests {

	private final Breaker breaker = Breaker.of("lincheck",
			BreakerConfig.builder()
				.ticker(new ManualTicker())
				.consecutiveFailures(2)
				.failureRateThreshold(0)
				.halfOpenMaxProbes(2)
				.halfOpenSuccessesToClose(2)
				.halfOpenFailuresToReopen(1)
				.openWait(Duration.ofSeconds(1))
				.openWaitJitter(0)
				.build());

	private final Permit[] held = new Permit[8];

	@Operation
	public boolean acquire(@Param(name = "thread") int thread) {
		if (held[thread] != null) {
			return false;
		}
		Permit p = breaker.acquire();
		if (p.granted()) {
			held[thread] = p;
		}
		return p.granted();
	}

	@Operation
	public boolean release(@Param(name = "thread") int thread, @Param(name = "outcome") int outcome) {
		Permit p = held[thread];
		if (p == null) {
			return false;
		}
		held[thread] = null;
		breaker.release(p, Outcome.values()[outcome], 0);
		return true;
	}

	@Operation
	public State state() {
		return breaker.state();
	}

	@Operation
	public void reset() {
		breaker.reset();
	}

	@Operation
	public void forceOpen() {
		breaker.forceOpen();
	}

	@Operation
	public void halfOpen() {
		breaker.halfOpen();
	}

	@Test
	void acquireReleaseAndTransitionsAreLinearizableUnderModelChecking() {
		new ModelCheckingOptions().iterations(iterations(20))
			.invocationsPerIteration(500)
			.threads(3)
			.actorsPerThread(3)
			.check(BreakerLincheckTests.class);
	}

	@Test
	void acquireReleaseAndTransitionsAreLinearizableUnderStress() {
		new StressOptions().iterations(iterations(15))
			.invocationsPerIteration(200)
			.threads(3)
			.actorsPerThread(3)
			.check(BreakerLincheckTests.class);
	}

	private static int iterations(int ciDefault) {
		return Rounds.count(ciDefault);
	}

}
