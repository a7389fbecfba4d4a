package dev.breaker.autoconfigure.redis;

import static dev.breaker.autoconfigure.redis.FleetModeIntegrationTests.failTimes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;

import dev.breaker.core.State;
import dev.breaker.redis.FleetAcl;
import dev.breaker.redis.RedisSentinelSet;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Fleet mode on a Sentinel-managed primary and replica
 * ({@code spring.data.redis.sentinel.*}), three real Sentinels on loopback, the data
 * nodes reached as the production ACL user of docs/fleet-mode.md and the Sentinels with a
 * user of their own. The set is started once for the class; after the test that kills the
 * primary it runs on the promoted replica alone, which the other test does not mind (it
 * asks the Sentinels, as every replica does).
 */
class FleetSentinelTests {

	/**
	 * A call that waited on Redis would have waited for the command timeout, at least.
	 */
	private static final Duration REDIS_TIMEOUT = Duration.ofSeconds(2);

	private static RedisSentinelSet sentinels;

	@RegisterExtension
	final Replicas replicas = Replicas.at(() -> List.of("spring.data.redis.sentinel.master=" + RedisSentinelSet.MASTER,
			"spring.data.redis.sentinel.nodes=" + sentinels.sentinelNodes(),
			"spring.data.redis.sentinel.username=" + RedisSentinelSet.SENTINEL_USER,
			"spring.data.redis.sentinel.password=" + RedisSentinelSet.SENTINEL_PASSWORD,
			"spring.data.redis.username=checkout", "spring.data.redis.password=" + FleetAcl.PASSWORD,
			"breaker.shared.redis.timeout=" + REDIS_TIMEOUT.toMillis() + "ms"));

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

	@Test
	void replicasShareThroughThePrimaryTheSentinelsName() {
		replicas.properties(Replicas.PATIENT_PING);
		Replica a = replicas.start("a");
		Replica b = replicas.start("b");
		Replica c = replicas.start("c");
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
		List<Replica> fleet = List.of(replicas.start("a"), replicas.start("b"), replicas.start("c"));

		Failover.costsNoCallAndSharingResumesWithinTenSecondsOfThePromotion("Sentinel", fleet,
				() -> sentinels.awaitPromotion(sentinels.killPrimary(), Duration.ofSeconds(30)),
				round -> "after-failover-" + round, Duration.ofSeconds(2), REDIS_TIMEOUT);
	}

}
