package dev.breaker.autoconfigure.redis;

import static dev.breaker.autoconfigure.redis.FleetModeIntegrationTests.failTimes;
import static dev.breaker.autoconfigure.redis.Replicas.threeFailures;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import dev.breaker.core.Breaker;
import dev.breaker.core.BreakerConfig;
import dev.breaker.core.State;
import dev.breaker.core.Transition;
import dev.breaker.redis.SteadyTraffic;
import dev.breaker.redis.Forgery;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Whatever Redis holds or the channel carries, the damage is bounded: no open past the
 * local max open wait, no replica held open by probe slots it cannot get, bounded memory
 * for breakers this replica does not have, short clean reasons.
 */
class FleetBoundedDamageTests {

	private static final Duration OPEN_WAIT = Duration.ofMillis(1000);

	private static final Duration MAX_OPEN_WAIT = Duration.ofMillis(2000);

	private static final BreakerConfig CONFIG = threeFailures(OPEN_WAIT).toBuilder().maxOpenWait(MAX_OPEN_WAIT).build();

	@RegisterExtension
	final Replicas replicas = Replicas.onLocalRedis().defaults(CONFIG).properties("breaker.shared.redis.quorum=1");

	@Test
	void aRemoteOpenLastsAtMostTheLocalMaxOpenWait() {
		Replica b = replicas.start("b");
		Breaker payments = b.breaker("payments");

		replicas.admin()
			.publish("breaker:transitions", Forgery.open("payments", 315_360_000_000L, "r9", "maintenance"));

		await().atMost(Duration.ofSeconds(3)).until(() -> payments.state() == State.OPEN);
		Instant latestAllowed = Instant.now().plus(MAX_OPEN_WAIT);
		assertThat(payments.snapshot().openUntil()).isBeforeOrEqualTo(latestAllowed);
		await().atMost(MAX_OPEN_WAIT.plusSeconds(2)).until(() -> payments.state() != State.OPEN);
	}

	@Test
	void stolenProbeSlotsHoldNoReplicaOpenPastMaxOpenWaitPlusTwoSeconds() throws Exception {
		List<Replica> fleet = List.of(replicas.start("a"), replicas.start("b"), replicas.start("c"));
		fleet.forEach(r -> r.breaker("payments"));
		AtomicBoolean attacking = new AtomicBoolean(true);
		ExecutorService attacker = Executors.newSingleThreadExecutor();
		ExecutorService traffic = Executors.newFixedThreadPool(3);
		try {
			Forgery.stealProbeSlots(replicas.admin(), "payments");
			attacker.execute(() -> {
				while (attacking.get()) {
					Forgery.stealProbeSlots(replicas.admin(), "payments");
					pause(50);
				}
			});
			failTimes(fleet.get(0).breaker("payments"), 3);
			await().atMost(Duration.ofSeconds(3))
				.until(() -> fleet.stream().allMatch(r -> r.breaker("payments").state() == State.OPEN));
			// the dependency is healthy again, and every replica has traffic
			for (Replica replica : fleet) {
				traffic.execute(() -> SteadyTraffic.callEvery(replica.breaker("payments"), 50, attacking));
			}

			await().atMost(MAX_OPEN_WAIT.plusSeconds(4))
				.until(() -> fleet.stream().allMatch(r -> r.breaker("payments").state() == State.CLOSED));

			for (Replica replica : fleet) {
				assertThat(longestOpen(replica.breaker("payments"))).as("replica %s", replica.sync().replicaId())
					.isLessThanOrEqualTo(MAX_OPEN_WAIT.plusSeconds(2));
			}
		}
		finally {
			attacking.set(false);
			attacker.shutdown();
			traffic.shutdown();
			attacker.awaitTermination(5, TimeUnit.SECONDS);
			traffic.awaitTermination(5, TimeUnit.SECONDS);
		}
	}

	@Test
	void stateKeptForBreakersThisReplicaDoesNotHaveIsBounded() {
		Replica b = replicas.start("b");

		for (int i = 0; i < 20_000; i++) {
			replicas.admin().publish("breaker:transitions", Forgery.open("ghost-" + i, 300_000, "r9", "in advance"));
		}
		b.breaker("payments");
		replicas.admin().publish("breaker:transitions", Forgery.open("payments", 500, "r9", "marker"));
		await().atMost(Duration.ofSeconds(10)).until(() -> b.breaker("payments").state() == State.OPEN);

		assertThat(b.sync().fleetOnlyBreakers()).isLessThanOrEqualTo(1_000);
	}

	@Test
	void stateKeptForBreakersThisReplicaDoesNotHaveExpires() {
		Replica b = replicas.start("b");

		for (int i = 0; i < 100; i++) {
			replicas.admin().publish("breaker:transitions", Forgery.open("ghost-" + i, 300, "r9", "in advance"));
		}
		await().atMost(Duration.ofSeconds(3)).until(() -> b.sync().fleetOnlyBreakers() == 100);

		await().atMost(Duration.ofSeconds(5)).until(() -> b.sync().fleetOnlyBreakers() == 0);
		assertThat(b.breaker("ghost-7").state()).isEqualTo(State.CLOSED);
	}

	@Test
	void reasonsAreCutTo200CharactersWithControlCharactersEscaped() {
		Replica b = replicas.start("b");
		Breaker payments = b.breaker("payments");
		String huge = "line one\nline two\u001b[31m red \u0007 bell " + "x".repeat(1_000_000);

		replicas.admin().publish("breaker:transitions", Forgery.open("payments", 500, "r9\r\nforged-log-line", huge));

		await().atMost(Duration.ofSeconds(3)).until(() -> payments.state() == State.OPEN);
		String reason = payments.snapshot().transitions().get(payments.snapshot().transitions().size() - 1).reason();
		assertThat(reason).hasSizeLessThanOrEqualTo(200)
			.contains("line one\\nline two\\u001b[31m red \\u0007 bell ")
			.doesNotContain("\n", "\r", "\u001b", "\u0007");
		assertThat(b.sync().view("payments").reason()).hasSizeLessThanOrEqualTo(200).doesNotContain("\n", "\u001b");
		assertThat(b.sync().view("payments").replica()).isEqualTo("r9\\r\\nforged-log-line");
	}

	/**
	 * The longest time the breaker spent OPEN in one go, by its own transition history.
	 */
	private static Duration longestOpen(Breaker breaker) {
		List<Transition> transitions = breaker.snapshot().transitions();
		Duration longest = Duration.ZERO;
		for (int i = 0; i < transitions.size(); i++) {
			if (transitions.get(i).to() == State.OPEN) {
				Instant end = i + 1 < transitions.size() ? transitions.get(i + 1).at() : Instant.now();
				Duration open = Duration.between(transitions.get(i).at(), end);
				longest = open.compareTo(longest) > 0 ? open : longest;
			}
		}
		return longest;
	}

	private static void pause(long millis) {
		try {
			TimeUnit.MILLISECONDS.sleep(millis);
		}
		catch (InterruptedException e) {
			Thread.currentThread().interrupt();
		}
	}

}
