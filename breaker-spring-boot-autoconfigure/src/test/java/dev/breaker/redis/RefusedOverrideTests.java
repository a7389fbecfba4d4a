package dev.breaker.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.logging.SimpleFormatter;

import dev.breaker.actuate.endpoint.FleetSharedState;
import dev.breaker.core.Breaker;
import dev.breaker.core.BreakerConfig;
import dev.breaker.core.BreakerRegistry;
import dev.breaker.core.State;
import dev.breaker.core.Ticker;
import io.lettuce.core.KillArgs;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.assertj.core.api.InstanceOfAssertFactories;
import org.junit.jupiter.api.AfterEach;

/**
 * An operator's fleet-wide override that Redis answers and refuses (a primary a failover
 * demoted answers READONLY, a Redis without its replicas NOREPLICAS, a full one OOM). The
 * operator believes the fleet has it: the refusal is logged and shown in the breaker's
 * fleet state, and the decision is sent again once Redis takes writes, while it is still
 * the latest this replica knows of. A later decision (a peer's heard here, this
 * operator's next) is never overruled by the old one sent again.
 */
class RefusedOverrideTests {

	private static final String NOT_TAKEN = "Redis did not take the override ";

	@AutoClose
	private final OneReplica replica = new OneReplica();

	private final BreakerRegistry peers = registry();

	@AutoClose
	private FleetSync peer;

	/** This replica's breaker "payments", once {@link #withPeer} started both. */
	private Breaker payments;

	/** The peer's breaker "payments". */
	private Breaker there;

	/** The fleet's log lines, as formatted (the fleet logs through System.Logger). */
	private final List<String> logged = new CopyOnWriteArrayList<>();

	private final Logger fleetLog = Logger.getLogger(FleetSync.class.getName());

	private final Handler capture = new Handler() {
		@Override
		public void publish(LogRecord record) {
			logged.add(new SimpleFormatter().formatMessage(record));
		}

		@Override
		public void flush() {
		}

		@Override
		public void close() {
		}
	};

	{
		fleetLog.addHandler(capture);
	}

	/** The pid of the Redis process a test froze (0: none). */
	private volatile long frozen;

	@AfterEach
	void stopCapturing() {
		fleetLog.removeHandler(capture);
	}

	@AfterEach
	void thaw() {
		long pid = frozen;
		if (pid != 0) {
			RedisAdmin.thaw(pid);
			frozen = 0;
		}
	}

	private String log() {
		return String.join("\n", logged);
	}

	/**
	 * The operator forced the breaker open on every replica, then reset it while Redis
	 * refused writes; this replica hears its own FORCED_OPEN back only after the reset.
	 * The reset is the latest decision: this breaker stays CLOSED, and the fleet ends
	 * CLOSED once Redis takes writes again (before: it stayed FORCED_OPEN for good).
	 */
	@Test
	void aResetRedisRefusedReachesTheFleetOnceRedisTakesWritesThoughTheForcedOpenBeforeItIsHeardBackLater()
			throws Exception {
		FleetSync sync = withPeer();
		List<String> heard = replica.admin.listen(replica.settings.channel());
		CountDownLatch first = new CountDownLatch(1);
		CountDownLatch second = new CountDownLatch(1);
		// the sync thread runs: the first wait, the FORCED_OPEN's publish, the second
		// wait, and only then its own FORCED_OPEN heard back (Redis publishes it after
		// the publish was sent)
		sync.thread().submit(() -> awaitQuietly(first));
		sync.override(payments, State.FORCED_OPEN, true);
		sync.thread().submit(() -> awaitQuietly(second));
		first.countDown();
		await().atMost(Duration.ofSeconds(10)).until(() -> heard.size() == 1);
		refuseWrites();

		sync.override(payments, State.CLOSED, true);

		assertThat(payments.state()).isEqualTo(State.CLOSED);
		second.countDown();
		await("the own FORCED_OPEN heard back after the reset").atMost(Duration.ofSeconds(10))
			.until(() -> sync.view("payments").override() != null);
		await().atMost(Duration.ofSeconds(10)).until(() -> there.state() == State.FORCED_OPEN);
		assertThat(payments.state()).as("the latest decision, here").isEqualTo(State.CLOSED);
		await("the operator told the fleet was not").atMost(Duration.ofSeconds(10))
			.until(() -> sync.view("payments").untold() != null);
		assertThat(sync.view("payments").untold().state()).isEqualTo(State.CLOSED);
		assertThat(sync.view("payments").untold().error()).contains("READONLY");
		// and as the breakers endpoint shows it
		assertThat(new FleetSharedState(sync).breaker("payments").get("untold"))
			.asInstanceOf(InstanceOfAssertFactories.MAP)
			.containsEntry("state", "CLOSED")
			.hasEntrySatisfying("error", error -> assertThat(error.toString()).contains("READONLY"));
		await().atMost(Duration.ofSeconds(10)).until(() -> log().contains(NOT_TAKEN + "CLOSED"));

		takeWrites();

		await("the reset reaches the fleet once Redis takes writes").atMost(Duration.ofSeconds(20))
			.until(() -> there.state() == State.CLOSED);
		assertThat(replica.admin.keys("*")).noneMatch(key -> key.endsWith(":override"));
		await().atMost(Duration.ofSeconds(10)).until(() -> sync.view("payments").override() == null);
		assertThat(payments.state()).isEqualTo(State.CLOSED);
		await().atMost(Duration.ofSeconds(10)).until(() -> sync.view("payments").untold() == null);
		assertThat(new FleetSharedState(sync).breaker("payments")).containsEntry("untold", null);
		BreakerRegistry later = registry();
		try (FleetSync startedLater = replica.redis.join(later, "c", 1)) {
			assertThat(later.breaker("payments").state()).isEqualTo(State.CLOSED);
		}
		assertThat(log().split(NOT_TAKEN, -1)).as("logged once, not at every resend").hasSize(2);
	}

