package dev.breaker.autoconfigure.redis;

import static dev.breaker.autoconfigure.redis.FleetModeIntegrationTests.failTimes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeoutException;

import dev.breaker.core.Breaker;
import dev.breaker.core.BreakerConfig;
import dev.breaker.core.Snapshot;
import dev.breaker.core.State;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Three low-traffic replicas, none with enough calls to trip alone, trip together on the
 * fleet's failure rate.
 */
class FleetWindowIntegrationTests {

	/**
	 * How much later than its announcer a replica may hear an episode's end: the time an
	 * open takes to reach it through Redis, and its clock's difference (a liveness bound:
	 * the open's own length is checked exactly on the announcer).
	 */
	private static final Duration NEWS_LATENCY = Duration.ofSeconds(2);

	/**
	 * How much earlier than its announcer a replica that heard an episode may end it: a
	 * signed open counts down from its issue time by Redis's clock, and each replica
	 * estimates that clock from its own pings, good to half a round trip and a
	 * millisecond of truncation each. Under a loaded build those round trips reach tens
	 * of milliseconds (one CI run saw 1.2 ms past a 1 ms bound); a slot holder short by
	 * its whole hold (the field notes' 1 s) is still far outside it.
	 */
	private static final Duration CLOCK_ESTIMATES = Duration.ofMillis(250);

	private static final BreakerConfig CONFIG = Replicas.failureRateOnly();

	@RegisterExtension
	final Replicas replicas = Replicas.onLocalRedis();

	@Test
	void replicasTripTogetherOnTheFleetFailureRate() {
		List<Replica> fleet = fleet("breaker.shared.redis.fleet-window=true",
				"breaker.shared.redis.flush-interval=200ms");

		fleet.forEach(r -> failTimes(r.breaker("inventory"), 4));

		await().atMost(Duration.ofSeconds(3))
			.until(() -> fleet.stream().allMatch(r -> r.breaker("inventory").state() == State.OPEN));
		// 4 calls each, under minimum-calls 10: no replica could trip on its own window
		assertThat(fleet).allSatisfy(r -> assertThat(r.breaker("inventory").snapshot().transitions()).last()
			.satisfies(t -> assertThat(t.reason()).contains("fleet failure rate 100.0% >= 50% over ")));
	}

	@Test
	void withoutTheFleetWindowEachReplicaCountsAlone() {
		List<Replica> fleet = fleet();

		fleet.forEach(r -> failTimes(r.breaker("inventory"), 4));

		await().pollDelay(Duration.ofMillis(600)).atMost(Duration.ofSeconds(1)).until(() -> true);
		assertThat(fleet).allSatisfy(r -> assertThat(r.breaker("inventory").state()).isEqualTo(State.CLOSED));
	}

	@Test
	void theFleetFailureRateIsTheEnginesWhenTimeoutsWeighMore() throws Exception {
		BreakerConfig weighted = CONFIG.toBuilder().timeoutWeight(1.5).failureRateThreshold(45).build();
		List<Replica> fleet = fleet(weighted, "breaker.shared.redis.fleet-window=true",
				"breaker.shared.redis.flush-interval=200ms");

		// 6 successes, 2 failures, 2 timeouts over the fleet; no replica has
		// minimum-calls on its own
		for (Replica replica : fleet.subList(0, 2)) {
			succeed(replica.breaker("inventory"), 2);
			failTimes(replica.breaker("inventory"), 1);
			timeOut(replica.breaker("inventory"), 1);
		}
		succeed(fleet.get(2).breaker("inventory"), 2);

		await().atMost(Duration.ofSeconds(3))
			.until(() -> fleet.stream().allMatch(r -> r.breaker("inventory").state() == State.OPEN));
		Breaker engine = Breaker.of("same-calls-on-one-breaker", weighted.toBuilder().minimumCalls(100).build());
		succeed(engine, 6);
		failTimes(engine, 2);
		timeOut(engine, 2);
		String enginesRate = String.format(Locale.ROOT, "%.1f%%", engine.snapshot().failureRate());
		assertThat(enginesRate).isEqualTo("45.5%");
		assertThat(fleet).allSatisfy(r -> assertThat(r.breaker("inventory").snapshot().transitions()).last()
			.satisfies(t -> assertThat(t.reason())
				.contains("fleet failure rate " + enginesRate + " >= 45% over 10 calls")));
	}

