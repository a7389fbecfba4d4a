package dev.breaker.autoconfigure.redis;

import static dev.breaker.autoconfigure.redis.FleetModeIntegrationTests.failTimes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;
import java.util.function.LongSupplier;

import dev.breaker.core.State;

/**
 * A Redis primary killed while three replicas ({@code a}, {@code b}, {@code c}) make
 * steady guarded calls, behind Sentinel or in a Cluster: no call fails or waits on Redis,
 * every replica's store status shows the outage and its end, and a trip on two replicas
 * opens the third again within 10 s of the promotion.
 */
final class Failover {

	private Failover() {
	}

	/**
	 * Kills the primary under load ({@code killAndAwaitPromotion} returns when the
	 * replica was promoted, {@code System.nanoTime()}) and checks what the fleet went
	 * through. {@code names} gives a fresh breaker name a round (its keys on the primary
	 * that died); {@code topology} heads the line of numbers printed.
	 */
	static void costsNoCallAndSharingResumesWithinTenSecondsOfThePromotion(String topology, List<Replica> fleet,
			LongSupplier killAndAwaitPromotion, IntFunction<String> names, Duration upAgainWithin,
			Duration redisTimeout) throws Exception {
		long resumedAt;
		long promotedAt;
		Instant killed;
		try (GuardedLoad load = new GuardedLoad(fleet, "checkout")) {
			long callsBefore = load.calls();
			long killedAt = System.nanoTime();
			killed = Instant.now();
			promotedAt = killAndAwaitPromotion.getAsLong();

			resumedAt = firstTripThatReachesTheThird(fleet.get(0), fleet.get(1), fleet.get(2), promotedAt, names);
			assertThat(resumedAt).as("a trip reached the third replica within 10 s of the promotion").isPositive();
			load.close();
			System.out.printf(
					"%s failover: primary killed -> replica promoted %d ms, promoted -> a trip on two replicas "
							+ "had opened the third %d ms; %d guarded calls, %d failed, the slowest %.2f ms%n",
					topology, (promotedAt - killedAt) / 1_000_000, (resumedAt - promotedAt) / 1_000_000, load.calls(),
					load.failed().size(), load.slowest().toNanos() / 1e6);
			// up again, and done with the re-read that starts when Redis answers again:
			// it walks every primary, so it ends a few milliseconds after "up"
			await().atMost(upAgainWithin)
				.until(() -> fleet.stream()
					.allMatch(r -> r.status().up() && r.status().lastSync() != null
							&& r.status().lastSync().isAfter(killed)));

			assertThat(load.calls()).isGreaterThan(callsBefore);
			assertThat(load.failed()).as("guarded calls that failed").isEmpty();
			assertThat(load.slowest()).as("the slowest guarded call").isLessThan(redisTimeout.dividedBy(2));
			assertThat(load.sawDown()).as("the store status showed the outage").isTrue();
		}
		assertThat(Duration.ofNanos(resumedAt - promotedAt)).isLessThan(Duration.ofSeconds(10));
		assertThat(fleet).allSatisfy(r -> {
			assertThat(r.status().up()).isTrue();
			assertThat(r.status().errors()).isPositive();
			assertThat(r.status().lastSync()).as("the fleet's state read again since the primary died").isAfter(killed);
		});
	}

	/**
	 * Sharing resumes by itself: trips a fresh breaker ({@code names} of the round) on
	 * {@code a} and {@code b} (the quorum) until one reaches {@code c}, for at most 10 s
	 * after {@code promotedAt}; returns when it did (System.nanoTime()), 0 if none did.
	 */
	private static long firstTripThatReachesTheThird(Replica a, Replica b, Replica c, long promotedAt,
			IntFunction<String> names) {
		for (int round = 0; System.nanoTime() - promotedAt < TimeUnit.SECONDS.toNanos(10); round++) {
			String name = names.apply(round);
			c.breaker(name);
			failTimes(a.breaker(name), 3);
			failTimes(b.breaker(name), 3);
			long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(500);
			while (System.nanoTime() < deadline) {
				if (c.breaker(name).state() == State.OPEN) {
					return System.nanoTime();
				}
				GuardedLoad.pause(5);
			}
		}
		return 0;
	}

}
