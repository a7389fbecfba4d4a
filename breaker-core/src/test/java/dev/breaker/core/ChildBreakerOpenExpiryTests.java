package dev.breaker.core;

import static dev.breaker.core.Fixture.fail;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A child that tripped by itself is not dropped by idle expiry during its open episode:
 * idle time counts from the end of its open wait, so a dependency called less often than
 * {@code idleExpiry} stays open and keeps its backoff streak. The bound on children still
 * holds: when the group is full, such a child goes before the new key's.
 */
class ChildBreakerOpenExpiryTests {

	private final Fixture fixture = new Fixture();

	private final List<String> removed = new ArrayList<>();

	/**
	 * The HTTP breakers' shape: hosts expire after 10m idle; open wait 1h, doubled per
	 * trip.
	 */
	private BreakerRegistry hosts(int maxEntries) {
		BreakerRegistry registry = BreakerRegistry.builder()
			.defaults(this.fixture.config()
				.consecutiveFailures(1)
				.openWait(Duration.ofHours(1))
				.openWaitMultiplier(2)
				.maxOpenWait(Duration.ofHours(4))
				.halfOpenFailuresToReopen(1)
				.build())
			.children("http", new BreakerRegistry.Children(maxEntries, Duration.ofMinutes(10), false))
			.build();
		registry.onRemoved((b) -> this.removed.add(b.key()));
		return registry;
	}

	/** The host's breaker, tripped now: OPEN for 1h. */
	private static Breaker trippedHost(BreakerRegistry registry) {
		Breaker host = registry.breaker("http", "payments.acme.com");
		fail(host, 1);
		return host;
	}

	@Test
	void anOpenHostBreakerIsNotDroppedBeforeItsOpenWaitEnds() {
		BreakerRegistry registry = hosts(1000);
		Breaker host = trippedHost(registry);
		assertThat(host.state()).isEqualTo(State.OPEN);

		this.fixture.advance(Duration.ofMinutes(11)); // a webhook sender retrying every
														// 11 minutes

		Breaker next = registry.breaker("http", "payments.acme.com");
		assertThat(next).isSameAs(host);
		assertThat(next.state()).as("49 minutes before its open wait ends, the host's breaker is")
			.isEqualTo(State.OPEN);
		assertThat(this.removed).isEmpty();
	}

	@Test
	void aQuietHostKeepsItsBackoffStreakAcrossItsOpenWait() {
		BreakerRegistry registry = hosts(1000);
		Breaker host = trippedHost(registry);

		// nobody calls for the whole open wait, and for 9 minutes more
		this.fixture.advance(Duration.ofMinutes(69));
		registry.breaker("http", "other.example"); // a lookup that sweeps

		Breaker next = registry.breaker("http", "payments.acme.com");
		assertThat(next).as("the host's breaker, 9 minutes after its open wait ended").isSameAs(host);
		assertThat(next.state()).isEqualTo(State.HALF_OPEN);
		fail(next, 1); // the probe fails: the second trip in a row waits twice as long
		assertThat(Duration.between(this.fixture.clock.instant(), next.snapshot().openUntil()))
			.isEqualTo(Duration.ofHours(2));
	}

	@Test
	void idleTimeCountsFromTheEndOfTheOpenWait() {
		BreakerRegistry registry = hosts(1000);
		Breaker host = trippedHost(registry);
		this.fixture.advance(Duration.ofMinutes(69));
		assertThat(registry.find("http:payments.acme.com")).as("found 9 minutes after its open wait")
			.containsSame(host);

		this.fixture.advance(Duration.ofMinutes(1)); // 10 minutes after its open wait
		registry.breaker("http", "other.example");

		assertThat(registry.find("http:payments.acme.com")).isEmpty();
		assertThat(this.removed).containsExactly("payments.acme.com");
		assertThat(registry.breaker("http", "payments.acme.com").state()).isEqualTo(State.CLOSED);
	}

