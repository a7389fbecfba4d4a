package dev.breaker.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * A child under an operator's override (FORCED_OPEN, DISABLED) is kept until it is reset:
 * neither idle expiry nor the least-recently-used bound forgets it (review finding F2).
 */
class ChildOverrideTests {

	private final ManualTicker ticker = new ManualTicker();

	private final List<Breaker> removed = new CopyOnWriteArrayList<>();

	/** Host breakers: at most 3, idle for 10 minutes expire. */
	private final BreakerRegistry registry = BreakerRegistry.builder()
		.defaults(BreakerConfig.builder().ticker(this.ticker).build())
		.children("http", new BreakerRegistry.Children(3, Duration.ofMinutes(10), false))
		.build();

	ChildOverrideTests() {
		this.registry.onRemoved(this.removed::add);
	}

	private Breaker host(String host) {
		return this.registry.breaker("http", host);
	}

	@Test
	void anOperatorsForcedOpenChildOutlivesAQuietPeriodLongerThanTheIdleExpiry() {
		Breaker forced = host("payments.acme.com");
		forced.forceOpen();
		this.ticker.advance(Duration.ofMinutes(11));
		assertThat(host("payments.acme.com").state())
			.as("the operator's override after a quiet period longer than idle-expiry")
			.isEqualTo(State.FORCED_OPEN);
		assertThat(host("payments.acme.com")).isSameAs(forced);
		assertThat(this.removed).isEmpty();
	}

	@Test
	void anOperatorsForcedOpenChildIsNeverTheLeastRecentlyUsedOneEvicted() {
		host("payments.acme.com").forceOpen();
		for (int i = 0; i < 3; i++) {
			host("webhook-" + i + ".example");
		}
		assertThat(host("payments.acme.com").state()).as("the operator's override after three other hosts were called")
			.isEqualTo(State.FORCED_OPEN);
		assertThat(this.registry.children("http")).hasSize(3);
	}

	@Test
	void anOperatorsDisabledChildIsKeptToo() {
		host("payments.acme.com").disable();
		this.ticker.advance(Duration.ofMinutes(11));
		for (int i = 0; i < 3; i++) {
			host("webhook-" + i + ".example");
		}
		assertThat(host("payments.acme.com").state()).as("the operator's DISABLED after a quiet period and three hosts")
			.isEqualTo(State.DISABLED);
	}

	@Test
	void theOperatorStillFindsAnIdleForcedChildToResetIt() {
		Breaker forced = host("payments.acme.com");
		forced.forceOpen();
		this.ticker.advance(Duration.ofMinutes(11));
		assertThat(this.registry.find("http:payments.acme.com")).as("the endpoint's lookup of the idle forced child")
			.containsSame(forced);
		assertThat(this.registry.children("http")).containsExactly(forced);
	}

	@Test
	void aChildResetByTheOperatorIsDroppedAgainAsAnyOther() {
		Breaker forced = host("payments.acme.com");
		forced.forceOpen();
		this.ticker.advance(Duration.ofMinutes(11));
		this.registry.find("http:payments.acme.com").orElseThrow().reset();
		Breaker next = host("other.example");
		assertThat(forced.removed()).as("the reset child, idle for 11 minutes, after the next lookup").isTrue();
		assertThat(this.removed).containsExactly(forced);
		assertThat(host("payments.acme.com")).isNotSameAs(forced);
		assertThat(this.registry.children("http")).hasSize(2).contains(next);
		// and the least recently used reset child is evicted again
		Breaker again = host("payments.acme.com");
		again.forceOpen();
		again.reset();
		host("a.example");
		host("b.example");
		assertThat(next.removed()).isTrue();
		assertThat(again.removed()).isFalse();
		host("c.example");
		assertThat(again.removed()).isTrue();
	}

	@Test
	void whenEveryKeptChildIsPinnedANewKeysChildServesItsCallAndIsDroppedAtOnce() {
		List<Breaker> forced = List.of(host("a.example"), host("b.example"), host("c.example"));
		forced.forEach(Breaker::forceOpen);
		Breaker fresh = host("d.example");
		assertThat(fresh.state()).isEqualTo(State.CLOSED);
		assertThat(fresh.acquire().granted()).isTrue();
		assertThat(fresh.removed()).as("the new key's child, beyond the bound").isTrue();
		assertThat(this.removed).containsExactly(fresh);
		assertThat(this.registry.children("http")).as("the children kept: at most max-entries")
			.containsExactlyInAnyOrderElementsOf(forced);
		assertThat(forced).allSatisfy((b) -> assertThat(b.state()).isEqualTo(State.FORCED_OPEN));
	}

	@Test
	void aPinnedChildDoesNotKeepLaterIdleChildrenFromExpiring() {
		host("payments.acme.com").forceOpen();
		Breaker idle = host("idle.example");
		this.ticker.advance(Duration.ofMinutes(11));
		host("fresh.example");
		assertThat(idle.removed()).as("an idle child behind a pinned one").isTrue();
		assertThat(host("payments.acme.com").state()).isEqualTo(State.FORCED_OPEN);
	}

	@Test
	void aPinnedChildSurvivesLookupsOfManyNewKeysRacingWithIdleExpiry() {
		Breaker forced = host("payments.acme.com");
		forced.forceOpen();
		Concurrently.run(4, (t) -> {
			for (int n = 0; n < 2_000; n++) {
				host("webhook-" + t + "-" + n + ".example");
				if (n % 100 == 0) {
					this.ticker.advance(Duration.ofMinutes(3));
				}
			}
		});
		assertThat(forced.removed()).as("whether the forced child was dropped").isFalse();
		assertThat(host("payments.acme.com")).isSameAs(forced);
		assertThat(forced.state()).isEqualTo(State.FORCED_OPEN);
		assertThat(this.registry.children("http")).hasSizeLessThanOrEqualTo(3).contains(forced);
	}

}
