package dev.breaker.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A group breaker that trips on breadth reopens from half-open only on failed probes from
 * several tenants, never because of one loud tenant (review finding F3).
 */
class HalfOpenBreadthTests {

	private final Fixture fixture = new Fixture();

	/**
	 * A group of tenants that trips when failures came from {@code minFailing} of them;
	 * consecutive failures 5, open wait 1 s, probes: 5 successes close, 3 failures
	 * reopen. The group is tripped by a real outage (five tenants failing once each) and
	 * half-open.
	 */
	private BreakerRegistry halfOpenGroup(int minFailing, UnaryOperator<BreakerConfig.Builder> settings) {
		BreakerRegistry registry = BreakerRegistry.builder()
			.defaults(settings.apply(this.fixture.config().openWait(Duration.ofSeconds(1))).build())
			.children("recommendations",
					new BreakerRegistry.Children(100, Duration.ofMinutes(10), true, minFailing, 128))
			.build();
		Breaker group = registry.breaker("recommendations");
		group.onTransition(this.fixture.transitions::add);
		for (int i = 0; i < 5; i++) {
			Fixture.fail(registry.breaker("recommendations", "user-" + i), 1);
		}
		assertThat(group.state()).isEqualTo(State.OPEN);
		this.fixture.advance(Duration.ofSeconds(1));
		assertThat(group.state()).isEqualTo(State.HALF_OPEN);
		this.fixture.transitions.clear();
		return registry;
	}

	private BreakerRegistry halfOpenGroup(int minFailing) {
		return halfOpenGroup(minFailing, UnaryOperator.identity());
	}

	/**
	 * Makes {@code times} calls through {@code breaker} ending with {@code outcome}; a
	 * rejected one is not made (the state the test then asserts tells why).
	 */
	private static void probe(Outcome outcome, Breaker breaker, int times) {
		for (int i = 0; i < times; i++) {
			Permit permit = breaker.acquire();
			if (permit.granted()) {
				breaker.release(permit, outcome, 0);
			}
		}
	}

	@Test
	void oneLoudTenantsFailedProbesDoNotReopenTheGroupForEveryTenant() {
		BreakerRegistry registry = halfOpenGroup(3);
		Breaker group = registry.breaker("recommendations");
		probe(Outcome.FAILURE, registry.breaker("recommendations", "loud"), 4);
		assertThat(group.state()).as("the group every tenant consults, after one tenant's four failed probes")
			.isEqualTo(State.HALF_OPEN);
		assertThat(group.snapshot().probes().failures()).as("the loud tenant's failed probes, still shown")
			.isEqualTo(4);
		// the other tenants' probes succeed: the dependency is back for them
		for (int i = 0; i < 5; i++) {
			probe(Outcome.SUCCESS, registry.breaker("recommendations", "quiet-" + i), 1);
		}
		assertThat(group.state()).isEqualTo(State.CLOSED);
		assertThat(this.fixture.transitions).extracting(Transition::to).containsExactly(State.CLOSED);
	}

	/**
	 * The failed probes of {@code halfOpen} (tenants' keys, {@code -} for a call made on
	 * the group itself) leave the group half-open; one more, of {@code last}, reopens it,
	 * once, for {@code reason}.
	 */
	@ParameterizedTest(name = "min-failing {0}: {1}, then {2}")
	@CsvSource(delimiter = '|',
			value = { "3 | a a b b | c    | 5 of 5 probes failed, from at least 3 tenants",
					"2 | a b     | a    | 3 of 3 probes failed, from at least 2 tenants",
					"5 | a b     | c    | 3 of 3 probes failed, from at least 3 tenants",
					"3 | - - a a | b    | 5 of 5 probes failed, from at least 3 tenants" })
	void reopensOnFailuresToReopenFailedProbesFromAsManyTenantsAsTheMinimumOrFailuresToReopenIfFewer(int minFailing,
			String halfOpen, String last, String reason) {
		BreakerRegistry registry = halfOpenGroup(minFailing);
		Breaker group = registry.breaker("recommendations");
		for (String tenant : halfOpen.split(" ")) {
			probe(Outcome.FAILURE, tenant.equals("-") ? group : registry.breaker("recommendations", tenant), 1);
		}
		assertThat(group.state()).as("after the failed probes of %s", halfOpen).isEqualTo(State.HALF_OPEN);
		probe(Outcome.FAILURE, registry.breaker("recommendations", last), 1);
		assertThat(group.state()).as("and one of %s", last).isEqualTo(State.OPEN);
		assertThat(this.fixture.transitions).singleElement().extracting(Transition::reason).isEqualTo(reason);
	}

