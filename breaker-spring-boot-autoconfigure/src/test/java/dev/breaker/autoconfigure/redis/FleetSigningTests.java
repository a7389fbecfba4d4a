package dev.breaker.autoconfigure.redis;

import static dev.breaker.autoconfigure.redis.FleetModeIntegrationTests.failTimes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;

import dev.breaker.actuate.metrics.SharedStoreMetrics;
import dev.breaker.core.State;
import dev.breaker.redis.Forgery;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * With {@code breaker.shared.redis.signing-key}, replicas believe only what a holder of
 * the key wrote: unsigned or forged messages and hashes are dropped and counted in
 * {@code breaker_shared_store_rejected_messages_total}.
 */
class FleetSigningTests {

	private static final String KEY = "signing-key-of-the-checkout-fleet";

	private static final Duration SETTLE = Duration.ofMillis(1500);

	@RegisterExtension
	final Replicas replicas = Replicas.onLocalRedis();

	@Test
	void replicasSharingTheKeyShareTripsAndCloses() {
		Replica a = replica("a", KEY, 1);
		Replica b = replica("b", KEY, 1);
		b.breaker("payments");

		failTimes(a.breaker("payments"), 3);
		await().atMost(Duration.ofSeconds(3)).until(() -> b.breaker("payments").state() == State.OPEN);
		a.breaker("payments").reset();
		await().atMost(Duration.ofSeconds(3)).until(() -> b.breaker("payments").state() == State.CLOSED);
		assertThat(rejected(b)).isZero();
	}

	@Test
	void aReplayedAnnouncementOfAnEndedEpisodeIsIgnored() {
		Replica a = replica("a", KEY, 1);
		Replica b = replica("b", KEY, 1);
		b.breaker("payments");
		List<String> announced = replicas.admin().listen("breaker:transitions");
		failTimes(a.breaker("payments"), 3);
		await().atMost(Duration.ofSeconds(3)).until(() -> b.breaker("payments").state() == State.OPEN);
		a.breaker("payments").reset();
		await().atMost(Duration.ofSeconds(3)).until(() -> b.breaker("payments").state() == State.CLOSED);

		// the signed open, captured off the channel
		replicas.admin().publish("breaker:transitions", announced.get(0));

		await().pollDelay(SETTLE).atMost(SETTLE.plusSeconds(1)).until(() -> true);
		assertThat(b.breaker("payments").state()).isEqualTo(State.CLOSED);
	}

	@Test
	void anUnsignedMessageIsDroppedAndCounted() {
		Replica b = replica("b", KEY, 1);
		b.breaker("payments");

		replicas.admin().publish("breaker:transitions", Forgery.open("payments", 60_000, "mallory", "forged"));

		await().atMost(Duration.ofSeconds(3)).until(() -> rejected(b) == 1);
		assertThat(b.breaker("payments").state()).isEqualTo(State.CLOSED);
	}

	@Test
	void aMessageSignedWithAnotherKeyIsDroppedAndCounted() {
		Replica stranger = replica("stranger", "a-key-that-is-not-the-fleets", 1);
		Replica b = replica("b", KEY, 1);
		b.breaker("payments");

		failTimes(stranger.breaker("payments"), 3);

		await().atMost(Duration.ofSeconds(3)).until(() -> rejected(b) >= 1);
		assertThat(b.breaker("payments").state()).isEqualTo(State.CLOSED);
	}

	@Test
	void anUnsignedOpenCircuitInRedisIsIgnoredByAReplicaStartingLater() {
		Forgery.storeOpen(replicas.admin(), "payments", 60_000, "mallory", "forged");

		Replica late = replica("late", KEY, 1);

		assertThat(late.breaker("payments").state()).isEqualTo(State.CLOSED);
		assertThat(rejected(late)).isGreaterThanOrEqualTo(1);
	}

	@Test
	void aForgedTripDoesNotCountTowardTheQuorum() {
		Replica a = replica("a", KEY, 2);
		Replica c = replica("c", KEY, 2);
		c.breaker("payments");
		Forgery.vote(replicas.admin(), "payments", "mallory");

		failTimes(a.breaker("payments"), 3);

		await().pollDelay(SETTLE).atMost(SETTLE.plusSeconds(1)).until(() -> true);
		assertThat(c.breaker("payments").state()).isEqualTo(State.CLOSED);
	}

	private static double rejected(Replica replica) {
		MeterRegistry meters = new SimpleMeterRegistry();
		replica.bean(SharedStoreMetrics.class).bindTo(meters);
		return meters.get("breaker.shared.store.rejected.messages").functionCounter().count();
	}

	private Replica replica(String id, String key, int quorum) {
		return replicas.start(id, "breaker.shared.redis.signing-key=" + key, "breaker.shared.redis.quorum=" + quorum);
	}

}
