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
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The reconnect read ends a standing override that it did not find (an operator's reset
 * reached the others while this replica was deaf); an operator's fleet-wide CLOSED on
 * another thread may end it at the same moment. The read must still finish: a replica
 * whose read never finishes never reads the fleet again after a reconnect. An operator's
 * override landing after the read ended the old one in the mirror, before it closes the
 * breaker here, must stand: closing the breaker over it left a breaker an operator forced
 * open on every replica running CLOSED on this one. And an override this replica's
 * operator made while cut off is never told again afresh over the fleet's later reset. A
 * real Redis; the operator's override lands exactly there through the reconciler's test
 * hooks.
 */
class ReconnectReadOverrideTests {

	@AutoClose
	private final OneReplica replica = new OneReplica();

	private final RedisServerHarness redis = replica.redis;

	private final RedisAdmin admin = replica.admin;

	private final BreakerRegistry registry = replica.registry;

	private final FleetSync sync = replica.sync;

	@Test
	void anOperatorsCloseLandingAsTheReadEndsAnUnheardOverrideLeavesTheReadFinishedAndReadingAgain() throws Exception {
		replica.started();
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
		// and the read's end did not pass through CLOSED on its way: no call got through
		assertThat(payments.snapshot().transitions()).noneMatch(
				transition -> transition.to() == State.CLOSED && transition.reason().contains("heard on reconnect"));
	}

	@Test
	void anOperatorsFleetWideClosedLandingAfterTheReadEndedAnUnheardOverrideLeavesTheBreakerClosed() throws Exception {
		Breaker payments = readAgainWithAnOverrideLandingAfterTheEnd(State.FORCED_OPEN, State.CLOSED, true);

		assertThat(payments.state()).isEqualTo(State.CLOSED);
		assertThat(sync.view("payments").override()).isNull();
	}

	/**
	 * The regression a re-announcement of unstored overrides brought: this replica's
	 * operator forced the breaker open on every replica while cut off from Redis, and
	 * another operator reset it later. The old FORCED_OPEN must not come back, here or on
	 * the fleet.
	 */
	@Test
	void aForcedOpenMadeWhileCutOffIsNotToldAgainOverAPeersLaterResetAndTheBreakerEndsClosed() throws Exception {
		replica.started();
		Breaker payments = registry.breaker("payments");
		cutOff();
		Instant before = sync.status().lastSync();
		sync.override(payments, State.FORCED_OPEN, true);
		assertThat(payments.state()).isEqualTo(State.FORCED_OPEN);
		// another operator's later reset, which this replica cannot hear (Redis takes it,
		// and keeps when it was decided)
		replica.peerReset("payments");

		admin.redis().configSet("requirepass", "");
		await().atMost(Duration.ofSeconds(20)).until(() -> sync.status().lastSync().isAfter(before));
		await("the breaker CLOSED, as the fleet").atMost(Duration.ofSeconds(10))
			.until(() -> payments.state() == State.CLOSED);
		assertThat(sync.view("payments").override()).isNull();
		// and the old FORCED_OPEN is not stored for the fleet, now or a moment later
		BreakerRegistry later = BreakerRegistry.builder()
			.defaults(BreakerConfig.builder().ticker(Ticker.system()).build())
			.build();
		try (FleetSync startedLater = redis.join(later, "b", 1)) {
			assertThat(later.breaker("payments").state()).isEqualTo(State.CLOSED);
		}
		assertThat(admin.keys("*")).noneMatch(key -> key.endsWith(":override"));
		assertThat(payments.state()).isEqualTo(State.CLOSED);
	}

