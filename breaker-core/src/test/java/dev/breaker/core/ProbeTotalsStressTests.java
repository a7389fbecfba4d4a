package dev.breaker.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Never happens: a probe released after the half-open verdict counted in the probe
 * totals. Each round ramps a half-open episode to eight probes in flight (three
 * successes: 1, 2, 4, 8) and releases them all as successes on four threads; two more
 * close the breaker ("5 probes succeeded"), so the totals must rise by exactly five.
 */
@Tag("stress")
class ProbeTotalsStressTests {

	@Test
	void probeTotalsCountOnlyTheProbesThatCountedTowardTheVerdict() {
		Fixture fixture = new Fixture();
		Breaker breaker = fixture
			.breaker(c -> c.consecutiveFailures(0).halfOpenMaxProbes(8).halfOpenSuccessesToClose(5));
		List<Permit> probes = new ArrayList<>();
		long[] before = new long[1];
		int[] overcounted = new int[1];
		int rounds = Rounds.count(3_000);
		Rounds.run(rounds, round -> {
			breaker.halfOpen();
			before[0] = breaker.totals().probeSuccesses();
			probes.clear();
			Fixture.succeed(breaker, 3);
			for (int i = 0; i < 8; i++) {
				Permit p = breaker.acquire();
				assertThat(p.granted()).as("probe %d of round %d", i, round).isTrue();
				probes.add(p);
			}
		}, round -> {
			long counted = breaker.totals().probeSuccesses() - before[0];
			String reason = fixture.transitions.get(fixture.transitions.size() - 1).reason();
			if (counted != Long.parseLong(reason.split(" ")[0])) {
				overcounted[0]++;
			}
		}, t -> release(breaker, probes, t), t -> release(breaker, probes, t), t -> release(breaker, probes, t),
				t -> release(breaker, probes, t));
		assertThat(overcounted[0]).as("rounds of %d whose probe totals disagree with the verdict", rounds).isZero();
	}

	private static void release(Breaker breaker, List<Permit> probes, int thread) {
		for (int i = thread; i < probes.size(); i += 4) {
			breaker.release(probes.get(i), Outcome.SUCCESS, 0);
		}
	}

}
