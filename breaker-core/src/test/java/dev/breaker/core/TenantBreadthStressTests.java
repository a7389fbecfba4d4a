package dev.breaker.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * What a group's breadth count must never get wrong while many threads record failures at
 * once.
 */
class TenantBreadthStressTests {

	private static final int ROUNDS = Integer.getInteger("breaker.stress.rounds",
			"long".equals(System.getProperty("breaker.stress")) ? 5_000 : 300);

	/**
	 * A 10 ms window of 1 ms buckets, so that the threads' failures straddle bucket
	 * boundaries.
	 */
	private final BreakerConfig config = BreakerConfig.builder()
		.ticker(new ManualTicker())
		.window(Duration.ofMillis(10))
		.bucket(Duration.ofMillis(1))
		.build();

	private Breaker child(String key) {
		return new Breaker("recommendations:" + key, config, null, "recommendations", key);
	}

	@Test
	void neverMissesATenantWhenAsManyTenantsFailAsTheMinimum() {
		int minFailing = 4;
		int tables = ROUNDS * 100;
		Breaker[] children = { child("a"), child("b"), child("c"), child("d") };
		TenantBreadth[] breadths = new TenantBreadth[tables];
		for (int t = 0; t < tables; t++) {
			breadths[t] = new TenantBreadth(minFailing, config);
		}
		// each tenant fails once per table, the four threads racing through the same
		// tables; every other
		// table starts 1 us before a bucket boundary, so that some of the four cross it
		Concurrently.run(minFailing, i -> {
			for (int t = 0; t < tables; t++) {
				long now = 1_000_000L * t + 999_000 + (t % 2) * i * 500L;
				breadths[t].failed(children[i], now);
				breadths[t].broad(now);
			}
		});
		int missed = 0;
		for (int t = 0; t < tables; t++) {
			missed += breadths[t].broad(1_000_000L * t + 1_500_000) ? 0 : 1;
		}
		assertThat(missed).as("tables in which four failing tenants read as fewer").isZero();
	}

	@Test
	void neverCountsATenantTwiceWhenItsFailuresRace() {
		int minFailing = 4;
		Breaker[] children = { child("a"), child("b"), child("c") };
		AtomicInteger overcounted = new AtomicInteger();
		for (int round = 0; round < ROUNDS; round++) {
			TenantBreadth breadth = new TenantBreadth(minFailing, config);
			long now = 1_000_000L * round + 500_000;
			Concurrently.run(8, i -> {
				for (int n = 0; n < 500; n++) {
					breadth.failed(children[(i + n) % 3], now);
				}
			});
			if (breadth.broad(now)) {
				overcounted.incrementAndGet();
			}
		}
		assertThat(overcounted.get()).as("rounds in which three failing tenants read as four").isZero();
	}

	@Test
	void aFailureReleasedAsTheGroupClosesAgainNeverCountsTowardTheNewClosedState() {
		BreakerRegistry registry = BreakerRegistry.builder()
			.defaults(config)
			.children("recommendations", new BreakerRegistry.Children(100, Duration.ofMinutes(10), true, 2, 128))
			.build();
		Breaker group = registry.breaker("recommendations");
		Breaker stale = registry.breaker("recommendations", "stale");
		Breaker loud = registry.breaker("recommendations", "loud");
		Permit[] permits = new Permit[8];
		int[] opened = new int[1];
		Rounds.run(Rounds.count(20_000), round -> {
			group.reset();
			stale.reset();
			loud.reset();
			for (int i = 0; i < permits.length; i++) {
				permits[i] = stale.acquire();
			}
		}, round -> {
			// the group closed again while (or after) stale's failures were released:
			// only
			// loud failed in its new CLOSED state, so five failures of loud alone are
			// narrow
			Fixture.fail(loud, 5);
			if (group.currentState() != State.CLOSED) {
				opened[0]++;
			}
		}, thread -> {
			for (Permit permit : permits) {
				stale.release(permit, Outcome.FAILURE, 0);
			}
		}, thread -> group.reset());
		assertThat(opened[0]).as("rounds in which a failure of the CLOSED state the group left opened the next one")
			.isZero();
	}

}
