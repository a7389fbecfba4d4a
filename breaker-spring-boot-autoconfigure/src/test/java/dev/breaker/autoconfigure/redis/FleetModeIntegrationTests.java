package dev.breaker.autoconfigure.redis;

import static dev.breaker.autoconfigure.redis.Replicas.threeFailures;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.breaker.core.Breaker;
import dev.breaker.core.BreakerConfig;
import dev.breaker.core.BreakerOpenException;
import dev.breaker.core.State;
import dev.breaker.core.Transition;
import dev.breaker.redis.FleetKeys;
import dev.breaker.redis.FleetMessage;
import dev.breaker.redis.HangingProbes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Two or three replicas (Spring application contexts) share breakers through a real Redis
 * server. Open waits are short (about a second) and waits are bounded polls, since Redis
 * TTLs run on real time.
 */
class FleetModeIntegrationTests {

	private static final Duration PROPAGATION = Duration.ofSeconds(3);

	private static final FleetKeys KEYS = new FleetKeys("breaker:");

	/**
	 * Every test here is about one replica's trip reaching the others: a quorum of one
	 * (see FleetQuorumTests).
	 */
	@RegisterExtension
	final Replicas replicas = Replicas.onLocalRedis().properties("breaker.shared.redis.quorum=1");

	@Test
	void aTripOnOneReplicaOpensTheOthers() {
		Replica a = replicas.start("a", threeFailures(Duration.ofSeconds(5)));
		Replica b = replicas.start("b", threeFailures(Duration.ofSeconds(5)));
		Replica c = replicas.start("c", threeFailures(Duration.ofSeconds(5)));
		List<Transition> seenByB = new CopyOnWriteArrayList<>();
		b.breaker("payments").onTransition(seenByB::add);
		c.breaker("payments");
		List<String> announced = replicas.admin().listen("breaker:transitions");

		failTimes(a.breaker("payments"), 3);

		assertThat(a.breaker("payments").state()).isEqualTo(State.OPEN);
		await().atMost(PROPAGATION)
			.until(() -> b.breaker("payments").state() == State.OPEN && c.breaker("payments").state() == State.OPEN);
		assertThat(seenByB).singleElement().satisfies(t -> {
			assertThat(t.remote()).isTrue();
			assertThat(t.reason()).startsWith("peer a: ");
		});
		assertThatThrownBy(() -> b.breaker("payments").call(() -> "never runs"))
			.isInstanceOf(BreakerOpenException.class);
		assertThat(c.sync().view("payments")).satisfies(view -> {
			assertThat(view.storeUp()).isTrue();
			assertThat(view.fleetOpen()).isTrue();
			assertThat(view.remainingMillis()).isBetween(1L, 5_000L);
			assertThat(view.replica()).isEqualTo("a");
			assertThat(view.reason()).isEqualTo("consecutive failures 3 >= 3");
			assertThat(view.generation()).isPositive();
			assertThat(view.episode()).isNotEmpty();
		});
		// no echo: the peers applied the trip without announcing it again
		await().pollDelay(Duration.ofMillis(300)).atMost(Duration.ofSeconds(1)).until(() -> true);
		assertThat(announced).singleElement()
			.satisfies(m -> assertThat(FleetMessage.decode(m).replica()).isEqualTo("a"));
	}

	@Test
	void theCircuitStillHalfOpensWhenTheTrippingReplicaIsGone() {
		Replica a = replicas.start("a", threeFailures(Duration.ofSeconds(1)));
		Replica b = replicas.start("b", threeFailures(Duration.ofSeconds(1)));
		b.breaker("payments");
		failTimes(a.breaker("payments"), 3);
		await().atMost(PROPAGATION).until(() -> b.breaker("payments").state() == State.OPEN);

		a.close();

		await().atMost(Duration.ofSeconds(4)).until(() -> b.breaker("payments").state() == State.HALF_OPEN);
		await().atMost(Duration.ofSeconds(2)).until(() -> !redisHasKey(KEYS.state("payments")));
	}

