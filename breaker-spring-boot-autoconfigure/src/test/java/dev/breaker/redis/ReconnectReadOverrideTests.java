package dev.breaker.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;

import dev.breaker.core.Breaker;
import dev.breaker.core.BreakerConfig;
import dev.breaker.core.BreakerRegistry;
import dev.breaker.core.State;
import dev.breaker.core.Ticker;
import io.lettuce.core.KillArgs;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The reconnect read ends a standing override that it did not find (an operator's reset
 * reached the others while this replica was deaf); an operator's fleet-wide CLOSED on
 * another thread may end it at the same moment. The read must still finish: a replica
 * whose read never finishes never reads the fleet again after a reconnect. And an
 * operator's override on another thread landing after the read ended the old one in the
 * mirror, before it closes the breaker here, must stand: closing the breaker over it left
 * a breaker an operator forced open on every replica running CLOSED on this one. A real
 * Redis; the operator's override lands exactly there through the reconciler's test hooks.
 */
class ReconnectReadOverrideTests {

	private final OneReplica replica = new OneReplica();

	private final RedisServerHarness redis = replica.redis;

	private final RedisAdmin admin = replica.admin;

	private final BreakerRegistry registry = replica.registry;

	private final FleetSync sync = replica.sync;

	@AfterEach
	void close() {
		replica.close();
	}

	@Test
	void anOperatorsCloseLandingAsTheReadEndsAnUnheardOverrideLeavesTheReadFinishedAndReadingAgain() throws Exception {
		sync.start();
		assertThat(sync.awaitFirstSync(Duration.ofSeconds(10))).isTrue();
		Breaker payments = registry.breaker("payments");
		sync.override(payments, State.FORCED_OPEN, true);
		await().atMost(Duration.ofSeconds(10)).until(() -> admin.redis().dbsize() > 0);
		// the operator's reset reached the others while this replica was deaf: Redis no
		// longer holds the override
		admin.redis().flushall();
		AtomicBoolean landed = new AtomicBoolean();
		sync.reconciler().beforeOverrideEnd(breaker -> {
			if (breaker == payments && landed.compareAndSet(false, true)) {
				sync.override(payments, State.CLOSED, true);
			}
		});

		Instant before = sync.status().lastSync();
		sync.thread().submit(sync.reconciler()::resync);
		await().atMost(Duration.ofSeconds(10)).until(() -> sync.status().lastSync().isAfter(before));
		assertThat(landed).isTrue();
		assertThat(payments.state()).isEqualTo(State.CLOSED);
		assertThat(sync.view("payments").override()).isNull();

		// the next reconnect reads the fleet again
		Instant first = sync.status().lastSync();
		sync.thread().submit(sync.reconciler()::resync);
		await().atMost(Duration.ofSeconds(10)).until(() -> sync.status().lastSync().isAfter(first));
	}

	static Stream<Arguments> overridesLandingAfterTheEnd() {
		return Stream.of(
				Arguments.argumentSet("a fleet-wide FORCED_OPEN after an unheard DISABLED", State.DISABLED,
						State.FORCED_OPEN, true),
				Arguments.argumentSet("the same fleet-wide FORCED_OPEN announced again", State.FORCED_OPEN,
						State.FORCED_OPEN, true),
				Arguments.argumentSet("a fleet-wide DISABLED after an unheard FORCED_OPEN", State.FORCED_OPEN,
						State.DISABLED, true),
				Arguments.argumentSet("a FORCED_OPEN on this replica only after an unheard fleet-wide one",
						State.FORCED_OPEN, State.FORCED_OPEN, false));
	}

	@ParameterizedTest
	@MethodSource("overridesLandingAfterTheEnd")
	void anOperatorsOverrideLandingAfterTheReadEndedAnUnheardOneStandsAndIsNotClosedOver(State ended, State landing,
			boolean fleetWide) throws Exception {
		Breaker payments = readAgainWithAnOverrideLandingAfterTheEnd(ended, landing, fleetWide);

		assertThat(payments.state()).isEqualTo(landing);
		assertThat(sync.view("payments").override()).isEqualTo(new FleetBreakerView.Override(landing,
				fleetWide ? FleetBreakerView.Scope.FLEET : FleetBreakerView.Scope.REPLICA, sync.replicaId()));
		if (fleetWide) {
			// and it is stored again, for replicas started later
			await().atMost(Duration.ofSeconds(10)).until(() -> admin.redis().dbsize() > 0);
		}
	}

	@Test
	void anOperatorsFleetWideClosedLandingAfterTheReadEndedAnUnheardOverrideLeavesTheBreakerClosed() throws Exception {
		Breaker payments = readAgainWithAnOverrideLandingAfterTheEnd(State.FORCED_OPEN, State.CLOSED, true);

		assertThat(payments.state()).isEqualTo(State.CLOSED);
		assertThat(sync.view("payments").override()).isNull();
	}

