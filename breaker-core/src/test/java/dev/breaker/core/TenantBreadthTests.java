package dev.breaker.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * A group breaker whose children consult it trips on breadth: only when the failures
 * behind its rule came from at least {@code minFailingChildren} children. One loud tenant
 * opens its own breaker, never the group's.
 */
class TenantBreadthTests {

	private final Fixture fixture = new Fixture();

	/**
	 * Consecutive failures 5, failure rate 50 % over 20 calls, a 10 s window of 1 s
	 * buckets, open 30 s.
	 */
	private final BreakerConfig config = fixture.config().build();

	private BreakerRegistry registry(int minFailing) {
		BreakerRegistry registry = BreakerRegistry.builder()
			.defaults(config)
			.children("recommendations",
					new BreakerRegistry.Children(10_000, Duration.ofMinutes(10), true, minFailing, 128))
			.build();
		registry.breaker("recommendations").onTransition(fixture.transitions::add);
		return registry;
	}

	/** Tenant {@code key}'s breaker: the group's child. */
	private static Breaker tenant(BreakerRegistry registry, String key) {
		return registry.breaker("recommendations", key);
	}

	private static List<Breaker> tenants(BreakerRegistry registry, String prefix, int count) {
		return IntStream.range(0, count).mapToObj(i -> tenant(registry, prefix + i)).toList();
	}

	/** {@code failures} failed calls of tenant {@code key}. */
	private static void failTenant(BreakerRegistry registry, String key, int failures) {
		Fixture.fail(tenant(registry, key), failures);
	}

	/** The state of the group breaker every tenant consults. */
	private static State groupState(BreakerRegistry registry) {
		return registry.breaker("recommendations").state();
	}

	/**
	 * One call through the tenant when its breakers let it; returns whether it was let
	 * through.
	 */
	private static boolean call(Breaker tenant, Outcome outcome) {
		Permit permit = tenant.acquire();
		if (permit.granted()) {
			tenant.release(permit, outcome, 0);
		}
		return permit.granted();
	}

	@Test
	void oneTenantFailingAtAHighRateOpensOnlyItsOwnBreaker() {
		BreakerRegistry registry = registry(3);
		Breaker loud = tenant(registry, "loud");
		List<Breaker> healthy = tenants(registry, "healthy-", 10);
		int loudCalls = 0;
		int healthyServed = 0;
		// two minutes: the loud tenant tries 100 calls per second and every one it makes
		// fails; its breaker
		// opens, probes after each open wait, fails its probes and opens again
		for (int tick = 0; tick < 1200; tick++) {
			for (int i = 0; i < 10; i++) {
				loudCalls += call(loud, Outcome.FAILURE) ? 1 : 0;
			}
			if (tick % 10 == 0) {
				for (Breaker tenant : healthy) {
					healthyServed += call(tenant, Outcome.SUCCESS) ? 1 : 0;
				}
			}
			fixture.advance(Duration.ofMillis(100));
		}
		assertThat(loudCalls).as("the loud tenant's calls that were let through").isGreaterThanOrEqualTo(5);
		assertThat(groupState(registry)).isEqualTo(State.CLOSED);
		assertThat(fixture.transitions).as("the group's transitions").isEmpty();
		assertThat(healthyServed).isEqualTo(120 * 10);
		assertThat(loud.state()).isIn(State.OPEN, State.HALF_OPEN);
		assertThat(loud.totals().trips()).isGreaterThan(1);
		assertThat(healthy).allSatisfy(tenant -> assertThat(tenant.acquire().granted()).isTrue());
	}

	@Test
	void oneTenantFailingAloneAboveTheFailureRateLeavesTheGroupClosed() {
		// the loud tenant's own rules are off here, so every one of its calls reaches the
		// group: 90 % failures
		BreakerRegistry registry = BreakerRegistry.builder()
			.defaults(config)
			.config("recommendations:loud", config.toBuilder().consecutiveFailures(0).failureRateThreshold(0).build())
			.children("recommendations", new BreakerRegistry.Children(100, Duration.ofMinutes(10), true, 3, 128))
			.build();
		Breaker loud = tenant(registry, "loud");
		Breaker quiet = tenant(registry, "quiet");
		for (int i = 0; i < 100; i++) {
			call(loud, Outcome.FAILURE);
			if (i % 10 == 0) {
				call(quiet, Outcome.SUCCESS);
			}
		}
		Snapshot group = registry.breaker("recommendations").snapshot();
		assertThat(group.failureRate()).isGreaterThan(50);
		assertThat(group.consecutiveFailures()).isGreaterThanOrEqualTo(5);
		assertThat(group.state()).isEqualTo(State.CLOSED);
	}

