package dev.breaker.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;

import org.junit.jupiter.api.Test;

/**
 * Tenants count as distinct by their keys, not by their keys' {@link String#hashCode}:
 * keys built to share one hashCode ("Aa" and "BB") are two tenants.
 */
class TenantIdsTests {

	@Test
	void twoTenantsWhoseKeysShareAHashCodeCountAsTwoTenantsInHalfOpen() {
		assertThat("user-Aa".hashCode()).isEqualTo("user-BB".hashCode());
		Fixture fixture = new Fixture();
		BreakerRegistry tenants = BreakerRegistry.builder()
			.defaults(fixture.config().openWait(Duration.ofSeconds(1)).build())
			.children("recommendations", new BreakerRegistry.Children(100, Duration.ofMinutes(10), true, 2, 128))
			.build();
		Breaker group = tenants.breaker("recommendations");
		for (int i = 0; i < 5; i++) {
			Fixture.fail(tenants.breaker("recommendations", "user-" + i), 1);
		}
		fixture.advance(Duration.ofSeconds(1));
		assertThat(group.state()).isEqualTo(State.HALF_OPEN);
		Breaker aa = tenants.breaker("recommendations", "user-Aa");
		Breaker bb = tenants.breaker("recommendations", "user-BB");
		aa.release(aa.acquire(), Outcome.FAILURE, 0);
		bb.release(bb.acquire(), Outcome.FAILURE, 0);
		aa.release(aa.acquire(), Outcome.FAILURE, 0);
		assertThat(group.state()).as("3 failed probes from 2 distinct tenants, min-failing 2").isEqualTo(State.OPEN);
	}

	@Test
	void keysOfOneHashCodeFamilyGetDistinctIds() {
		String[] family = { "AaAaAa", "AaAaBB", "AaBBAa", "AaBBBB", "BBAaAa", "BBAaBB", "BBBBAa", "BBBBBB" };
		java.util.Set<Long> ids = new java.util.HashSet<>();
		for (String key : family) {
			assertThat(key.hashCode()).isEqualTo(family[0].hashCode());
			ids.add(TenantBreadth.id(key));
		}
		assertThat(ids).as("ids of 8 keys with one hashCode").hasSize(8);
	}

}