	@Test
	void aFleetWindowTripIsCountedAsATripWithTheEnginesJitteredOpenWait() {
		BreakerConfig jittered = CONFIG.toBuilder().openWait(Duration.ofSeconds(4)).openWaitJitter(0.5).build();
		List<Replica> fleet = fleet(jittered, "breaker.shared.redis.fleet-window=true",
				"breaker.shared.redis.flush-interval=200ms");
		// each replica's own open wait as its trip drew it: later, a replica without
		// probe
		// slots is held open 1 s past the episode (ProbeShare), which moves openUntil
		Map<String, Duration> drawnWait = new ConcurrentHashMap<>();
		for (Replica replica : fleet) {
			Breaker inventory = replica.breaker("inventory");
			replica.registry().onTransition(t -> {
				if (t.breaker().equals("inventory") && t.to() == State.OPEN && !t.remote()) {
					Snapshot opened = inventory.snapshot();
					drawnWait.putIfAbsent(replica.status().view().replicaId(),
							Duration.between(opened.since(), opened.openUntil()));
				}
			});
		}

		fleet.forEach(r -> failTimes(r.breaker("inventory"), 4));

		await().atMost(Duration.ofSeconds(3))
			.until(() -> fleet.stream().allMatch(r -> r.breaker("inventory").state() == State.OPEN));
		List<Replica> judged = fleet.stream().filter(r -> r.breaker("inventory").snapshot().trips() == 1).toList();
		assertThat(judged).as("replicas whose own judgement of the fleet window tripped them").isNotEmpty();
		for (Replica replica : judged) {
			assertThat(replica.breaker("inventory").snapshot().transitions()).last().satisfies(t -> {
				assertThat(t.remote()).isFalse();
				assertThat(t.reason()).startsWith("fleet failure rate 100.0% >= 50% over ");
			});
		}
		// The replica whose episode the fleet follows drew its own jittered wait, and
		// holds
		// it (1 s longer when it holds no probe slot: the slot holder probes first). One
		// that tripped too but reached Redis after it holds its own wait or that
		// episode's end, whichever is later: the episode's end as it heard it, late by
		// the time the news took.
		String announcerId = fleet.get(0).sync().view("inventory").replica();
		Replica announcer = fleet.stream()
			.filter(r -> r.status().view().replicaId().equals(announcerId))
			.findFirst()
			.orElseThrow();
		assertThat(judged).as("the replica whose trip the fleet follows judged for itself").contains(announcer);
		Snapshot announced = announcer.breaker("inventory").snapshot();
		Duration drawn = drawnWait.get(announcerId);
		assertThat(drawn).as("the announcer's open wait as its trip drew it")
			.isBetween(Duration.ofSeconds(2), Duration.ofSeconds(6))
			.isNotEqualTo(Duration.ofSeconds(4));
		assertThat(announced.openUntil()).as("the announcer holds its own wait")
			.isAfterOrEqualTo(announced.since().plus(drawn));
		// No replica half-opens before the episode ends: the slot holder holds it to its
		// end (its TTL, sent in whole ms, counts from the issue time by its estimate of
		// Redis's clock), the others 1 s past it.
		Instant episodeEnd = announced.since().plus(drawn).minus(CLOCK_ESTIMATES);
		assertThat(fleet).allSatisfy(r -> assertThat(r.breaker("inventory").snapshot().openUntil())
			.as("replica %s", r.status().view().replicaId())
			.isAfterOrEqualTo(episodeEnd));
		for (Replica replica : judged) {
			Snapshot snapshot = replica.breaker("inventory").snapshot();
			assertThat(replica.sync().view("inventory").replica()).isEqualTo(announcerId);
			assertThat(Duration.between(snapshot.since(), snapshot.openUntil()))
				.isGreaterThanOrEqualTo(Duration.ofSeconds(2));
			Instant ownWaitAtMost = snapshot.since().plusSeconds(6);
			Instant episodeHeardAtMost = announced.openUntil().plus(NEWS_LATENCY);
			assertThat(snapshot.openUntil()).isAfterOrEqualTo(announced.openUntil().minus(NEWS_LATENCY))
				.isBeforeOrEqualTo(ownWaitAtMost.isAfter(episodeHeardAtMost) ? ownWaitAtMost : episodeHeardAtMost);
		}
	}

	private static void succeed(Breaker breaker, int times) throws Exception {
		for (int i = 0; i < times; i++) {
			breaker.call(() -> "ok");
		}
	}

	private static void timeOut(Breaker breaker, int times) {
		for (int i = 0; i < times; i++) {
			try {
				breaker.call(() -> {
					throw new TimeoutException("inventory did not answer in time");
				});
			}
			catch (TimeoutException expected) {
				// counted as a TIMEOUT
			}
			catch (Exception other) {
				throw new AssertionError(other);
			}
		}
	}

	private List<Replica> fleet(String... properties) {
		return fleet(CONFIG, properties);
	}

	private List<Replica> fleet(BreakerConfig config, String... properties) {
		List<Replica> fleet = new ArrayList<>();
		for (String id : List.of("a", "b", "c")) {
			Replica replica = replicas.start(id, config, properties);
			replica.breaker("inventory");
			fleet.add(replica);
		}
		return List.copyOf(fleet);
	}

}