	/**
	 * A peer forced the breaker open on every replica; this replica's operator then
	 * disabled it on this replica only, while cut off, and the peer's reset went unheard.
	 * The reconnect read ends the fleet-wide override it no longer finds, but the
	 * replica-only DISABLED was decided after it, here: it stands (before: the read's end
	 * closed the breaker over it).
	 */
	@Test
	void aReplicaOnlyOverrideMadeBeforeTheReadUnderAnUnheardFleetWideOneStandsWhenTheReadEndsThatOne()
			throws Exception {
		replica.started();
		Breaker payments = registry.breaker("payments");
		assertThat(replica.peerOverride("payments", State.FORCED_OPEN)).isPositive();
		await().atMost(Duration.ofSeconds(10)).until(() -> payments.state() == State.FORCED_OPEN);
		cutOff();
		sync.override(payments, State.DISABLED, false);
		assertThat(payments.state()).isEqualTo(State.DISABLED);
		Instant before = sync.status().lastSync();

		admin.redis().configSet("requirepass", "");
		await().atMost(Duration.ofSeconds(20)).until(() -> sync.status().lastSync().isAfter(before));

		assertThat(payments.state()).as("the replica-only override decided after the fleet-wide one")
			.isEqualTo(State.DISABLED);
		assertThat(sync.view("payments").override())
			.isEqualTo(new FleetBreakerView.Override(State.DISABLED, FleetBreakerView.Scope.REPLICA, sync.replicaId()));
	}

	/**
	 * A peer forced the breaker open on every replica; while this replica was deaf,
	 * another operator reset it and then the fleet tripped again. The reconnect read
	 * finds the new episode and no override: the FORCED_OPEN ended, and the breaker
	 * follows the episode (before: the breaker closed, and the mirror dropped the episode
	 * Redis holds open).
	 */
	@Test
	void aForcedOpenWhoseResetWentUnheardEndsOnReconnectThoughTheFleetTrippedAgainSince() throws Exception {
		replica.started();
		Breaker payments = forcedOpenByAPeer(replica.redisTimeMillis());
		cutOff();
		replica.peerReset("payments");
		String episode = replica.peerOpened("payments", 60_000);

		reconnect();

		assertOverrideEndedFollowing(payments, episode);
	}

	/**
	 * This replica followed an episode, then a peer's FORCED_OPEN (decided before the
	 * reset below) held its breaker; while it was deaf, a reset decided before the
	 * episode opened, sent again, ended the FORCED_OPEN and left the episode open in
	 * Redis. The reconnect read ends the override, and the breaker follows the episode
	 * Redis still holds open, as a replica that heard the reset does (before: it closed,
	 * and the mirror dropped the episode, while the fleet held it open).
	 */
	@Test
	void aForcedOpenWhoseResetSentAgainWentUnheardEndsOnReconnectInTheEpisodeTheResetLeftOpen() throws Exception {
		replica.started();
		Breaker payments = registry.breaker("payments");
		long resetAt = replica.redisTimeMillis();
		await().atMost(Duration.ofSeconds(10)).until(() -> replica.redisTimeMillis() > resetAt + 2);
		String episode = replica.peerOpened("payments", 60_000);
		await().atMost(Duration.ofSeconds(10)).until(() -> payments.state() == State.OPEN);
		forcedOpenByAPeer(resetAt - 1_000);
		cutOff();
		replica.peerOverrideTaken("payments", State.CLOSED, resetAt, true);
		assertThat(admin.redis().hget(new FleetKeys(replica.settings.keyPrefix()).state("payments"), "episode"))
			.as("the episode the reset sent again left open")
			.isEqualTo(episode);

		reconnect();

		assertOverrideEndedFollowing(payments, episode);
	}