	/**
	 * A demoted primary's clients are disconnected, and the replica's reconnect read
	 * finds its own FORCED_OPEN stored, older than the reset Redis refused. No other
	 * replica decided since (its decision would have replaced or removed the key): the
	 * read must not apply the old FORCED_OPEN over the reset, and the reset reaches the
	 * fleet.
	 */
	@Test
	void aReconnectReadFindingTheReplicasOwnOlderOverrideStoredLeavesTheRefusedResetStandingAndTellsIt()
			throws Exception {
		FleetSync sync = withPeer();
		sync.override(payments, State.FORCED_OPEN, true);
		await().atMost(Duration.ofSeconds(10)).until(() -> there.state() == State.FORCED_OPEN);
		refuseWrites();
		sync.override(payments, State.CLOSED, true);
		await().atMost(Duration.ofSeconds(10)).until(() -> sync.view("payments").untold() != null);
		List<State> here = new CopyOnWriteArrayList<>();
		payments.onTransition(transition -> here.add(transition.to()));
		Instant before = sync.status().lastSync();

		takeWrites();
		replica.admin.redis().clientKill(KillArgs.Builder.typeNormal().skipme());
		replica.admin.redis().clientKill(KillArgs.Builder.typePubsub());

		await().atMost(Duration.ofSeconds(20)).until(() -> sync.status().lastSync().isAfter(before));
		await("the reset reaches the fleet").atMost(Duration.ofSeconds(20)).until(() -> there.state() == State.CLOSED);
		assertThat(replica.admin.keys("*")).noneMatch(key -> key.endsWith(":override"));
		assertThat(here).as("this breaker's transitions since the reset").doesNotContain(State.FORCED_OPEN);
		assertThat(payments.state()).isEqualTo(State.CLOSED);
	}

	/**
	 * The operator's FORCED_OPEN was refused; a peer's reset, made later, is heard here.
	 * The old FORCED_OPEN is never sent again over it, neither once Redis takes writes:
	 * the fleet stays in the peer's later decision, and this replica says its own was
	 * never told (escaped, whatever the breaker's name).
	 */
	@Test
	void aRefusedOverrideIsNotSentAgainOverAPeersLaterDecisionHeardHere() throws Exception {
		FleetSync sync = withPeer();
		String name = "pay\nments\u001b[31m".translateEscapes();
		Breaker hostile = replica.registry.breaker(name);
		Breaker hostileThere = peers.breaker(name);
		List<String> heard = replica.admin.listen(replica.settings.channel());
		refuseWrites();
		sync.override(hostile, State.FORCED_OPEN, true);
		await().atMost(Duration.ofSeconds(10)).until(() -> sync.view(name).untold() != null);
		assertThat(hostile.state()).isEqualTo(State.FORCED_OPEN);
		AtomicInteger pauses = new AtomicInteger();
		sync.overrides().beforeResend(breaker -> pauses.incrementAndGet());

		assertThat(replica.peerOverride(name, State.CLOSED)).isPositive();

		await().atMost(Duration.ofSeconds(10)).until(() -> hostile.state() == State.CLOSED);
		await().atMost(Duration.ofSeconds(10)).until(() -> sync.view(name).untold() == null);
		assertThat(log()).contains("the override FORCED_OPEN of breaker 'pay\\nments\\u001b[31m'")
			.contains("was never told to the fleet")
			.doesNotContain("pay\nments");
		takeWrites();
		// the resend's pause ends (it finds nothing to send), then a message published
		// after anything it could have sent
		await().atMost(Duration.ofSeconds(20)).until(() -> pauses.get() >= 1);
		// a breaker of this replica's, so its entry stays to be looked at
		replica.registry.breaker("ledger");
		replica.peerOverride("ledger", State.CLOSED);
		await().atMost(Duration.ofSeconds(10)).until(() -> sync.view("ledger").replica().equals("checkout-2"));
		assertThat(heard).noneMatch(message -> FleetMessage.decode(message).replica().equals(sync.replicaId()));
		assertThat(hostileThere.state()).isEqualTo(State.CLOSED);
		assertThat(hostile.state()).isEqualTo(State.CLOSED);
	}

