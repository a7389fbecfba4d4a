package dev.breaker.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * Children under an operator's override cost a new key's lookup nothing: the lookup looks
 * at a few children, not at every pinned one (counted, not timed).
 */
class PinnedChildrenLookupTests {

	private static final int PINNED = 1_000;

	private static final int LOOKUPS = 2_000;

	private final ManualTicker ticker = new ManualTicker();

	private final BreakerConfig config = BreakerConfig.builder().ticker(this.ticker).build();

	private final List<Breaker> removed = new ArrayList<>();

	private Breaker get(ChildBreakers group, String key) {
		return group.get(key, (k) -> new Breaker("http:" + k, this.config, null, "http", k, 0, group.classification),
				new ArrayList<>(), this.removed);
	}

	@Test
	void aNewKeysLookupVisitsAFewChildrenWhenEveryChildKeptIsPinned() {
		ChildBreakers group = groupOfPinned(PINNED, Duration.ofMinutes(10));
		assertNewKeysVisitFewChildren(group, "pinned");
		assertThat(this.removed).as("each new key's child dropped at once, once").hasSize(LOOKUPS);
		assertThat(group.all()).hasSize(PINNED);
	}

	@Test
	void aNewKeysLookupVisitsAFewChildrenWhenMostChildrenKeptArePinned() {
		ChildBreakers group = groupOfPinned(PINNED + 10, Duration.ofMinutes(10));
		for (int i = 0; i < 10; i++) {
			get(group, "f" + i);
		}
		assertNewKeysVisitFewChildren(group, "pinned");
		assertThat(group.all()).hasSize(PINNED + 10);
	}

	@Test
	void idlePinnedChildrenCostALookupAFewVisitsAndStay() {
		ChildBreakers group = groupOfPinned(PINNED + 10, Duration.ofMinutes(1));
		this.ticker.advance(Duration.ofMinutes(2));
		assertNewKeysVisitFewChildren(group, "idle, pinned");
	}

	/**
	 * A group of at most {@code max} children, the first {@value #PINNED} forced open.
	 */
	private ChildBreakers groupOfPinned(int max, Duration idleExpiry) {
		ChildBreakers group = new ChildBreakers(new BreakerRegistry.Children(max, idleExpiry, false), this.ticker);
		for (int i = 0; i < PINNED; i++) {
			get(group, "p" + i).forceOpen();
		}
		return group;
	}

	/**
	 * {@value #LOOKUPS} new keys' lookups visit at most 4 children each, plus each pinned
	 * child once; every pinned child is kept.
	 */
	private void assertNewKeysVisitFewChildren(ChildBreakers group, String pinned) {
		long before = group.visited();
		for (int i = 0; i < LOOKUPS; i++) {
			get(group, "new-" + i);
		}
		assertThat(group.visited() - before)
			.as("children visited by %d new keys' lookups with %d %s", LOOKUPS, PINNED, pinned)
			.isLessThanOrEqualTo(PINNED + 4L * LOOKUPS);
		for (int i = 0; i < PINNED; i++) {
			assertThat(group.find("p" + i)).as(pinned + " p" + i).isNotNull();
		}
	}

	@Test
	void aPinnedChildResetIsEvictedAgainAsAnyOther() {
		ChildBreakers group = new ChildBreakers(new BreakerRegistry.Children(3, Duration.ofMinutes(10), false),
				this.ticker);
		Breaker pinned = get(group, "p");
		pinned.forceOpen();
		for (int i = 0; i < 10; i++) {
			get(group, "a" + i);
		}
		assertThat(group.find("p")).isSameAs(pinned);
		pinned.reset();
		for (int i = 0; i < 10; i++) {
			get(group, "b" + i);
		}
		assertThat(group.find("p")).as("reset, so no longer kept").isNull();
		assertThat(this.removed).as("removed once").containsOnlyOnce(pinned);
		assertThat(group.all()).hasSize(3);
	}

}
