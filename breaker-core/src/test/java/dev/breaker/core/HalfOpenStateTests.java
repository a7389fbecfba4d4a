package dev.breaker.core;

import dev.breaker.core.spi.SharedStateHooks;
import static dev.breaker.core.Fixture.fail;
import static dev.breaker.core.Fixture.succeed;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** HALF_OPEN: the probe ramp, the verdicts, the max wait, stale outcomes. */
class HalfOpenStateTests {

	private final Fixture fixture = new Fixture();

	private Breaker halfOpen(int maxProbes, int successesToClose, int failuresToReopen) {
		Breaker breaker = fixture.breaker(c -> c.consecutiveFailures(1)
			.openWait(Duration.ofSeconds(30))
			.halfOpenMaxProbes(maxProbes)
			.halfOpenSuccessesToClose(successesToClose)
			.halfOpenFailuresToReopen(failuresToReopen));
		fail(breaker, 1);
		fixture.advance(Duration.ofSeconds(30));
		assertThat(breaker.state()).isEqualTo(State.HALF_OPEN);
		return breaker;
	}

	private static List<Permit> grab(Breaker breaker) {
		List<Permit> granted = new ArrayList<>();
		for (Permit p = breaker.acquire(); p.granted(); p = breaker.acquire()) {
			granted.add(p);
		}
		return granted;
	}

	@Test
	void letsOneProbeThroughAtFirst() {
		Breaker breaker = halfOpen(10, 5, 3);
		assertThat(grab(breaker)).hasSize(1);
	}

	@Test
	void rampsConcurrentProbesOneTwoFourUpToTheMaximum() {
		Breaker breaker = halfOpen(6, 30, 3);
		List<Integer> widths = new ArrayList<>();
		for (int round = 0; round < 5; round++) {
			List<Permit> probes = grab(breaker);
			widths.add(probes.size());
			breaker.release(probes.get(0), Outcome.SUCCESS, 0);
			probes.stream().skip(1).forEach(p -> breaker.release(p, Outcome.IGNORED, 0));
		}
		assertThat(widths).containsExactly(1, 2, 4, 6, 6);
		assertThat(breaker.snapshot().probes().limit()).isEqualTo(6);
	}

	@Test
	void closesAfterEnoughProbesSucceed() {
		Breaker breaker = halfOpen(10, 5, 3);
		succeed(breaker, 4);
		assertThat(breaker.state()).isEqualTo(State.HALF_OPEN);
		assertThat(breaker.snapshot().probes()).isEqualTo(new Snapshot.Probes(10, 0, 4, 0));
		succeed(breaker, 1);
		assertThat(breaker.state()).isEqualTo(State.CLOSED);
		assertThat(fixture.transitions).last().extracting(Transition::reason).isEqualTo("5 probes succeeded");
		assertThat(breaker.totals().probeSuccesses()).isEqualTo(5);
	}

	/**
	 * Half-open (10 probes, 5 successes close, 3 failures reopen) after one failed and
	 * one successful probe.
	 */
	private Breaker halfOpenAfterAFailureAndASuccess() {
		Breaker breaker = halfOpen(10, 5, 3);
		fail(breaker, 1);
		succeed(breaker, 1);
		return breaker;
	}

	@Test
	void oneUnluckyProbeDoesNotReopen() {
		Breaker breaker = halfOpenAfterAFailureAndASuccess();
		fail(breaker, 1);
		assertThat(breaker.state()).isEqualTo(State.HALF_OPEN);
	}

	@Test
	void reopensAfterEnoughProbesFail() {
		Breaker breaker = halfOpenAfterAFailureAndASuccess();
		fail(breaker, 2);
		assertThat(breaker.state()).isEqualTo(State.OPEN);
		assertThat(fixture.transitions).last().satisfies(t -> {
			assertThat(t.from()).isEqualTo(State.HALF_OPEN);
			assertThat(t.reason()).isEqualTo("3 of 4 probes failed");
		});
		assertThat(breaker.totals().trips()).isEqualTo(2);
		assertThat(breaker.totals().probeFailures()).isEqualTo(3);
	}