	/**
	 * The operator's next fleet-wide decision (DISABLED) lands from its own thread as the
	 * pause after the refused FORCED_OPEN ends, with Redis taking writes again: the old
	 * FORCED_OPEN is not sent after it, and the fleet ends DISABLED.
	 */
	@Test
	void anOperatorsNextDecisionLandingAsARefusedOneIsAboutToBeSentAgainIsTheOneTheFleetEndsIn() throws Exception {
		FleetSync sync = withPeer();
		List<String> heard = replica.admin.listen(replica.settings.channel());

		asTheRefusedForcedOpenIsAboutToBeSentAgain(sync, () -> {
			takeWrites();
			Thread operator = new Thread(() -> sync.override(payments, State.DISABLED, true), "operator-2");
			operator.start();
			await().atMost(Duration.ofSeconds(10)).until(() -> !operator.isAlive());
		});

		await().atMost(Duration.ofSeconds(10)).until(() -> there.state() == State.DISABLED);
		// a breaker of this replica's, so its entry stays to be looked at
		replica.registry.breaker("ledger");
		replica.peerOverride("ledger", State.CLOSED);
		await().atMost(Duration.ofSeconds(10)).until(() -> sync.view("ledger").replica().equals("checkout-2"));
		assertThat(heard).filteredOn(message -> FleetMessage.decode(message).replica().equals(sync.replicaId()))
			.as("what Redis published of this replica's")
			.extracting(message -> FleetMessage.decode(message).override())
			.containsExactly(State.DISABLED);
		assertThat(there.state()).isEqualTo(State.DISABLED);
		assertThat(payments.state()).isEqualTo(State.DISABLED);
		assertThat(sync.view("payments").untold()).isNull();
	}

	/**
	 * The operator forced the breaker open on every replica (taken), then reset it while
	 * Redis refused writes; one resend finds Redis hung and times out, which is no
	 * refusal. Redis answers again (refusing what it had queued) and then takes writes.
	 * The reset is still the latest decision and nobody decided since: it reaches the
	 * fleet (before: the resend chain ended at the timeout, the reconnect read skipped
	 * the own older FORCED_OPEN stored and told nobody, and the fleet stayed
	 * FORCED_OPEN).
	 */
	@Test
	void aRefusedResetWhoseResendTimedOutReachesTheFleetOnceRedisTakesWrites() throws Exception {
		FleetSync sync = withPeer();
		long pid = replica.admin.serverPid();
		sync.override(payments, State.FORCED_OPEN, true);
		await().atMost(Duration.ofSeconds(10)).until(() -> there.state() == State.FORCED_OPEN);
		refuseWrites();
		sync.override(payments, State.CLOSED, true);
		await().atMost(Duration.ofSeconds(10)).until(() -> sync.view("payments").untold() != null);
		AtomicBoolean hung = new AtomicBoolean();
		sync.overrides().beforeResend(breaker -> {
			if (breaker == payments && hung.compareAndSet(false, true)) {
				RedisAdmin.freeze(pid);
				frozen = pid;
			}
		});
		await().atMost(Duration.ofSeconds(20)).until(hung::get);
		await().atMost(Duration.ofSeconds(10)).until(() -> !sync.status().up());
		Instant before = sync.status().lastSync();
		thaw();
		// Redis answers again, and refuses what it had queued (still READONLY)
		await().atMost(Duration.ofSeconds(20)).until(() -> sync.status().up());
		await().atMost(Duration.ofSeconds(20)).until(() -> sync.status().lastSync().isAfter(before));

		takeWrites();

		assertThat(payments.state()).isEqualTo(State.CLOSED);
		await("the reset reaches the fleet once Redis takes writes").atMost(Duration.ofSeconds(30))
			.untilAsserted(() -> assertThat(there.state())
				.as("the peer's breaker; stored override keys %s; untold here %s", replica.admin.keys("*:override"),
						sync.view("payments").untold())
				.isEqualTo(State.CLOSED));
		assertThat(replica.admin.keys("*")).noneMatch(key -> key.endsWith(":override"));
		await().atMost(Duration.ofSeconds(10)).until(() -> sync.view("payments").untold() == null);
		assertThat(payments.state()).isEqualTo(State.CLOSED);
		assertThat(log().split(NOT_TAKEN, -1)).as("logged once, not at every resend").hasSize(2);
	}

