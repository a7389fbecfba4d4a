package dev.breaker.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * What a half-open group that trips on breadth must never get wrong while its tenants'
 * probes race: a tenant lost (the group never reopens) or counted twice (it reopens on
 * fewer tenants than the minimum), more probes than its limit, or two transitions for one
 * verdict.
 */
class HalfOpenBreadthStressTests {

	private static final int ROUNDS = Integer.getInteger("breaker.stress.rounds",
			"long".equals(System.getProperty("breaker.stress")) ? 2_000 : 150);

	private static final int MAX_PROBES = 8;

	private final List<Transition> transitions = new CopyOnWriteArrayList<>();

	/**
	 * A half-open group of tenants (min-failing 3, failures-to-reopen 3, 8 probes at once
	 * once ramped up, closing only after 1000 successes); its tenants' own breakers trip
	 * on nothing the test does.
	 */
	private BreakerRegistry halfOpenGroup() {
		BreakerConfig config = BreakerConfig.builder()
			.ticker(new ManualTicker())
			.consecutiveFailures(1_000_000)
			.minimumCalls(1_000_000)
			.halfOpenMaxProbes(MAX_PROBES)
			.halfOpenSuccessesToClose(1_000)
			.halfOpenFailuresToReopen(3)
			.build();
		BreakerRegistry registry = BreakerRegistry.builder()
			.defaults(config)
			.children("recommendations", new BreakerRegistry.Children(100, Duration.ofMinutes(10), true, 3, 128))
			.build();
		Breaker group = registry.breaker("recommendations");
		group.halfOpen();
		// three successes ramp the probes up to 8 at once
		Fixture.succeed(registry.breaker("recommendations", "warm"), 3);
		assertThat(group.snapshot().probes().limit()).isEqualTo(MAX_PROBES);
		transitions.clear();
		group.onTransition(transitions::add);
		return registry;
	}

	@Test
	void neverReopensOnRacingFailedProbesFromTwoTenants() {
		AtomicInteger inFlight = new AtomicInteger();
		AtomicInteger mostInFlight = new AtomicInteger();
		for (int round = 0; round < ROUNDS; round++) {
			BreakerRegistry registry = halfOpenGroup();
			Breaker[] tenants = { registry.breaker("recommendations", "a"), registry.breaker("recommendations", "b") };
			Concurrently.run(8, i -> {
				Breaker tenant = tenants[i % 2];
				for (int n = 0; n < 100; n++) {
					Permit permit = tenant.acquire();
					if (permit.granted()) {
						mostInFlight.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
						inFlight.decrementAndGet();
						tenant.release(permit, Outcome.FAILURE, 0);
					}
				}
			});
			assertThat(registry.breaker("recommendations").state())
				.as("round %d: the group after failed probes from two tenants only", round)
				.isEqualTo(State.HALF_OPEN);
			assertThat(transitions).isEmpty();
		}
		assertThat(mostInFlight.get()).as("probes in flight at once").isLessThanOrEqualTo(MAX_PROBES);
	}

	@Test
	void reopensExactlyOnceWhenThreeTenantsFailTheirProbesAtOnce() {
		for (int round = 0; round < ROUNDS; round++) {
			BreakerRegistry registry = halfOpenGroup();
			Breaker group = registry.breaker("recommendations");
			Breaker[] tenants = { registry.breaker("recommendations", "a"), registry.breaker("recommendations", "b"),
					registry.breaker("recommendations", "c") };
			// two threads per tenant, each failing one probe
			Concurrently.run(6, i -> {
				Breaker tenant = tenants[i % 3];
				while (group.state() == State.HALF_OPEN) {
					Permit permit = tenant.acquire();
					if (permit.granted()) {
						tenant.release(permit, Outcome.FAILURE, 0);
						return;
					}
				}
			});
			assertThat(group.state()).as("round %d: the group after failed probes from three tenants", round)
				.isEqualTo(State.OPEN);
			assertThat(transitions).as("round %d", round).singleElement().satisfies((t) -> {
				assertThat(t.from()).isEqualTo(State.HALF_OPEN);
				assertThat(t.reason()).endsWith("from at least 3 tenants");
			});
		}
	}

}