	@Test
	void aLoudTenantsOwnBreakerStillOpensOnItsFailedProbes() {
		BreakerRegistry registry = halfOpenGroup(3);
		Breaker loud = registry.breaker("recommendations", "loud");
		probe(Outcome.FAILURE, loud, 5);
		assertThat(loud.state()).as("the loud tenant's own breaker, after five failures").isEqualTo(State.OPEN);
		assertThat(loud.acquire().granted()).isFalse();
		assertThat(registry.breaker("recommendations").state()).isEqualTo(State.HALF_OPEN);
	}

	/**
	 * As before the breadth rule: calls made on a group that trips on breadth without a
	 * tenant (as in CLOSED, failures from no child at all are broad), and one tenant's
	 * calls on a group that does not trip on breadth.
	 */
	@ParameterizedTest(name = "min-failing {0}, failed probes of ''{1}''")
	@CsvSource({ "3, ''", "1, loud" })
	void threeFailedProbesReopenAsBeforeTheGroupItselfsOrAnyTenantsOfAGroupNotTrippingOnBreadth(int minFailing,
			String tenant) {
		BreakerRegistry registry = halfOpenGroup(minFailing);
		Breaker group = registry.breaker("recommendations");
		probe(Outcome.FAILURE, tenant.isEmpty() ? group : registry.breaker("recommendations", tenant), 3);
		assertThat(group.state()).isEqualTo(State.OPEN);
		assertThat(this.fixture.transitions).singleElement()
			.extracting(Transition::reason)
			.isEqualTo("3 of 3 probes failed");
	}

	/**
	 * Half-open with a max wait of 30 s, two successes in (four probes at once allowed):
	 * the group and its registry.
	 */
	private BreakerRegistry halfOpenGroupWaiting30s(int successes) {
		BreakerRegistry registry = halfOpenGroup(3, (c) -> c.halfOpenMaxWait(Duration.ofSeconds(30)));
		probe(Outcome.SUCCESS, registry.breaker("recommendations", "warm"), successes);
		return registry;
	}

	@Test
	void aTenantsProbeWithoutAVerdictWithinTheMaxWaitIsItsFailedProbeAndGivesItsSlotBack() {
		BreakerRegistry registry = halfOpenGroupWaiting30s(0);
		Breaker group = registry.breaker("recommendations");
		Breaker loud = registry.breaker("recommendations", "loud");
		Permit hung = loud.acquire();
		assertThat(hung.granted()).isTrue();
		this.fixture.advance(Duration.ofSeconds(30));
		assertThat(group.state()).as("the group after one tenant's probe had no verdict within 30s")
			.isEqualTo(State.HALF_OPEN);
		assertThat(group.snapshot().probes()).satisfies((p) -> {
			assertThat(p.failures()).as("failed probes").isEqualTo(1);
			assertThat(p.inFlight()).as("probes in flight").isZero();
		});
		Permit next = registry.breaker("recommendations", "quiet").acquire();
		assertThat(next.granted()).as("another tenant's probe, in the slot given back").isTrue();

		loud.release(hung, Outcome.FAILURE, Duration.ofSeconds(30).toNanos());
		assertThat(group.snapshot().probes()).satisfies((p) -> {
			assertThat(p.failures()).as("failed probes after the hung one failed late").isEqualTo(1);
			assertThat(p.inFlight()).as("probes in flight: the other tenant's").isEqualTo(1);
		});
		assertThat(group.totals().probeFailures()).isEqualTo(1);
		assertThat(this.fixture.transitions).isEmpty();
	}

