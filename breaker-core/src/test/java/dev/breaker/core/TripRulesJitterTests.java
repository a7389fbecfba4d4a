package dev.breaker.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The open wait's jitter keeps replicas that tripped together out of lockstep at the
 * {@code maxOpenWait} cap too: capped waits spread below the cap, none piles up on it.
 */
class TripRulesJitterTests {

	private static final int DRAWS = 1000;

	/** The defaults: open wait 30s, multiplier 2, cap 5m, jitter 0.2. */
	private final BreakerConfig defaults = BreakerConfig.builder().build();

	@Test
	void openWaitsAtTheCapStillSpreadSoReplicasDoNotReturnInLockstep() {
		int atExactlyTheCap = 0;
		Set<Long> distinct = new HashSet<>();
		for (int i = 0; i < DRAWS; i++) {
			long wait = TripRules.openWaitNanos(this.defaults, 6, (i + 0.5) / DRAWS); // 6th
																						// trip
																						// in
																						// a
																						// row
			distinct.add(wait);
			if (wait == Duration.ofMinutes(5).toNanos()) {
				atExactlyTheCap++;
			}
		}
		assertThat(atExactlyTheCap).as("of %d replicas tripping together, those reopening at exactly 5m", DRAWS)
			.isLessThan(DRAWS / 10);
		assertThat(distinct).as("distinct open waits of %d replicas", DRAWS).hasSizeGreaterThan(DRAWS * 9 / 10);
	}

	@Test
	void aCappedWaitSpreadsOverTheJittersWholeFractionBelowTheCap() {
		assertThat(TripRules.openWaitNanos(this.defaults, 6, 0.0)).isEqualTo(Duration.ofMinutes(4).toNanos());
		assertThat(TripRules.openWaitNanos(this.defaults, 6, 0.5)).isEqualTo(Duration.ofSeconds(270).toNanos());
		assertThat(TripRules.openWaitNanos(this.defaults, 6, 1.0)).isEqualTo(Duration.ofMinutes(5).toNanos());
		for (int i = 0; i < DRAWS; i++) {
			assertThat(TripRules.openWaitNanos(this.defaults, 30, (i + 0.5) / DRAWS))
				.isBetween(Duration.ofMinutes(4).toNanos(), Duration.ofMinutes(5).toNanos());
		}
	}

	@Test
	void anOpenWaitEqualToTheCapSpreadsToo() {
		BreakerConfig config = BreakerConfig.builder()
			.openWait(Duration.ofMinutes(5))
			.maxOpenWait(Duration.ofMinutes(5))
			.build();
		Set<Long> distinct = new HashSet<>();
		for (int i = 0; i < DRAWS; i++) {
			distinct.add(TripRules.openWaitNanos(config, 1, (i + 0.5) / DRAWS));
		}
		assertThat(distinct).as("distinct first open waits of %d replicas", DRAWS).hasSize(DRAWS);
	}

	@Test
	void aWaitJustBelowTheCapSpreadsFromItsLowerBoundToTheCapWithoutPilingOnIt() {
		// 4m30s ± 20%: from 3m36s, cut at the cap
		BreakerConfig config = BreakerConfig.builder()
			.openWait(Duration.ofSeconds(270))
			.maxOpenWait(Duration.ofMinutes(5))
			.build();
		int atExactlyTheCap = 0;
		for (int i = 0; i < DRAWS; i++) {
			long wait = TripRules.openWaitNanos(config, 1, (i + 0.5) / DRAWS);
			assertThat(wait).isBetween(Duration.ofSeconds(216).toNanos(), Duration.ofMinutes(5).toNanos());
			if (wait == Duration.ofMinutes(5).toNanos()) {
				atExactlyTheCap++;
			}
		}
		assertThat(atExactlyTheCap).isZero();
		assertThat(TripRules.openWaitNanos(config, 1, 0.0)).isEqualTo(Duration.ofSeconds(216).toNanos());
	}

	@Test
	void belowTheCapTheWaitIsSpreadEvenlyAroundIt() {
		assertThat(TripRules.openWaitNanos(this.defaults, 1, 0.0)).isEqualTo(Duration.ofSeconds(24).toNanos());
		assertThat(TripRules.openWaitNanos(this.defaults, 1, 0.5)).isEqualTo(Duration.ofSeconds(30).toNanos());
		assertThat(TripRules.openWaitNanos(this.defaults, 1, 1.0)).isEqualTo(Duration.ofSeconds(36).toNanos());
	}

	@Test
	void withoutJitterTheCapIsTheWait() {
		BreakerConfig config = BreakerConfig.builder().openWaitJitter(0).build();
		assertThat(TripRules.openWaitNanos(config, 6, 0.9)).isEqualTo(Duration.ofMinutes(5).toNanos());
		assertThat(TripRules.openWaitNanos(config, 2, 0.9)).isEqualTo(Duration.ofMinutes(1).toNanos());
	}

}
