package dev.breaker.core;

import dev.breaker.core.spi.SharedStateHooks;
import static dev.breaker.core.Fixture.fail;
import static dev.breaker.core.Fixture.record;
import static dev.breaker.core.Fixture.succeed;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * What fleet mode asks of the engine: trips found outside the window, operator overrides
 * with a reason, one failure-rate formula.
 */
class FleetHooksTests {

	private final Fixture fixture = new Fixture();

	@Test
	void tripNowOpensAClosedBreakerAsItsOwnRuleWouldAndCountsTheTrip() {
		Breaker breaker = fixture.breaker(c -> c.openWait(Duration.ofSeconds(10)));

		SharedStateHooks.tripNow(breaker, "fleet failure rate 60.0% >= 50% over 30 calls");

		assertThat(breaker.state()).isEqualTo(State.OPEN);
		assertThat(breaker.totals().trips()).isEqualTo(1);
		assertThat(breaker.snapshot().openUntil()).isEqualTo(Fixture.EPOCH.plusSeconds(10));
		assertThat(fixture.transitions).singleElement().satisfies(t -> {
			assertThat(t.remote()).isFalse();
			assertThat(t.reason()).isEqualTo("fleet failure rate 60.0% >= 50% over 30 calls");
		});
	}

	@Test
	void tripNowWaitsTheJitteredOpenWaitCappedAtTheMaximum() {
		Set<Duration> waits = new HashSet<>();
		for (int i = 0; i < 20; i++) {
			Breaker breaker = Breaker.of("payments",
					fixture.config()
						.openWait(Duration.ofSeconds(10))
						.openWaitJitter(0.5)
						.maxOpenWait(Duration.ofSeconds(12))
						.build());
			SharedStateHooks.tripNow(breaker, "fleet");
			Duration wait = Duration.between(fixture.clock.instant(), breaker.snapshot().openUntil());
			assertThat(wait).isBetween(Duration.ofSeconds(5), Duration.ofSeconds(12));
			waits.add(wait);
		}
		assertThat(waits).hasSizeGreaterThan(1);
	}

	@Test
	void aFailedProbeAfterTripNowBacksOffLikeAnyReopen() {
		Breaker breaker = fixture
			.breaker(c -> c.openWait(Duration.ofSeconds(10)).openWaitMultiplier(3).halfOpenFailuresToReopen(1));
		SharedStateHooks.tripNow(breaker, "fleet");
		fixture.advance(Duration.ofSeconds(10));
		assertThat(breaker.state()).isEqualTo(State.HALF_OPEN);

		fail(breaker, 1);

		assertThat(breaker.state()).isEqualTo(State.OPEN);
		assertThat(Duration.between(fixture.clock.instant(), breaker.snapshot().openUntil()))
			.isEqualTo(Duration.ofSeconds(30));
		assertThat(breaker.totals().trips()).isEqualTo(2);
	}

	@Test
	void tripNowLeavesEveryStateButClosedAlone() {
		Breaker breaker = fixture.breaker(c -> c.consecutiveFailures(1));
		fail(breaker, 1);
		SharedStateHooks.tripNow(breaker, "fleet");
		breaker.forceOpen();
		SharedStateHooks.tripNow(breaker, "fleet");
		breaker.disable();
		SharedStateHooks.tripNow(breaker, "fleet");
		breaker.halfOpen();
		SharedStateHooks.tripNow(breaker, "fleet");

		assertThat(fixture.transitions).extracting(Transition::to)
			.containsExactly(State.OPEN, State.FORCED_OPEN, State.DISABLED, State.HALF_OPEN);
	}

	@Test
	void anOverrideCarriesItsReasonAndWhetherAPeerMadeIt() {
		Breaker breaker = fixture.breaker(c -> c.consecutiveFailures(2));
		fail(breaker, 1);

		breaker.override(State.FORCED_OPEN, "operator on r1: FORCED_OPEN on every replica", true);
		breaker.override(State.FORCED_OPEN, "again", true);
		breaker.override(State.CLOSED, "operator: CLOSED on every replica", false);

		assertThat(fixture.transitions).extracting(Transition::to).containsExactly(State.FORCED_OPEN, State.CLOSED);
		assertThat(fixture.transitions).extracting(Transition::reason)
			.containsExactly("operator on r1: FORCED_OPEN on every replica", "operator: CLOSED on every replica");
		assertThat(fixture.transitions).extracting(Transition::remote).containsExactly(true, false);
		assertThat(breaker.snapshot().failures()).isZero();
	}

	@Test
	void theConfigsFailureRateIsTheOneTheRulesJudgeBy() {
		BreakerConfig config = fixture.config().timeoutWeight(1.5).minimumCalls(100).build();
		Breaker breaker = Breaker.of("payments", config);
		succeed(breaker, 6);
		fail(breaker, 2);
		record(breaker, Outcome.TIMEOUT, 2);

		assertThat(config.failureRate(6, 2, 2)).isEqualTo(breaker.snapshot().failureRate())
			.isCloseTo(100.0 * 5 / 11, within(1e-9));
		assertThat(config.failureRate(5, 0, 0)).isZero();
	}

	@Test
	void theRegistryListsChildrenOfNamesWithoutATopLevelBreaker() {
		BreakerRegistry registry = BreakerRegistry.builder().defaults(fixture.config().build()).build();
		Breaker payments = registry.breaker("payments");
		Breaker tenant = registry.breaker("payments", "tenant-7");
		Breaker host = registry.breaker("http", "api.acme.com");

		assertThat(registry.all()).containsExactlyInAnyOrder(payments, tenant, host);
		assertThat(registry.breakers()).containsExactly(payments);
	}

}
