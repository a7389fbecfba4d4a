package dev.breaker.autoconfigure.redis;

import static dev.breaker.autoconfigure.redis.FleetModeIntegrationTests.failTimes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;

import dev.breaker.core.State;
import dev.breaker.redis.FleetAcl;
import dev.breaker.redis.RedisSentinelSet;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Fleet mode on a Sentinel-managed primary and replica
 * ({@code spring.data.redis.sentinel.*}), three real Sentinels on loopback, the data
 * nodes reached as the README's ACL user and the Sentinels with a user of their own. The
 * set is started once for the class; after the test that kills the primary it runs on the
 * promoted replica alone, which the other test does not mind (it asks the Sentinels, as
 * every replica does).
 */
class FleetSentinelTests {

	/**
	 * A call that waited on Redis would have waited for the command timeout, at least.
	 */
	private static final Duration REDIS_TIMEOUT = Duration.ofSeconds(2);

	private static RedisSentinelSet sentinels;

	private final List<Replica> replicas = new ArrayList<>();

	@BeforeAll
	static void startSentinels() {
		sentinels = RedisSentinelSet.start("user checkout " + FleetAcl.RULES);
	}

	@AfterAll
	static void stopSentinels() {
		if (sentinels != null) {
			sentinels.close();
		}
	}

	@AfterEach
	void stopReplicas() {
		replicas.forEach(Replica::close);
	}

	@Test
	void replicasShareThroughThePrimaryTheSentinelsName() {
		Replica a = replica("a");
		Replica b = replica("b");
		Replica c = replica("c");
		c.breaker("payments");

		failTimes(a.breaker("payments"), 3);
		failTimes(b.breaker("payments"), 3);

		await().atMost(Duration.ofSeconds(5)).until(() -> c.breaker("payments").state() == State.OPEN);
		a.breaker("payments").reset();
		await().atMost(Duration.ofSeconds(5)).until(() -> c.breaker("payments").state() == State.CLOSED);
		long left = sentinels.onPrimary(r -> r.sync().exists("breaker:{payments}:open"));
		assertThat(left).isZero();
		assertThat(List.of(a, b, c)).allSatisfy(r -> assertThat(r.status().errors()).isZero());
		List<Object> denied = sentinels.onPrimary(r -> FleetAcl.deniedSoFar(r.sync()));
		assertThat(denied).as("commands the ACL refused").isEmpty();
	}

	@Test
	void aKilledPrimaryCostsNoCallAndSharingResumesWithinTenSecondsOfThePromotion() throws Exception {
		Replica a = replica("a");
		Replica b = replica("b");
		Replica c = replica("c");
		List<Replica> fleet = List.of(a, b, c);
		long resumedAt;
		long promotedAt;
		Instant killed;
		long callsBefore;
		try (GuardedLoad load = new GuardedLoad(fleet, "checkout")) {
			callsBefore = load.calls();
			long killedAt = System.nanoTime();
			killed = Instant.now();
			int oldPrimary = sentinels.killPrimary();
			promotedAt = sentinels.awaitPromotion(oldPrimary, Duration.ofSeconds(30));

			resumedAt = firstTripThatReachesTheThird(a, b, c, promotedAt, round -> "after-failover-" + round);
			assertThat(resumedAt).as("a trip reached the third replica within 10 s of the promotion").isPositive();
			load.close();
			System.out.printf(
					"Sentinel failover: primary killed -> replica promoted %d ms, promoted -> a trip on two replicas "
							+ "had opened the third %d ms; %d guarded calls, %d failed, the slowest %.2f ms%n",
					(promotedAt - killedAt) / 1_000_000, (resumedAt - promotedAt) / 1_000_000, load.calls(),
					load.failed().size(), load.slowest().toNanos() / 1e6);
			await().atMost(Duration.ofSeconds(2)).until(() -> fleet.stream().allMatch(r -> r.status().up()));

			assertThat(load.calls()).isGreaterThan(callsBefore);
			assertThat(load.failed()).as("guarded calls that failed").isEmpty();
			assertThat(load.slowest()).as("the slowest guarded call").isLessThan(REDIS_TIMEOUT.dividedBy(2));
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
	static long firstTripThatReachesTheThird(Replica a, Replica b, Replica c, long promotedAt,
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

	private Replica replica(String id) {
		Replica replica = Replica.start(id, FleetQuorumTests.config(Duration.ofSeconds(30)),
				"spring.data.redis.sentinel.master=" + RedisSentinelSet.MASTER,
				"spring.data.redis.sentinel.nodes=" + sentinels.sentinelNodes(),
				"spring.data.redis.sentinel.username=" + RedisSentinelSet.SENTINEL_USER,
				"spring.data.redis.sentinel.password=" + RedisSentinelSet.SENTINEL_PASSWORD,
				"spring.data.redis.username=checkout", "spring.data.redis.password=" + FleetAcl.PASSWORD,
				"breaker.shared.redis.timeout=" + REDIS_TIMEOUT.toMillis() + "ms");
		replicas.add(replica);
		return replica;
	}

}