	@Test
	void oneLoudTenantsHungProbesFailingLateNeverReopenTheGroupWhileOtherTenantsProbe() {
		BreakerRegistry registry = halfOpenGroupWaiting30s(0);
		Breaker group = registry.breaker("recommendations");
		Breaker loud = registry.breaker("recommendations", "loud");
		for (int i = 0; i < 4; i++) {
			Permit hung = loud.acquire();
			assertThat(hung.granted()).as("the loud tenant's probe %d", i).isTrue();
			this.fixture.advance(Duration.ofSeconds(30));
			// another tenant's probe takes the slot given back, then the hung one fails
			Breaker quiet = registry.breaker("recommendations", "quiet-" + i);
			Permit other = quiet.acquire();
			assertThat(other.granted()).as("tenant quiet-%d's probe", i).isTrue();
			loud.release(hung, Outcome.FAILURE, Duration.ofSeconds(30).toNanos());
			assertThat(group.state()).as("the group after the loud tenant's hung probe %d failed late", i)
				.isEqualTo(State.HALF_OPEN);
			quiet.release(other, Outcome.IGNORED, 0);
		}
		assertThat(group.snapshot().probes().failures()).as("the loud tenant's hung probes, each counted once")
			.isEqualTo(4);
		probe(Outcome.SUCCESS, registry.breaker("recommendations", "quiet-0"), 5);
		assertThat(group.state()).isEqualTo(State.CLOSED);
		assertThat(this.fixture.transitions).extracting(Transition::to).containsExactly(State.CLOSED);
	}

	/**
	 * After {@code successes}, probes of {@code hung} (tenants' keys, {@code -} for a
	 * call made on the group itself) get no verdict within the max wait: the group
	 * reopens, once, for {@code reason}, and their late failures change nothing.
	 */
	@ParameterizedTest(name = "{1} after {0} successes")
	@CsvSource(delimiter = '|',
			value = { "2 | a b c | 3 of 5 probes failed, from at least 3 tenants (3 without a verdict within 30s)",
					"0 | -     | no probe verdict within 30s" })
	void hungProbesOfAsManyTenantsAsTheMinimumOrOfTheGroupItselfReopenIt(int successes, String hung, String reason) {
		BreakerRegistry registry = halfOpenGroupWaiting30s(successes);
		Breaker group = registry.breaker("recommendations");
		Map<Breaker, Permit> probes = new LinkedHashMap<>();
		for (String tenant : hung.split(" ")) {
			Breaker breaker = tenant.equals("-") ? group : registry.breaker("recommendations", tenant);
			probes.put(breaker, breaker.acquire());
			assertThat(probes.get(breaker).granted()).as(tenant).isTrue();
		}
		this.fixture.advance(Duration.ofSeconds(30));
		assertThat(group.state()).isEqualTo(State.OPEN);
		probes.forEach((breaker, permit) -> breaker.release(permit, Outcome.FAILURE, Duration.ofSeconds(30).toNanos()));
		assertThat(this.fixture.transitions).singleElement().extracting(Transition::reason).isEqualTo(reason);
	}

	@Test
	void aNewHalfOpenEpisodeCountsItsTenantsAfresh() {
		BreakerRegistry registry = halfOpenGroup(3);
		Breaker group = registry.breaker("recommendations");
		probe(Outcome.FAILURE, registry.breaker("recommendations", "a"), 1);
		probe(Outcome.FAILURE, registry.breaker("recommendations", "b"), 1);
		group.forceOpen();
		group.halfOpen();
		probe(Outcome.FAILURE, registry.breaker("recommendations", "c"), 1);
		probe(Outcome.FAILURE, registry.breaker("recommendations", "c"), 1);
		assertThat(group.state()).as("two tenants of the last episode and one of this one").isEqualTo(State.HALF_OPEN);
	}

}