	@Test
	void failuresFromFiveTenantsOpenTheGroup() {
		BreakerRegistry registry = registry(3);
		List<Breaker> failing = tenants(registry, "user-", 5);
		List<Breaker> healthy = tenants(registry, "healthy-", 10);
		healthy.forEach(tenant -> call(tenant, Outcome.SUCCESS));
		failing.forEach(tenant -> call(tenant, Outcome.FAILURE));
		Breaker group = registry.breaker("recommendations");
		assertThat(group.state()).isEqualTo(State.OPEN);
		assertThat(fixture.transitions).extracting(Transition::reason).containsExactly("consecutive failures 5 >= 5");
		assertThat(healthy).allSatisfy(tenant -> assertThat(tenant.acquire().granted()).isFalse());
	}

	@Test
	void theGroupTripsOnceTheThirdTenantFails() {
		BreakerRegistry registry = registry(3);
		Breaker a = tenant(registry, "a");
		Fixture.fail(a, 4);
		failTenant(registry, "b", 1);
		assertThat(groupState(registry)).as("two tenants").isEqualTo(State.CLOSED);
		failTenant(registry, "c", 1);
		assertThat(groupState(registry)).isEqualTo(State.OPEN);
		assertThat(fixture.transitions).extracting(Transition::reason).containsExactly("consecutive failures 6 >= 5");
	}

	@Test
	void aMinimumOfOneTenantTripsTheGroupOnAnyFailuresAsBefore() {
		BreakerRegistry registry = registry(1);
		failTenant(registry, "loud", 5);
		assertThat(groupState(registry)).isEqualTo(State.OPEN);
	}

	/**
	 * A group of min-failing 3 whose {@code tenants} failed once each, {@code later} ago.
	 */
	private BreakerRegistry failedOnceThenLater(Duration later, String... tenants) {
		BreakerRegistry registry = registry(3);
		for (String tenant : tenants) {
			failTenant(registry, tenant, 1);
		}
		fixture.advance(later);
		return registry;
	}

	@Test
	void aTenantWhoseFailuresLeftTheWindowNoLongerCounts() {
		// a and b leave the 10 s window
		BreakerRegistry registry = failedOnceThenLater(Duration.ofSeconds(10), "a", "b");
		Breaker c = tenant(registry, "c");
		Fixture.fail(c, 4);
		assertThat(groupState(registry)).isEqualTo(State.CLOSED);
		failTenant(registry, "d", 1);
		failTenant(registry, "e", 1);
		assertThat(groupState(registry)).isEqualTo(State.OPEN);
	}

	@Test
	void aBroadVerdictDoesNotOutliveTheFailuresBehindIt() {
		BreakerRegistry registry = failedOnceThenLater(Duration.ofSeconds(9), "a", "b");
		// a, b and c failed within the window: broad, but only three failures in a row
		failTenant(registry, "c", 1);
		fixture.advance(Duration.ofMillis(1500));
		// a's and b's failures left the window, c's moved to the new bucket
		failTenant(registry, "c", 2);
		assertThat(groupState(registry)).as("five failures in a row, but only c's in the window")
			.isEqualTo(State.CLOSED);
	}

	@Test
	void aTenantFailingAgainAfterItsFailureLeftTheWindowCountsAgain() {
		BreakerRegistry registry = registry(2);
		failTenant(registry, "a", 1);
		fixture.advance(Duration.ofSeconds(5));
		failTenant(registry, "b", 1);
		fixture.advance(Duration.ofSeconds(5));
		// a's failure has just left the window: b alone is narrow
		failTenant(registry, "b", 3);
		assertThat(groupState(registry)).isEqualTo(State.CLOSED);
		failTenant(registry, "a", 1);
		assertThat(groupState(registry)).as("a and b failed within the window").isEqualTo(State.OPEN);
	}

	@Test
	void aTenantFailingNineSecondsAgoStillCounts() {
		BreakerRegistry registry = failedOnceThenLater(Duration.ofMillis(9999), "a");
		failTenant(registry, "b", 1);
		failTenant(registry, "c", 3);
		assertThat(groupState(registry)).isEqualTo(State.OPEN);
	}

	@Test
	void callsMadeOnTheGroupWithoutATenantTripItAsBefore() {
		BreakerRegistry registry = registry(3);
		Fixture.fail(registry.breaker("recommendations"), 5);
		assertThat(groupState(registry)).isEqualTo(State.OPEN);
	}

