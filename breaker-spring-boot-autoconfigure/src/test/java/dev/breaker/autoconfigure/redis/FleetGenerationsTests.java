package dev.breaker.autoconfigure.redis;

import static dev.breaker.autoconfigure.redis.FleetModeIntegrationTests.failTimes;
import static org.awaitility.Awaitility.await;

import java.time.Duration;

import dev.breaker.core.State;
import dev.breaker.redis.Forgery;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Whatever happened to the keys that order the fleet's transitions (expired after a quiet
 * week, deleted, flushed, or overtaken by a forged message), the next real trip and close
 * still reach every replica.
 */
class FleetGenerationsTests {

	private static final Duration PROPAGATION = Duration.ofSeconds(3);

	@RegisterExtension
	final Replicas replicas = Replicas.onLocalRedis().properties("breaker.shared.redis.quorum=1");

	private Replica a;

	private Replica b;

	@BeforeEach
	void startFleet() {
		a = replicas.start("a");
		b = replicas.start("b");
		b.breaker("payments");
		tripAndCloseReachTheOtherReplica();
	}

	@Test
	void afterTheFleetsKeysExpire() {
		for (String key : replicas.admin().keys("breaker:*payments*")) {
			replicas.admin().redis().pexpire(key, 1);
		}
		await().atMost(PROPAGATION).until(() -> replicas.admin().keys("breaker:*payments*").isEmpty());

		tripAndCloseReachTheOtherReplica();
	}

	@Test
	void afterTheFleetsKeysAreDeleted() {
		replicas.admin().keys("breaker:*payments*").forEach(replicas.admin().redis()::del);

		tripAndCloseReachTheOtherReplica();
	}

	@Test
	void afterFlushAll() {
		replicas.admin().redis().flushall();

		tripAndCloseReachTheOtherReplica();
	}

	@Test
	void afterAForgedOpenFromTheFuture() {
		replicas.admin().publish("breaker:transitions", Forgery.openFromTheFuture("payments", 300));
		await().atMost(PROPAGATION).until(() -> b.breaker("payments").state() == State.OPEN);
		// unsigned, so believed (for at most the max open wait); traffic on both replicas
		// closes it again
		await().atMost(Duration.ofSeconds(10)).until(() -> healthyCall(a) && healthyCall(b));

		tripAndCloseReachTheOtherReplica();
	}

	@Test
	void afterAForgedCloseFromTheFuture() {
		failTimes(a.breaker("payments"), 3);
		await().atMost(PROPAGATION).until(() -> b.breaker("payments").state() == State.OPEN);
		replicas.admin()
			.publish("breaker:transitions",
					Forgery.closeFromTheFuture("payments", Forgery.currentEpisode(replicas.admin(), "payments")));
		// unsigned: believed
		await().atMost(PROPAGATION).until(() -> b.breaker("payments").state() == State.CLOSED);
		a.breaker("payments").reset();
		await().pollDelay(Duration.ofMillis(300)).atMost(PROPAGATION).until(() -> true);

		tripAndCloseReachTheOtherReplica();
	}

	/** A call that works; true once the breaker is closed after it. */
	private static boolean healthyCall(Replica replica) {
		try {
			replica.breaker("payments").call(() -> "ok");
		}
		catch (Exception rejected) {
			// still open here
		}
		return replica.breaker("payments").state() == State.CLOSED;
	}

	private void tripAndCloseReachTheOtherReplica() {
		failTimes(a.breaker("payments"), 3);
		await().atMost(PROPAGATION).until(() -> b.breaker("payments").state() == State.OPEN);
		a.breaker("payments").reset();
		await().atMost(PROPAGATION).until(() -> b.breaker("payments").state() == State.CLOSED);
	}

}