	@Test
	void reopensWhenNoVerdictComesWithinTheMaxWait() {
		Breaker breaker = halfOpen(1, 5, 3);
		Permit lost = breaker.acquire(); // a probe that never reports back
		assertThat(lost.granted()).isTrue();
		fixture.advance(Duration.ofSeconds(59));
		assertThat(breaker.acquire().granted()).isFalse();
		fixture.advance(Duration.ofSeconds(1));
		assertThat(breaker.state()).isEqualTo(State.OPEN);
		assertThat(fixture.transitions).last().extracting(Transition::reason).isEqualTo("no probe verdict within 1m");
	}

	@Test
	void ignoredProbesFreeTheirSlotWithoutAVerdict() {
		Breaker breaker = halfOpen(1, 1, 1);
		Fixture.record(breaker, Outcome.IGNORED, 5);
		Fixture.record(breaker, Outcome.THROTTLED, 5);
		assertThat(breaker.state()).isEqualTo(State.HALF_OPEN);
	}

	@Test
	void aSlowProbeIsAFailureWhenTheSlowCallRuleIsOn() {
		Breaker breaker = fixture
			.breaker(c -> c.consecutiveFailures(1).slowCallRateThreshold(50).halfOpenFailuresToReopen(1));
		fail(breaker, 1);
		fixture.advance(Duration.ofSeconds(30));
		Fixture.timed(breaker, Outcome.SUCCESS, Duration.ofSeconds(3).toNanos());
		assertThat(breaker.state()).isEqualTo(State.OPEN);
	}

	@Test
	void anOutcomeFromAnEarlierGenerationDoesNotCount() {
		Breaker breaker = fixture.breaker(c -> c.consecutiveFailures(2).halfOpenSuccessesToClose(1));
		Permit old = breaker.acquire(); // a CLOSED-generation call, still running
		fail(breaker, 2);
		fixture.advance(Duration.ofSeconds(30));
		assertThat(breaker.state()).isEqualTo(State.HALF_OPEN);
		breaker.release(old, Outcome.SUCCESS, 0);
		assertThat(breaker.state()).isEqualTo(State.HALF_OPEN);
		assertThat(breaker.snapshot().probes().successes()).isZero();
		// still in the cumulative totals
		assertThat(breaker.totals().calls(Outcome.SUCCESS)).isEqualTo(1);
	}

	@Test
	void aProbeShareLimitsThisReplicasProbes() {
		Breaker breaker = halfOpen(10, 30, 3);
		SharedStateHooks.limitProbes(breaker, 0);
		assertThat(breaker.acquire().granted()).isFalse();
		SharedStateHooks.limitProbes(breaker, 1);
		assertThat(grab(breaker)).hasSize(1);
	}

	@Test
	void aProbeReleasedTwiceCountsOnce() {
		Breaker breaker = halfOpen(10, 5, 3);
		Permit probe = breaker.acquire();
		breaker.release(probe, Outcome.SUCCESS, 0);
		breaker.release(probe, Outcome.SUCCESS, 0);
		assertThat(breaker.snapshot().probes().successes()).isEqualTo(1);
		assertThat(breaker.totals().probeSuccesses()).isEqualTo(1);
	}

	@Test
	void theDecidingProbeMovesTheBreakerBeforeItsReleaseReturns() {
		Breaker closing = halfOpen(10, 1, 3);
		Fixture.succeed(closing, 1);
		assertThat(closing.currentState()).isEqualTo(State.CLOSED);
		Breaker reopening = halfOpen(10, 5, 1);
		fail(reopening, 1);
		assertThat(reopening.currentState()).isEqualTo(State.OPEN);
	}

	@Test
	void ignoredAndThrottledProbesCountNowhere() {
		Breaker breaker = halfOpen(1, 1, 1);
		Fixture.record(breaker, Outcome.IGNORED, 2);
		Fixture.record(breaker, Outcome.THROTTLED, 2);
		assertThat(breaker.totals().probeSuccesses()).isZero();
		assertThat(breaker.totals().probeFailures()).isZero();
	}

}
