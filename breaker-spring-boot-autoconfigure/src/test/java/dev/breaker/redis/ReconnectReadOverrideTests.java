package dev.breaker.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicBoolean;

import dev.breaker.core.Breaker;
import dev.breaker.core.BreakerConfig;
import dev.breaker.core.BreakerRegistry;
import dev.breaker.core.State;
import dev.breaker.core.Ticker;
import io.lettuce.core.KillArgs;
import io.lettuce.core.RedisURI;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

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

	private final RedisServerHarness redis = RedisServerHarness.start();

	private final RedisAdmin admin = new RedisAdmin(redis);

	private final BreakerRegistry registry = BreakerRegistry.builder()
		.defaults(BreakerConfig.builder().ticker(Ticker.system()).build())
		.build();

	private final FleetSync sync = new FleetSync(registry, new SharedStoreStatus("a", Clock.systemUTC()),
			RedisURI.create("127.0.0.1", redis.port()), FleetSettings.defaults(1));

	@AfterEach
	void close() {
		sync.close();
		admin.close();
		redis.close();
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

	@Test
	void anOperatorsFleetWideForcedOpenLandingAfterTheReadEndedAnUnheardDisabledKeepsTheBreakerForcedOpen()
			throws Exception {
		Breaker payments = overriddenFleetWideThenForgottenByRedis(State.DISABLED);
		Thread operator = landsAfterTheOverrideEnded(payments, () -> sync.override(payments, State.FORCED_OPEN, true));

		readTheFleetAgain();
		await().atMost(Duration.ofSeconds(10)).until(() -> !operator.isAlive());
		assertThat(payments.state()).isEqualTo(State.FORCED_OPEN);
		assertThat(sync.view("payments").override()).isEqualTo(
				new FleetBreakerView.Override(State.FORCED_OPEN, FleetBreakerView.Scope.FLEET, sync.replicaId()));
	}

	@Test
	void theSameFleetWideForcedOpenAnnouncedAgainAfterTheReadEndedTheUnheardOneKeepsTheBreakerForcedOpen()
			throws Exception {
		Breaker payments = overriddenFleetWideThenForgottenByRedis(State.FORCED_OPEN);
		Thread operator = landsAfterTheOverrideEnded(payments, () -> sync.override(payments, State.FORCED_OPEN, true));

		readTheFleetAgain();
		await().atMost(Duration.ofSeconds(10)).until(() -> !operator.isAlive());
		assertThat(payments.state()).isEqualTo(State.FORCED_OPEN);
		assertThat(sync.view("payments").override()).isEqualTo(
				new FleetBreakerView.Override(State.FORCED_OPEN, FleetBreakerView.Scope.FLEET, sync.replicaId()));
		// and it is stored again, for replicas started later
		await().atMost(Duration.ofSeconds(10)).until(() -> admin.redis().dbsize() > 0);
	}

	@Test
	void anOperatorsFleetWideDisabledLandingAfterTheReadEndedAnUnheardForcedOpenKeepsTheBreakerDisabled()
			throws Exception {
		Breaker payments = overriddenFleetWideThenForgottenByRedis(State.FORCED_OPEN);
		Thread operator = landsAfterTheOverrideEnded(payments, () -> sync.override(payments, State.DISABLED, true));

		readTheFleetAgain();
		await().atMost(Duration.ofSeconds(10)).until(() -> !operator.isAlive());
		assertThat(payments.state()).isEqualTo(State.DISABLED);
		assertThat(sync.view("payments").override().state()).isEqualTo(State.DISABLED);
	}

	@Test
	void anOperatorsForcedOpenOnThisReplicaOnlyLandingAfterTheReadEndedAnUnheardFleetOneKeepsTheBreakerForcedOpen()
			throws Exception {
		Breaker payments = overriddenFleetWideThenForgottenByRedis(State.FORCED_OPEN);
		Thread operator = landsAfterTheOverrideEnded(payments, () -> sync.override(payments, State.FORCED_OPEN, false));

		readTheFleetAgain();
		await().atMost(Duration.ofSeconds(10)).until(() -> !operator.isAlive());
		assertThat(payments.state()).isEqualTo(State.FORCED_OPEN);
		assertThat(sync.view("payments").override()).isEqualTo(
				new FleetBreakerView.Override(State.FORCED_OPEN, FleetBreakerView.Scope.REPLICA, sync.replicaId()));
	}

	@Test
	void anOperatorsFleetWideClosedLandingAfterTheReadEndedAnUnheardOverrideLeavesTheBreakerClosed() throws Exception {
		Breaker payments = overriddenFleetWideThenForgottenByRedis(State.FORCED_OPEN);
		Thread operator = landsAfterTheOverrideEnded(payments, () -> sync.override(payments, State.CLOSED, true));

		readTheFleetAgain();
		await().atMost(Duration.ofSeconds(10)).until(() -> !operator.isAlive());
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
	 * Lands {@code operator} on a thread of its own once the read ended the breaker's
	 * unheard override in the mirror, before it closes the breaker here: the read goes on
	 * once the operator's override is applied, or waits for the read's own step to end.
	 */
	private Thread landsAfterTheOverrideEnded(Breaker breaker, Runnable operator) {
		Thread thread = new Thread(operator, "operator");
		AtomicBoolean landed = new AtomicBoolean();
		sync.reconciler().afterOverrideEnd(ended -> {
			if (ended == breaker && landed.compareAndSet(false, true)) {
				thread.start();
				await().atMost(Duration.ofSeconds(10)).until(() -> !thread.isAlive() || waitsForALock(thread));
			}
		});
		return thread;
	}

	private static boolean waitsForALock(Thread thread) {
		ThreadInfo info = ManagementFactory.getThreadMXBean().getThreadInfo(thread.getId());
		return info != null && info.getThreadState() == Thread.State.WAITING && info.getLockName() != null
				&& info.getLockName().contains("ReentrantLock");
	}

	private void readTheFleetAgain() {
		Instant before = sync.status().lastSync();
		sync.thread().submit(sync.reconciler()::resync);
		await().atMost(Duration.ofSeconds(10)).until(() -> sync.status().lastSync().isAfter(before));
	}

}