	/**
	 * A peer forced the breaker open on every replica; the reset that ended it and the
	 * trip after it went unheard here (their announcements lost). One reconnect read
	 * finds the episode and no override: the FORCED_OPEN ends, and the breaker follows
	 * the episode (before: the episode the read applied counted as a change since it
	 * began, so it never ended the override, and the breaker stayed FORCED_OPEN on this
	 * replica only, until a later read).
	 */
	@Test
	void oneReadEndsAnUnheardOverrideItDidNotFindThoughItFoundAnEpisodeOpenedUnheard() throws Exception {
		replica.started();
		Breaker payments = forcedOpenByAPeer(replica.redisTimeMillis());
		admin.redis().del(new FleetKeys(replica.settings.keyPrefix()).override("payments"));
		String episode = replica.peerOpened("payments", 60_000, "elsewhere");

		Instant before = sync.status().lastSync();
		sync.thread().submit(sync.reconciler()::resync);
		await().atMost(Duration.ofSeconds(10)).until(() -> sync.status().lastSync().isAfter(before));

		assertOverrideEndedFollowing(payments, episode);
	}

	/**
	 * A peer's FORCED_OPEN of "payments" on every replica, decided at {@code decidedAt}
	 * (Redis's time), taken by Redis and heard here; returns this replica's breaker, held
	 * by it.
	 */
	private Breaker forcedOpenByAPeer(long decidedAt) {
		Breaker payments = registry.breaker("payments");
		replica.peerOverrideTaken("payments", State.FORCED_OPEN, decidedAt);
		await().atMost(Duration.ofSeconds(10)).until(() -> payments.state() == State.FORCED_OPEN);
		return payments;
	}

	/**
	 * The read ended the fleet-wide override it did not find, and the breaker follows
	 * {@code episode}, which Redis holds open.
	 */
	private void assertOverrideEndedFollowing(Breaker payments, String episode) {
		assertThat(sync.view("payments").override()).as("the override the read did not find").isNull();
		assertThat(payments.state()).as("following the episode Redis holds open").isEqualTo(State.OPEN);
		assertThat(sync.view("payments").episode()).isEqualTo(episode);
	}

	/** This replica talks to Redis again; returns once its reconnect read is done. */
	private void reconnect() {
		Instant before = sync.status().lastSync();
		admin.redis().configSet("requirepass", "");
		await().atMost(Duration.ofSeconds(20)).until(() -> sync.status().lastSync().isAfter(before));
	}

	/** Redis keeps its data, but this replica can no longer talk to it. */
	private void cutOff() {
		admin.redis().configSet("requirepass", "cut-off");
		admin.redis().clientKill(KillArgs.Builder.typeNormal());
		admin.redis().clientKill(KillArgs.Builder.typePubsub());
		await().atMost(Duration.ofSeconds(10)).until(() -> !sync.status().up());
	}

	/**
	 * The breaker was overridden ({@code ended}) on every replica, and Redis forgot it
	 * (the operator's reset reached the others while this replica was deaf); as the read
	 * ends it, an operator's {@code landing} override lands from a thread of its own,
	 * once the read ended the old one in the mirror and before it closes the breaker
	 * here. The read goes on once the operator's override is applied. Returns once both
	 * are done.
	 */
	private Breaker readAgainWithAnOverrideLandingAfterTheEnd(State ended, State landing, boolean fleetWide)
			throws InterruptedException {
		replica.started();
		Breaker payments = registry.breaker("payments");
		sync.override(payments, ended, true);
		await().atMost(Duration.ofSeconds(10)).until(() -> admin.redis().dbsize() > 0);
		admin.redis().flushall();
		Thread operator = new Thread(() -> sync.override(payments, landing, fleetWide), "operator");
		AtomicBoolean landed = new AtomicBoolean();
		sync.reconciler().afterOverrideEnd(breaker -> {
			if (breaker == payments && landed.compareAndSet(false, true)) {
				operator.start();
				await().atMost(Duration.ofSeconds(10)).until(() -> !operator.isAlive());
			}
		});
		Instant before = sync.status().lastSync();
		sync.thread().submit(sync.reconciler()::resync);
		await().atMost(Duration.ofSeconds(10)).until(() -> sync.status().lastSync().isAfter(before));
		assertThat(landed).isTrue();
		return payments;
	}

}