	@Test
	void aHalfOpenHostIsKeptForItsIdleExpiryAfterItsOpenWaitEnded() {
		BreakerRegistry registry = hosts(1000);
		Breaker host = trippedHost(registry);
		this.fixture.advance(Duration.ofHours(1));
		assertThat(host.state()).as("read by metrics, not by a call").isEqualTo(State.HALF_OPEN);

		this.fixture.advance(Duration.ofMinutes(9));
		registry.breaker("http", "other.example");
		assertThat(registry.breaker("http", "payments.acme.com")).isSameAs(host);
	}

	@Test
	void aClosedChildStillExpiresAfterItsIdleExpiry() {
		BreakerRegistry registry = hosts(1000);
		Breaker host = registry.breaker("http", "payments.acme.com");
		this.fixture.advance(Duration.ofMinutes(10));
		registry.breaker("http", "other.example");
		assertThat(this.removed).containsExactly("payments.acme.com");
		assertThat(registry.breaker("http", "payments.acme.com")).isNotSameAs(host);
	}

	@Test
	void whenTheGroupIsFullAnIdleOpenChildGoesBeforeTheNewKeysChild() {
		BreakerRegistry registry = hosts(2);
		Breaker a = registry.breaker("http", "a");
		Breaker b = registry.breaker("http", "b");
		fail(a, 1);
		fail(b, 1);
		this.fixture.advance(Duration.ofMinutes(11));
		registry.breaker("http", "a"); // a: used, b: idle and open

		Breaker c = registry.breaker("http", "c");

		assertThat(this.removed).as("removed for the new key").containsExactly("b");
		assertThat(registry.children("http")).containsExactlyInAnyOrder(a, c);
	}

	@Test
	void whenTheGroupIsFullTheLeastRecentlyUsedOpenChildIsEvictedAsAnyOther() {
		BreakerRegistry registry = hosts(2);
		Breaker a = registry.breaker("http", "a");
		fail(a, 1);
		this.fixture.advance(Duration.ofMinutes(1));
		Breaker b = registry.breaker("http", "b");

		Breaker c = registry.breaker("http", "c");

		assertThat(this.removed).containsExactly("a");
		assertThat(registry.children("http")).containsExactlyInAnyOrder(b, c);
	}

	@Test
	void anOperatorsPinnedChildStaysWhenTheGroupIsFullOfOpenChildren() {
		BreakerRegistry registry = hosts(2);
		Breaker pinned = registry.breaker("http", "pinned");
		pinned.forceOpen();
		Breaker a = registry.breaker("http", "a");
		fail(a, 1);
		this.fixture.advance(Duration.ofMinutes(11));

		registry.breaker("http", "b");

		assertThat(this.removed).containsExactly("a");
		assertThat(registry.find("http:pinned")).containsSame(pinned);
	}

	@Test
	void aNewKeysLookupVisitsAFewChildrenWhenManyIdleChildrenAreOpen() {
		ManualTicker ticker = this.fixture.ticker;
		BreakerConfig config = this.fixture.config()
			.consecutiveFailures(1)
			.openWait(Duration.ofHours(1))
			.maxOpenWait(Duration.ofHours(1))
			.build();
		ChildBreakers group = new ChildBreakers(new BreakerRegistry.Children(1_010, Duration.ofMinutes(10), false),
				ticker);
		List<Breaker> dropped = new ArrayList<>();
		for (int i = 0; i < 1_000; i++) {
			fail(group.get("o" + i, (k) -> new Breaker("http:" + k, config, null, "http", k, 0, group.classification),
					new ArrayList<>(), dropped), 1);
		}
		ticker.advance(Duration.ofMinutes(11));
		long before = group.visited();
		for (int i = 0; i < 2_000; i++) {
			group.get("new-" + i, (k) -> new Breaker("http:" + k, config, null, "http", k, 0, group.classification),
					new ArrayList<>(), dropped);
		}
		assertThat(group.visited() - before).as("children visited by 2000 new keys' lookups with 1000 idle open ones")
			.isLessThanOrEqualTo(1_000 + 5L * 2_000);
		assertThat(group.all()).hasSize(1_010);
		assertThat(dropped).as("children dropped: every new key but the last 10 (the idle open ones first)")
			.hasSize(1_990);
	}

}