	/**
	 * The operator's FORCED_OPEN was refused. Redis takes writes again and the peer's
	 * operator disables the breaker fleet-wide, which Redis takes and publishes, just as
	 * this replica's resend pause ends, before this replica heard it (it is queued behind
	 * the resend on the sync thread). The peer's DISABLED was decided later: Redis does
	 * not take the old FORCED_OPEN sent again, publishes nothing of this replica's, and
	 * the fleet, this replica included, ends DISABLED (before: the resend was published
	 * after the DISABLED and the fleet ended FORCED_OPEN).
	 */
	@Test
	void aPeersLaterDecisionRedisTookIsNotOverruledByARefusedOverrideSentAgainBeforeItIsHeardHere() throws Exception {
		FleetSync sync = withPeer();
		List<String> heard = replica.admin.listen(replica.settings.channel());

		asTheRefusedForcedOpenIsAboutToBeSentAgain(sync, () -> {
			takeWrites();
			peer.override(there, State.DISABLED, true);
			// Redis took the peer's DISABLED: it published it
			await().atMost(Duration.ofSeconds(10))
				.until(() -> heard.stream()
					.anyMatch(message -> FleetMessage.decode(message).replica().equals(peer.replicaId())));
		});

		await("the peer's later decision stands").during(Duration.ofSeconds(5))
			.atMost(Duration.ofSeconds(10))
			.untilAsserted(() -> assertThat(there.state()).as("the peer's breaker; heard on the channel %s", heard)
				.isEqualTo(State.DISABLED));
		assertThat(heard).filteredOn(message -> FleetMessage.decode(message).replica().equals(sync.replicaId()))
			.as("what Redis published of this replica's")
			.isEmpty();
		await().atMost(Duration.ofSeconds(10)).until(() -> payments.state() == State.DISABLED);
		await().atMost(Duration.ofSeconds(10)).until(() -> sync.view("payments").untold() == null);
		assertThat(log()).contains("the override FORCED_OPEN of breaker 'payments'")
			.contains("was never told to the fleet");
	}

	/**
	 * Starts this replica ("a") and its peer ("b", on {@link #peers}), both quorum 1,
	 * each with its breaker "payments"; returns this replica's fleet sync.
	 */
	private FleetSync withPeer() throws InterruptedException {
		FleetSync sync = replica.started();
		peer = replica.redis.join(peers, "b", 1);
		payments = replica.registry.breaker("payments");
		there = peers.breaker("payments");
		return sync;
	}

	/**
	 * The operator forces "payments" open fleet-wide while Redis refuses writes; as the
	 * pause before it is sent again ends (on the sync thread, before it is checked),
	 * {@code landing} runs once. Returns once it ran, and fails if it did.
	 */
	private void asTheRefusedForcedOpenIsAboutToBeSentAgain(FleetSync sync, Runnable landing) {
		refuseWrites();
		sync.override(payments, State.FORCED_OPEN, true);
		await().atMost(Duration.ofSeconds(10)).until(() -> sync.view("payments").untold() != null);
		replica.asTheResendPauseEnds(payments, landing::run);
	}

	/** A primary a failover demoted answers every write with READONLY. */
	private void refuseWrites() {
		replica.admin.redis().replicaof("127.0.0.1", 1);
	}

	private void takeWrites() {
		replica.admin.redis().replicaofNoOne();
	}

	private static BreakerRegistry registry() {
		return BreakerRegistry.builder().defaults(BreakerConfig.builder().ticker(Ticker.system()).build()).build();
	}

	private static void awaitQuietly(CountDownLatch latch) {
		try {
			latch.await(20, TimeUnit.SECONDS);
		}
		catch (InterruptedException e) {
			Thread.currentThread().interrupt();
		}
	}

}