	@Test
	void aReplicaStartedWhileTheCircuitIsOpenStartsOpen() {
		Replica a = replicas.start("a", threeFailures(Duration.ofSeconds(10)));
		failTimes(a.breaker("payments"), 3);
		await().atMost(PROPAGATION).until(() -> redisHasKey(KEYS.state("payments")));

		Replica late = replicas.start("late", threeFailures(Duration.ofSeconds(10)));

		Breaker payments = late.breaker("payments");
		assertThat(payments.state()).isEqualTo(State.OPEN);
		assertThat(payments.snapshot().transitions()).last()
			.satisfies(t -> assertThat(t.reason()).startsWith("peer a: "));
	}

	@Test
	void aCloseOnOneReplicaClosesTheOthers() {
		BreakerConfig config = threeFailures(Duration.ofSeconds(1)).toBuilder()
			.halfOpenMaxProbes(1)
			.halfOpenSuccessesToClose(1)
			.build();
		Replica a = replicas.start("a", config);
		Replica b = replicas.start("b", config);
		failTimes(a.breaker("payments"), 3);
		await().atMost(PROPAGATION).until(() -> b.breaker("payments").state() == State.OPEN);

		// one of them gets the fleet's only probe slot and half-opens; the other stays
		// open without probing
		await().atMost(Duration.ofSeconds(4))
			.until(() -> a.breaker("payments").state() == State.HALF_OPEN
					|| b.breaker("payments").state() == State.HALF_OPEN);
		Replica prober = a.breaker("payments").state() == State.HALF_OPEN ? a : b;
		Replica waiter = prober == a ? b : a;
		await().pollDelay(Duration.ofMillis(300)).atMost(Duration.ofSeconds(1)).until(() -> true);
		assertThat(waiter.breaker("payments").state()).isEqualTo(State.OPEN);
		assertThatThrownBy(() -> waiter.breaker("payments").call(() -> "no slot"))
			.isInstanceOf(BreakerOpenException.class);

		succeed(prober.breaker("payments"));

		assertThat(prober.breaker("payments").state()).isEqualTo(State.CLOSED);
		await().atMost(PROPAGATION).until(() -> waiter.breaker("payments").state() == State.CLOSED);
	}

	@Test
	void theFleetNeverRunsMoreConcurrentProbesThanAllowed() throws Exception {
		// a max open wait longer than the test: past it, a replica that never got a slot
		// probes alone (one probe), so nothing read from Redis holds it open for good
		// (FleetBoundedDamageTests tests that)
		BreakerConfig config = threeFailures(Duration.ofSeconds(1)).toBuilder()
			.maxOpenWait(Duration.ofSeconds(30))
			.halfOpenMaxProbes(2)
			.halfOpenSuccessesToClose(10)
			.halfOpenMaxWait(Duration.ofSeconds(30))
			.build();
		List<Replica> fleet = List.of(replicas.start("a", config), replicas.start("b", config),
				replicas.start("c", config));
		fleet.forEach(r -> r.breaker("payments"));
		failTimes(fleet.get(0).breaker("payments"), 3);
		await().atMost(PROPAGATION)
			.until(() -> fleet.stream().allMatch(r -> r.breaker("payments").state() == State.OPEN));

		List<Breaker> payments = fleet.stream().map(r -> r.breaker("payments")).toList();
		try (HangingProbes probes = HangingProbes.start(payments, 4, Duration.ofSeconds(10))) {
			await().atMost(Duration.ofSeconds(5)).until(() -> probes.probes() >= 1);
			// every replica's open wait has ended by now: let all claims come back and
			// any over-granted probe start
			await().pollDelay(Duration.ofMillis(1500)).atMost(Duration.ofSeconds(2)).until(() -> true);

			assertThat(probes.mostAtOnce()).isBetween(1, 2);
		}
	}

	@Test
	void whileRedisIsDownCallsFlowAndBreakersTripLocally() throws Exception {
		Replica a = replicas.start("a", threeFailures(Duration.ofSeconds(5)));
		Replica b = replicas.start("b", threeFailures(Duration.ofSeconds(5)));
		b.breaker("payments");

		replicas.redis().stop();
		await().atMost(PROPAGATION).until(() -> !a.status().up());

		assertThat(a.breaker("payments").call(() -> "still flows")).isEqualTo("still flows");
		failTimes(a.breaker("payments"), 3);
		assertThat(a.breaker("payments").state()).isEqualTo(State.OPEN);
		assertThat(b.breaker("payments").call(() -> "b decides alone")).isEqualTo("b decides alone");
		assertThat(b.breaker("payments").state()).isEqualTo(State.CLOSED);
		assertThat(a.status().errors()).isPositive();
	}

