package dev.breaker.core;

import dev.breaker.core.spi.SharedStateHooks;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Never happens: an outcome of a permit from an earlier state recorded toward a later
 * state, whatever the release races (an operator reset, another override, the closing
 * probe, a peer's close). Each round takes permits, releases them as failures on three
 * threads while the transition happens on a fourth, and then asks the new state's window:
 * it must hold none of them.
 */
@Tag("stress")
class GenerationStressTests {

	private static final int ROUNDS = Rounds.count(10_000);

	private static final int PERMITS = 64;

	private static final int RELEASERS = 3;

	private final Fixture fixture = new Fixture();

	@Test
	void aResetRacingReleasesOfClosedPermitsNeverPollutesTheNewWindow() {
		Breaker breaker = fixture.breaker(c -> c.consecutiveFailures(0).failureRateThreshold(0));
		raceReleasesWith(breaker, breaker::reset, b -> {
		});
	}

	@Test
	void anOverrideRacingReleasesOfDisabledPermitsNeverPollutesTheNewWindow() {
		Breaker breaker = fixture.breaker(c -> c.consecutiveFailures(0).failureRateThreshold(0));
		raceReleasesWith(breaker, breaker::reset, Breaker::disable);
	}

	@Test
	void aPeerCloseRacingProbeReleasesNeverPollutesTheNewWindow() {
		Breaker breaker = fixture.breaker(c -> c.consecutiveFailures(0)
			.failureRateThreshold(0)
			.halfOpenMaxProbes(32)
			.halfOpenSuccessesToClose(1_000)
			.halfOpenFailuresToReopen(1_000));
		raceReleasesWith(breaker, () -> SharedStateHooks.closeFromPeer(breaker, "peer"), b -> {
			b.halfOpen();
			SharedStateHooks.limitProbes(b, 32);
			widenRamp(b, 5); // 1, 2, 4, 8, 16, 32 probes
		});
	}

	@Test
	void theClosingProbeRacingFailingProbesNeverPollutesTheNewWindow() {
		Breaker breaker = fixture.breaker(c -> c.consecutiveFailures(0)
			.failureRateThreshold(0)
			.halfOpenMaxProbes(4)
			.halfOpenSuccessesToClose(3)
			.halfOpenFailuresToReopen(1_000));
		int[] polluted = new int[1];
		List<Permit> probes = new ArrayList<>();
		Rounds.run(ROUNDS, round -> {
			breaker.halfOpen();
			Fixture.succeed(breaker, 1); // ramp 2
			Fixture.succeed(breaker, 1); // ramp 4, two successes so far
			probes.clear();
			for (int i = 0; i < 4; i++) {
				Permit p = breaker.acquire();
				assertThat(p.granted()).as("probe %d of round %d", i, round).isTrue();
				probes.add(p);
			}
		}, round -> {
			assertThat(breaker.currentState()).isEqualTo(State.CLOSED);
			if (breaker.snapshot().failures() != 0 || breaker.snapshot().consecutiveFailures() != 0) {
				polluted[0]++;
			}
		}, t -> breaker.release(probes.get(0), Outcome.SUCCESS, 0),
				t -> breaker.release(probes.get(1), Outcome.FAILURE, 0),
				t -> breaker.release(probes.get(2), Outcome.FAILURE, 0),
				t -> breaker.release(probes.get(3), Outcome.FAILURE, 0));
		assertThat(polluted[0]).as("rounds of %d whose new CLOSED window held probe failures", ROUNDS).isZero();
	}

	private static void widenRamp(Breaker breaker, int successes) {
		for (int i = 0; i < successes; i++) {
			Fixture.succeed(breaker, 1);
		}
	}

	/**
	 * Each round: {@code enter} (alone), take PERMITS permits, then release them all as
	 * failures while {@code transition} runs.
	 */
	private void raceReleasesWith(Breaker breaker, Runnable transition, Consumer<Breaker> enter) {
		Permit[] permits = new Permit[PERMITS];
		AtomicInteger polluted = new AtomicInteger();
		Rounds.Part[] parts = new Rounds.Part[RELEASERS + 1];
		for (int t = 0; t < RELEASERS; t++) {
			parts[t] = thread -> {
				for (int i = thread; i < PERMITS; i += RELEASERS) {
					breaker.release(permits[i], Outcome.FAILURE, 0);
				}
			};
		}
		parts[RELEASERS] = thread -> transition.run();
		Rounds.run(ROUNDS, round -> {
			enter.accept(breaker);
			for (int i = 0; i < PERMITS; i++) {
				permits[i] = breaker.acquire();
				if (!permits[i].granted()) {
					permits[i] = null;
				}
			}
			int granted = 0;
			for (Permit p : permits) {
				granted += p == null ? 0 : 1;
			}
			assertThat(granted).as("permits granted in round %d", round).isGreaterThan(0);
			for (int i = 0; i < PERMITS; i++) {
				if (permits[i] == null) {
					// a rejected permit is ignored on release
					permits[i] = breaker.acquire();
				}
			}
		}, round -> {
			Snapshot s = breaker.snapshot();
			assertThat(s.state()).isEqualTo(State.CLOSED);
			if (s.failures() != 0 || s.consecutiveFailures() != 0) {
				polluted.incrementAndGet();
			}
		}, parts);
		assertThat(polluted.get()).as("rounds of %d whose new CLOSED window held old-generation failures", ROUNDS)
			.isZero();
	}

}
