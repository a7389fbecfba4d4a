package dev.breaker.autoconfigure.redis;

import static dev.breaker.autoconfigure.redis.FleetModeIntegrationTests.failTimes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;

import dev.breaker.core.State;
import dev.breaker.redis.RedisAdmin;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code breaker_shared_store_up} tells the truth within twice the reconnect interval,
 * both ways, also when Redis hangs with its connections open (the real redis-server
 * process frozen with SIGSTOP, then thawed with SIGCONT).
 */
class FleetStoreStatusTests {

	private static final Duration RECONNECT_INTERVAL = Duration.ofMillis(500);

	private static final Duration TRUTH = RECONNECT_INTERVAL.multipliedBy(2);

	@RegisterExtension
	final Replicas replicas = Replicas.onLocalRedis()
		.properties("breaker.shared.redis.quorum=1",
				"breaker.shared.redis.reconnect-interval=" + RECONNECT_INTERVAL.toMillis() + "ms");

	private long pid;

	private boolean frozen;

	@BeforeEach
	void findRedis() {
		pid = replicas.admin().serverPid();
	}

	/** Runs before the replicas and Redis are closed. */
	@AfterEach
	void thawRedis() {
		if (frozen) {
			RedisAdmin.thaw(pid);
		}
	}

	@Test
	void aHungRedisIsReportedDownAndItsReturnUpWithinTwiceTheReconnectInterval() {
		Replica a = replicas.start("a");
		Replica b = replicas.start("b");
		assertThat(a.status().up()).isTrue();
		assertThat(b.status().up()).isTrue();

		RedisAdmin.freeze(pid);
		frozen = true;
		long frozenAt = System.nanoTime();
		await().atMost(TRUTH).pollInterval(Duration.ofMillis(20)).until(() -> !a.status().up() && !b.status().up());
		assertThat(Duration.ofNanos(System.nanoTime() - frozenAt)).isLessThanOrEqualTo(TRUTH);
		// it stays down while Redis hangs, however long that is
		await().pollDelay(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(3)).until(() -> true);
		assertThat(a.status().up()).isFalse();
		assertThat(b.status().up()).isFalse();

		RedisAdmin.thaw(pid);
		frozen = false;
		long thawedAt = System.nanoTime();
		await().atMost(TRUTH).pollInterval(Duration.ofMillis(20)).until(() -> a.status().up() && b.status().up());
		assertThat(Duration.ofNanos(System.nanoTime() - thawedAt)).isLessThanOrEqualTo(TRUTH);
	}

	@Test
	void afterAHangTheFleetSharesAgain() {
		Replica a = replicas.start("a");
		Replica b = replicas.start("b");
		b.breaker("payments");
		RedisAdmin.freeze(pid);
		frozen = true;
		await().atMost(TRUTH).until(() -> !a.status().up());
		// tripped while Redis hangs: its publish times out
		failTimes(a.breaker("payments"), 3);

		await().pollDelay(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(2)).until(() -> true);
		RedisAdmin.thaw(pid);
		frozen = false;

		await().atMost(Duration.ofSeconds(3)).until(() -> b.breaker("payments").state() == State.OPEN);
	}

}