	@Test
	void callsWithoutATenantCountAsOneTenantOfTheirOwn() {
		BreakerRegistry registry = registry(3);
		failTenant(registry, "loud", 4);
		Fixture.fail(registry.breaker("recommendations"), 2);
		assertThat(groupState(registry)).as("loud and no tenant").isEqualTo(State.CLOSED);
		failTenant(registry, "other", 1);
		assertThat(groupState(registry)).isEqualTo(State.OPEN);
	}

	@Test
	void theGroupForgetsWhichTenantsFailedWhenItClosesAgain() {
		BreakerRegistry registry = BreakerRegistry.builder()
			.defaults(config.toBuilder().openWait(Duration.ofSeconds(1)).build())
			.children("recommendations", new BreakerRegistry.Children(100, Duration.ofMinutes(10), true, 3, 128))
			.build();
		tenants(registry, "user-", 5).forEach(tenant -> call(tenant, Outcome.FAILURE));
		Breaker group = registry.breaker("recommendations");
		assertThat(group.state()).isEqualTo(State.OPEN);
		fixture.advance(Duration.ofSeconds(1));
		assertThat(group.state()).isEqualTo(State.HALF_OPEN);
		Fixture.succeed(tenant(registry, "prober"), 5);
		assertThat(group.state()).isEqualTo(State.CLOSED);
		Breaker loud = tenant(registry, "loud");
		Fixture.fail(loud, 4);
		call(loud, Outcome.FAILURE);
		assertThat(group.state()).as("user-0..4 failed in this window, but before the group closed")
			.isEqualTo(State.CLOSED);
	}

	@Test
	void aFailureOnAPermitOfTheClosedStateTheGroupLeftCountsTowardNoLaterOne() {
		BreakerRegistry registry = registry(2);
		Breaker group = registry.breaker("recommendations");
		Breaker late = tenant(registry, "late");
		Permit before = late.acquire();
		group.reset();
		late.release(before, Outcome.FAILURE, 0);
		Fixture.fail(tenant(registry, "loud"), 5);
		assertThat(group.state()).as("only loud failed since the group closed again").isEqualTo(State.CLOSED);
		call(tenant(registry, "other"), Outcome.FAILURE);
		assertThat(group.state()).isEqualTo(State.OPEN);
	}

	@Test
	void slowCallsOfOneTenantDoNotTripTheGroupsSlowCallRule() {
		BreakerConfig slowRule = config.toBuilder()
			.consecutiveFailures(0)
			.slowCallRateThreshold(50)
			.minimumCalls(10)
			.build();
		BreakerRegistry registry = BreakerRegistry.builder()
			.defaults(slowRule)
			.config("recommendations:slow", slowRule.toBuilder().slowCallRateThreshold(0).build())
			.children("recommendations", new BreakerRegistry.Children(100, Duration.ofMinutes(10), true, 3, 128))
			.build();
		Breaker slow = tenant(registry, "slow");
		for (int i = 0; i < 50; i++) {
			Fixture.timed(slow, Outcome.SUCCESS, Duration.ofSeconds(3).toNanos());
		}
		assertThat(registry.breaker("recommendations").snapshot().slowCallRate()).isEqualTo(100);
		assertThat(groupState(registry)).isEqualTo(State.CLOSED);
		Fixture.timed(tenant(registry, "b"), Outcome.SUCCESS, Duration.ofSeconds(3).toNanos());
		Fixture.timed(tenant(registry, "c"), Outcome.SUCCESS, Duration.ofSeconds(3).toNanos());
		assertThat(groupState(registry)).isEqualTo(State.OPEN);
	}

	@Test
	void twoTenantsWhoseIdsCollideCountAsOneSoTheGroupTripsLaterNeverSooner() {
		String[] collision = collidingKeys();
		BreakerRegistry registry = registry(3);
		Fixture.fail(tenant(registry, collision[0]), 2);
		Fixture.fail(tenant(registry, collision[1]), 2);
		failTenant(registry, "b", 1);
		assertThat(groupState(registry)).isEqualTo(State.CLOSED);
		failTenant(registry, "c", 1);
		assertThat(groupState(registry)).isEqualTo(State.OPEN);
	}

	/**
	 * Two keys with one 24-bit id, found by search (about 2^12 keys by the birthday
	 * bound).
	 */
	private static String[] collidingKeys() {
		Map<Long, String> seen = new HashMap<>();
		for (int i = 0;; i++) {
			String key = "tenant-" + i;
			String earlier = seen.putIfAbsent(TenantBreadth.id(key), key);
			if (earlier != null) {
				return new String[] { earlier, key };
			}
		}
	}

}