	@Test
	void whenRedisReturnsTheFleetResyncs() {
		Replica a = replicas.start("a", threeFailures(Duration.ofSeconds(10)));
		Replica b = replicas.start("b", threeFailures(Duration.ofSeconds(10)));
		b.breaker("payments");
		replicas.redis().stop();
		await().atMost(PROPAGATION).until(() -> !a.status().up() && !b.status().up());
		failTimes(a.breaker("payments"), 3);

		replicas.redis().restart();

		await().atMost(Duration.ofSeconds(5)).until(() -> a.status().up() && b.status().up());
		await().atMost(PROPAGATION).until(() -> b.breaker("payments").state() == State.OPEN);
		assertThat(redisHasKey(KEYS.state("payments"))).isTrue();
		assertThat(a.status().lastSync()).isNotNull();
	}

	@Test
	void aRedisThatRestartsEmptyIsRefilledByTheReplicasHoldingTheCircuitOpen() {
		Replica a = replicas.start("a", threeFailures(Duration.ofSeconds(10)));
		Replica b = replicas.start("b", threeFailures(Duration.ofSeconds(10)));
		b.breaker("payments");
		failTimes(a.breaker("payments"), 3);
		await().atMost(PROPAGATION).until(() -> b.breaker("payments").state() == State.OPEN);

		replicas.redis().restart();
		await().atMost(Duration.ofSeconds(5)).until(() -> redisHasKey(KEYS.state("payments")));

		Replica late = replicas.start("late", threeFailures(Duration.ofSeconds(10)));
		assertThat(late.breaker("payments").state()).isEqualTo(State.OPEN);
	}

	@Test
	void anHttpBreakersTripIsRepublishedAfterAReconnect() {
		Replica a = replicas.start("a", threeFailures(Duration.ofSeconds(10)));
		Replica b = replicas.start("b", threeFailures(Duration.ofSeconds(10)));
		// per-host breakers are children of a group that has no top-level "http" breaker
		Breaker host = a.registry().breaker("http", "api.acme.com");
		Breaker sameHostOnB = b.registry().breaker("http", "api.acme.com");
		replicas.redis().stop();
		await().atMost(PROPAGATION).until(() -> !a.status().up() && !b.status().up());
		failTimes(host, 3);

		replicas.redis().restart();

		await().atMost(Duration.ofSeconds(5)).until(() -> a.status().up() && b.status().up());
		await().atMost(PROPAGATION).until(() -> sameHostOnB.state() == State.OPEN);
	}

	static void failTimes(Breaker breaker, int times) {
		for (int i = 0; i < times; i++) {
			if (!fail(breaker)) {
				throw new AssertionError("breaker '" + breaker.name() + "' rejected failure " + (i + 1) + " of " + times
						+ ": it is " + breaker.state());
			}
		}
	}

	/**
	 * Up to {@code times} failures, fewer when the breaker opens meanwhile: a replica
	 * that trips at the same time as others may be opened by their quorum before its own
	 * last failure, and then its call is rejected, as it should be.
	 */
	static void failUntilOpen(Breaker breaker, int times) {
		for (int i = 0; i < times && fail(breaker); i++) {
			// one failure a round
		}
	}

	/** One call that fails in the dependency; false when the breaker rejected it. */
	private static boolean fail(Breaker breaker) {
		try {
			breaker.call(() -> {
				throw new IOException("payments is down");
			});
		}
		catch (IOException expected) {
			// the dependency's own failure, passed through
		}
		catch (BreakerOpenException rejected) {
			return false;
		}
		catch (Exception other) {
			throw new AssertionError(other);
		}
		return true;
	}

	static void succeed(Breaker breaker) {
		try {
			breaker.call(() -> "ok");
		}
		catch (Exception e) {
			throw new AssertionError(e);
		}
	}

	private boolean redisHasKey(String key) {
		return replicas.admin().redis().exists(key) == 1;
	}

}