	@Test
	void anOperatorsFleetWideForcedOpenMadeWhileRedisWasDownStandsAfterTheReconnectAndIsStoredForTheFleet()
			throws Exception {
		sync.start();
		assertThat(sync.awaitFirstSync(Duration.ofSeconds(10))).isTrue();
		Breaker payments = registry.breaker("payments");
		redis.stop();
		await().atMost(Duration.ofSeconds(10)).until(() -> !sync.status().up());
		Instant before = sync.status().lastSync();
		sync.override(payments, State.FORCED_OPEN, true);

		redis.restart();
		await().atMost(Duration.ofSeconds(10)).until(() -> sync.status().lastSync().isAfter(before));
		assertThat(payments.state()).isEqualTo(State.FORCED_OPEN);
		assertThat(sync.view("payments").override()).isEqualTo(
				new FleetBreakerView.Override(State.FORCED_OPEN, FleetBreakerView.Scope.FLEET, sync.replicaId()));
		// written once Redis answered, so the others (and replicas started later) follow
		try (RedisAdmin restarted = new RedisAdmin(redis)) {
			await().atMost(Duration.ofSeconds(10))
				.until(() -> restarted.keys("*").stream().anyMatch(key -> key.endsWith(":override")));
		}
		BreakerRegistry later = BreakerRegistry.builder()
			.defaults(BreakerConfig.builder().ticker(Ticker.system()).build())
			.build();
		try (FleetSync startedLater = redis.join(later, "b", 1)) {
			assertThat(later.breaker("payments").state()).isEqualTo(State.FORCED_OPEN);
		}
	}

	@Test
	void anOperatorsResetMadeWhileThisReplicaWasCutOffFromRedisStandsAfterTheReconnectAndEndsTheStoredOverride()
			throws Exception {
		Breaker payments = overriddenFleetWide(State.FORCED_OPEN);
		// cut off: Redis keeps its data, but this replica can no longer talk to it
		admin.redis().configSet("requirepass", "cut-off");
		admin.redis().clientKill(KillArgs.Builder.typeNormal());
		admin.redis().clientKill(KillArgs.Builder.typePubsub());
		await().atMost(Duration.ofSeconds(10)).until(() -> !sync.status().up());
		Instant before = sync.status().lastSync();
		sync.override(payments, State.CLOSED, true);

		admin.redis().configSet("requirepass", "");
		await().atMost(Duration.ofSeconds(20)).until(() -> sync.status().lastSync().isAfter(before));
		assertThat(payments.state()).isEqualTo(State.CLOSED);
		assertThat(sync.view("payments").override()).isNull();
		await().atMost(Duration.ofSeconds(10))
			.until(() -> admin.keys("*").stream().noneMatch(key -> key.endsWith(":override")));
	}

	/**
	 * This replica's operator overrode the breaker on every replica; then the operator's
	 * reset reached the others while this replica was deaf: Redis no longer holds it.
	 */
	private Breaker overriddenFleetWideThenForgottenByRedis(State override) throws InterruptedException {
		Breaker payments = overriddenFleetWide(override);
		admin.redis().flushall();
		return payments;
	}

	/**
	 * This replica's operator overrode the breaker on every replica, and Redis stored it.
	 */
	private Breaker overriddenFleetWide(State override) throws InterruptedException {
		sync.start();
		assertThat(sync.awaitFirstSync(Duration.ofSeconds(10))).isTrue();
		Breaker payments = registry.breaker("payments");
		sync.override(payments, override, true);
		await().atMost(Duration.ofSeconds(10)).until(() -> admin.redis().dbsize() > 0);
		return payments;
	}

	/**
	 * The breaker was overridden ({@code ended}) on every replica, and Redis forgot it;
	 * as the read ends it, an operator's {@code landing} override lands from a thread of
	 * its own, once the read ended the old one in the mirror and before it closes the
	 * breaker here: the read goes on once the operator's override is applied, or waits
	 * for the read's own step to end. Returns once the read and the operator are done.
	 */
	private Breaker readAgainWithAnOverrideLandingAfterTheEnd(State ended, State landing, boolean fleetWide)
			throws InterruptedException {
		Breaker payments = overriddenFleetWideThenForgottenByRedis(ended);
		Thread operator = new Thread(() -> sync.override(payments, landing, fleetWide), "operator");
		AtomicBoolean landed = new AtomicBoolean();
		sync.reconciler().afterOverrideEnd(breaker -> {
			if (breaker == payments && landed.compareAndSet(false, true)) {
				operator.start();
				await().atMost(Duration.ofSeconds(10))
					.until(() -> !operator.isAlive() || OneReplica.waitsForALock(operator));
			}
		});
		readTheFleetAgain();
		await().atMost(Duration.ofSeconds(10)).until(() -> !operator.isAlive());
		assertThat(landed).isTrue();
		return payments;
	}

	private void readTheFleetAgain() {
		Instant before = sync.status().lastSync();
		sync.thread().submit(sync.reconciler()::resync);
		await().atMost(Duration.ofSeconds(10)).until(() -> sync.status().lastSync().isAfter(before));
	}

}
