package dev.breaker.autoconfigure.redis;

import static dev.breaker.autoconfigure.redis.FleetModeIntegrationTests.failTimes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;

import dev.breaker.core.State;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Redis can answer and still refuse a write: full memory ({@code OOM}), a demoted primary
 * ({@code READONLY}), a Cluster without a primary for a slot ({@code CLUSTERDOWN}). The
 * store stays up (Redis answered), but what it refused must not be lost: a trip it
 * refused reaches the fleet once Redis takes writes again, without a reconnect.
 */
class FleetRefusedWritesTests {

	@RegisterExtension
	final Replicas replicas = Replicas.onLocalRedis().properties("breaker.shared.redis.quorum=1");

	@Test
	void aTripRedisRefusedWhileStillAnsweringReachesTheFleetOnceRedisTakesWritesAgain() {
		Replica a = replicas.start("a");
		Replica b = replicas.start("b");
		b.breaker("payments");
		// a primary demoted by a failover answers every write with READONLY
		replicas.admin().redis().replicaof("127.0.0.1", 1);

		failTimes(a.breaker("payments"), 3);
		await().atMost(Duration.ofSeconds(3)).until(() -> a.status().errors() > 0);
		assertThat(a.status().up()).as("Redis answered: not an outage").isTrue();
		assertThat(b.breaker("payments").state()).isEqualTo(State.CLOSED);

		replicas.admin().redis().replicaofNoOne();
		await().atMost(Duration.ofSeconds(5)).until(() -> b.breaker("payments").state() == State.OPEN);
		assertThat(b.breaker("payments").snapshot().transitions()).last()
			.satisfies((open) -> assertThat(open.reason()).contains("re-sync"));
	}

}
