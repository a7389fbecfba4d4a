package dev.breaker.core;

import dev.breaker.core.spi.SharedStateHooks;
import static dev.breaker.core.Fixture.fail;
import static dev.breaker.core.Fixture.succeed;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Operator overrides and the fleet hooks: each row of the transition table they drive.
 */
class OverridesTests {

	private final Fixture fixture = new Fixture();

	private final Breaker breaker = fixture.breaker(c -> c.consecutiveFailures(2));

	@Test
	void forceOpenRejectsEveryCall() {
		breaker.forceOpen();
		assertThat(breaker.state()).isEqualTo(State.FORCED_OPEN);
		assertThat(breaker.acquire().granted()).isFalse();
		assertThat(breaker.rejection()).hasMessage("breaker 'payments' is FORCED_OPEN by an operator");
		assertThat(breaker.rejection().openUntil()).isNull();
		fixture.advance(Duration.ofHours(1));
		assertThat(breaker.state()).isEqualTo(State.FORCED_OPEN);
	}

	@Test
	void disabledLetsCallsFlowRecordsThemAndNeverTrips() {
		breaker.disable();
		fail(breaker, 100);
		assertThat(breaker.state()).isEqualTo(State.DISABLED);
		assertThat(breaker.snapshot().failures()).isEqualTo(100);
	}

	@Test
	void halfOpenStartsProbingNow() {
		breaker.halfOpen();
		assertThat(breaker.state()).isEqualTo(State.HALF_OPEN);
		assertThat(breaker.acquire().probe()).isTrue();
	}

	@Test
	void resetClosesClearsTheWindowAndTheBackoff() {
		fail(breaker, 2);
		breaker.reset();
		assertThat(breaker.state()).isEqualTo(State.CLOSED);
		assertThat(breaker.snapshot().failures()).isZero();
		fail(breaker, 2);
		assertThat(Duration.between(fixture.clock.instant(), breaker.snapshot().openUntil()))
			.isEqualTo(Duration.ofSeconds(30));
	}

	@Test
	void anOverrideMayFollowAnotherDirectly() {
		breaker.forceOpen();
		breaker.disable();
		breaker.halfOpen();
		breaker.forceOpen();
		breaker.reset();
		assertThat(fixture.transitions).extracting(Transition::to)
			.containsExactly(State.FORCED_OPEN, State.DISABLED, State.HALF_OPEN, State.FORCED_OPEN, State.CLOSED);
		assertThat(fixture.transitions).extracting(Transition::reason).containsOnly("operator");
	}

	@Test
	void repeatingAnOverrideIsNoTransition() {
		breaker.forceOpen();
		breaker.forceOpen();
		breaker.disable();
		breaker.disable();
		assertThat(fixture.transitions).hasSize(2);
	}

	@Test
	void resetOfAClosedBreakerStartsANewGeneration() {
		Permit old = breaker.acquire();
		breaker.reset();
		breaker.release(old, Outcome.FAILURE, 0);
		assertThat(breaker.snapshot().failures()).isZero();
		assertThat(fixture.transitions).singleElement().extracting(Transition::generation).isEqualTo(1L);
	}

	@Test
	void everyTransitionBumpsTheGeneration() {
		fail(breaker, 2);
		fixture.advance(Duration.ofSeconds(30));
		breaker.state();
		breaker.forceOpen();
		assertThat(fixture.transitions).extracting(Transition::generation).containsExactly(1L, 2L, 3L);
	}

	@Test
	void aPeerTripOpensAClosedBreakerForTheRemainingTime() {
		SharedStateHooks.openFromPeer(breaker, Duration.ofSeconds(12),
				"peer replica-2: failure rate 60% >= 50% over 30 calls");
		assertThat(breaker.state()).isEqualTo(State.OPEN);
		assertThat(breaker.snapshot().openUntil()).isEqualTo(Fixture.EPOCH.plusSeconds(12));
		assertThat(fixture.transitions).singleElement().satisfies(t -> {
			assertThat(t.remote()).isTrue();
			assertThat(t.reason()).isEqualTo("peer replica-2: failure rate 60% >= 50% over 30 calls");
		});
		assertThat(breaker.totals().trips()).isZero();
	}

	@Test
	void aPeerTripDoesNotOverrideAnOperator() {
		breaker.forceOpen();
		SharedStateHooks.openFromPeer(breaker, Duration.ofSeconds(12), "peer");
		breaker.disable();
		SharedStateHooks.openFromPeer(breaker, Duration.ofSeconds(12), "peer");
		assertThat(breaker.state()).isEqualTo(State.DISABLED);
	}

	@Test
	void aPeerCloseClosesAnOpenBreaker() {
		fail(breaker, 2);
		SharedStateHooks.closeFromPeer(breaker, "peer replica-3: 5 probes succeeded");
		assertThat(breaker.state()).isEqualTo(State.CLOSED);
		assertThat(fixture.transitions).last().extracting(Transition::remote).isEqualTo(true);
		succeed(breaker, 1);
	}

	@Test
	void aPeerCloseLeavesAClosedOrOverriddenBreakerAlone() {
		SharedStateHooks.closeFromPeer(breaker, "peer");
		breaker.forceOpen();
		SharedStateHooks.closeFromPeer(breaker, "peer");
		assertThat(breaker.state()).isEqualTo(State.FORCED_OPEN);
		assertThat(fixture.transitions).hasSize(1);
	}

	@Test
	void aPeerTripCountsAsATripForTheNextOpenWait() {
		Breaker breaker = fixture.breaker(c -> c.consecutiveFailures(1).halfOpenFailuresToReopen(1));
		SharedStateHooks.openFromPeer(breaker, Duration.ofSeconds(5), "peer");
		fixture.advance(Duration.ofSeconds(5));
		// the probe fails: the second consecutive trip doubles the open wait
		fail(breaker, 1);
		assertThat(Duration.between(fixture.clock.instant(), breaker.snapshot().openUntil()))
			.isEqualTo(Duration.ofSeconds(60));
	}

	@Test
	void aProbeShareIsAtMostTheMaximumProbes() {
		breaker.halfOpen();
		SharedStateHooks.limitProbes(breaker, 10);
		org.assertj.core.api.Assertions.assertThatThrownBy(() -> SharedStateHooks.limitProbes(breaker, 11))
			.hasMessage("a probe share must be in [0, 10] but was 11");
		org.assertj.core.api.Assertions.assertThatThrownBy(() -> SharedStateHooks.limitProbes(breaker, -1))
			.hasMessage("a probe share must be in [0, 10] but was -1");
		assertThat(breaker.acquire().granted()).isTrue();
	}

}
