package dev.breaker.autoconfigure.redis;

import static dev.breaker.autoconfigure.redis.FleetModeIntegrationTests.failTimes;
import static dev.breaker.autoconfigure.redis.FleetModeIntegrationTests.failUntilOpen;
import static dev.breaker.autoconfigure.redis.Replicas.threeFailures;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import dev.breaker.core.State;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A circuit opens fleet-wide only when {@code breaker.shared.redis.quorum} distinct
 * replicas tripped it within its open wait: one replica's local trouble (its own network,
 * its own bad node) stays local.
 */
class FleetQuorumTests {

	/**
	 * Long enough for a trip to have reached every replica twice over on a loaded
	 * machine.
	 */
	private static final Duration SETTLE = Duration.ofMillis(1500);

	@RegisterExtension
	final Replicas replicas = Replicas.onLocalRedis().defaults(threeFailures(Duration.ofSeconds(5)));

	/**
	 * Replicas a, b and c, each with the payments breaker, {@link #SETTLE} after a's own
	 * dependency failed it three times.
	 */
	private List<Replica> aTrippedAlone() {
		List<Replica> fleet = List.of(replicas.start("a"), replicas.start("b"), replicas.start("c"));
		fleet.forEach((replica) -> replica.breaker("payments"));
		failTimes(fleet.get(0).breaker("payments"), 3);
		await().pollDelay(SETTLE).atMost(SETTLE.plusSeconds(1)).until(() -> true);
		return fleet;
	}

	@Test
	void aReplicaWhoseOwnDependencyIsDownOpensOnlyItself() {
		List<Replica> fleet = aTrippedAlone();

		assertThat(fleet).extracting((replica) -> replica.breaker("payments").state())
			.containsExactly(State.OPEN, State.CLOSED, State.CLOSED);
	}

	@Test
	void aSecondReplicaTrippingOpensTheThird() {
		List<Replica> fleet = aTrippedAlone();
		Replica a = fleet.get(0);
		Replica b = fleet.get(1);
		Replica c = fleet.get(2);
		assertThat(c.breaker("payments").state()).isEqualTo(State.CLOSED);

		failTimes(b.breaker("payments"), 3);

		await().atMost(Duration.ofSeconds(3)).until(() -> c.breaker("payments").state() == State.OPEN);
		assertThat(c.breaker("payments").snapshot().transitions()).last().satisfies(t -> {
			assertThat(t.remote()).isTrue();
			assertThat(t.reason()).startsWith("peer b: ").contains("(2 replicas tripped, quorum 2)");
		});
		// a was open already: it stays open, now for the fleet
		assertThat(a.breaker("payments").state()).isEqualTo(State.OPEN);
	}

	@Test
	void aTripOlderThanItsOpenWaitNoLongerCounts() {
		Replica a = replicas.start("a", threeFailures(Duration.ofMillis(800)));
		Replica b = replicas.start("b", threeFailures(Duration.ofMillis(800)));
		Replica c = replicas.start("c", threeFailures(Duration.ofMillis(800)));
		c.breaker("payments");
		failTimes(a.breaker("payments"), 3);
		// a's open wait (and so its vote) runs out; nobody calls a any more
		await().pollDelay(Duration.ofMillis(1500)).atMost(Duration.ofSeconds(3)).until(() -> true);

		failTimes(b.breaker("payments"), 3);

		await().pollDelay(SETTLE).atMost(SETTLE.plusSeconds(1)).until(() -> true);
		assertThat(c.breaker("payments").state()).isEqualTo(State.CLOSED);
	}

	@Test
	void replicasTrippingAtOnceOpenOneEpisode() throws Exception {
		List<Replica> fleet = List.of(replicas.start("a"), replicas.start("b"), replicas.start("c"),
				replicas.start("d"));
		fleet.forEach(r -> r.breaker("payments"));
		List<String> announced = replicas.admin().listen("breaker:transitions");
		CountDownLatch go = new CountDownLatch(1);
		ExecutorService trippers = Executors.newFixedThreadPool(fleet.size());
		try {
			for (Replica replica : fleet) {
				trippers.execute(() -> {
					try {
						go.await();
					}
					catch (InterruptedException e) {
						Thread.currentThread().interrupt();
					}
					failUntilOpen(replica.breaker("payments"), 3);
				});
			}
			go.countDown();

			await().atMost(Duration.ofSeconds(3))
				.until(() -> fleet.stream().allMatch(r -> !r.sync().view("payments").episode().isEmpty()));
			await().pollDelay(Duration.ofMillis(500)).atMost(Duration.ofSeconds(2)).until(() -> true);
			assertThat(announced).as("announcements").hasSize(1);
			assertThat(fleet.stream().map(r -> r.sync().view("payments").episode()).distinct()).hasSize(1);
		}
		finally {
			trippers.shutdown();
			trippers.awaitTermination(5, TimeUnit.SECONDS);
		}
	}

	@Test
	void aQuorumOfOneOpensTheFleetOnAnyReplicasTrip() {
		Replica a = replicas.start("a", "breaker.shared.redis.quorum=1");
		Replica b = replicas.start("b", "breaker.shared.redis.quorum=1");
		b.breaker("payments");

		failTimes(a.breaker("payments"), 3);

		await().atMost(Duration.ofSeconds(3)).until(() -> b.breaker("payments").state() == State.OPEN);
	}

}
