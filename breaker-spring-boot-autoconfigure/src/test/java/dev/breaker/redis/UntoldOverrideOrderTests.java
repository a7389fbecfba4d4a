package dev.breaker.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import dev.breaker.core.Breaker;
import dev.breaker.core.BreakerConfig;
import dev.breaker.core.BreakerRegistry;
import dev.breaker.core.State;
import dev.breaker.core.Ticker;
import io.lettuce.core.KillArgs;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

/**
 * An operator's fleet-wide decision this replica made while Redis did not take it (cut
 * off, or refusing writes: "untold") is the latest decision in time. What Redis stored,
 * or a peer announced, decided before it, must neither be applied over it nor drop it: it
 * is sent again, Redis takes it (nothing it took was decided later), and the whole fleet
 * ends in it. Worst case before: an older DISABLED won, and protection was off on every
 * replica although the operator's latest decision was FORCED_OPEN. A real Redis and a
 * real peer replica.
 */
class UntoldOverrideOrderTests {

	@AutoClose
	private final OneReplica replica = new OneReplica();

	private final BreakerRegistry peers = BreakerRegistry.builder()
		.defaults(BreakerConfig.builder()
			.consecutiveFailures(1)
			.openWait(Duration.ofSeconds(60))
			.ticker(Ticker.system())
			.build())
		.build();

	@AutoClose
	private FleetSync peer;

	private FleetSync sync;

	private Breaker payments;

	private Breaker there;

	@Test
	void aForcedOpenMadeWhileCutOffWinsOverAnOlderDisabledTheReconnectReadFindsStored() throws Exception {
		withPeer();
		peer.override(there, State.DISABLED, true);
		await().atMost(Duration.ofSeconds(10)).until(() -> payments.state() == State.DISABLED);
		cutOff();
		Instant before = sync.status().lastSync();
		sync.override(payments, State.FORCED_OPEN, true);
		await().atMost(Duration.ofSeconds(10)).until(() -> sync.view("payments").untold() != null);

		reconnect();
		await().atMost(Duration.ofSeconds(20)).until(() -> sync.status().lastSync().isAfter(before));

		assertThat(payments.state()).as("the latest decision, here, after the reconnect read")
			.isEqualTo(State.FORCED_OPEN);
		await("the latest decision reaches the fleet").atMost(Duration.ofSeconds(30))
			.untilAsserted(() -> assertThat(there.state()).as("the peer's breaker").isEqualTo(State.FORCED_OPEN));
		assertThat(replica.admin.redis().hget(replica.settings.keyPrefix() + "{payments}:override", "state"))
			.isEqualTo("FORCED_OPEN");
		await().atMost(Duration.ofSeconds(10)).until(() -> sync.view("payments").untold() == null);
		assertThat(payments.state()).isEqualTo(State.FORCED_OPEN);
	}

	@Test
	void aPeersOverrideAnnouncedBeforeAnUntoldOneNeitherUndoesNorDropsIt() throws Exception {
		withPeer();
		refuseWrites();
		sync.override(payments, State.FORCED_OPEN, true);
		await().atMost(Duration.ofSeconds(10)).until(() -> sync.view("payments").untold() != null);
		long decided = replica.redisTimeMillis();

		// the peer's DISABLED, decided (issued) 5 s before, heard only now
		heard(new FleetMessage(FleetMessage.Kind.OVERRIDE, "payments", "", 0, State.DISABLED, peer.replicaId(),
				decided - 5_000, "operator: DISABLED on every replica", ""));

		assertThat(payments.state()).as("the latest decision, here").isEqualTo(State.FORCED_OPEN);
		assertThat(sync.view("payments").untold()).as("still to be told").isNotNull();
		takeWrites();
		await("the latest decision reaches the fleet").atMost(Duration.ofSeconds(30))
			.untilAsserted(() -> assertThat(there.state()).as("the peer's breaker").isEqualTo(State.FORCED_OPEN));
		await().atMost(Duration.ofSeconds(10)).until(() -> sync.view("payments").untold() == null);
		assertThat(payments.state()).isEqualTo(State.FORCED_OPEN);
	}

	@Test
	void aResetMadeWhileCutOffIsNotUndoneByAnOlderEpisodeTheReconnectReadFindsStored() throws Exception {
		withPeer();
		Breaker tripped = peers.breaker("refunds");
		Breaker refunds = replica.registry.breaker("refunds");
		try {
			tripped.call(() -> {
				throw new IOException("down");
			});
		}
		catch (IOException expected) {
			// the peer's trip opens the fleet (quorum 1)
		}
		await().atMost(Duration.ofSeconds(10)).until(() -> refunds.state() == State.OPEN);
		cutOff();
		Instant before = sync.status().lastSync();
		sync.override(refunds, State.CLOSED, true);
		await().atMost(Duration.ofSeconds(10)).until(() -> sync.view("refunds").untold() != null);
		List<State> here = new CopyOnWriteArrayList<>();
		refunds.onTransition(transition -> here.add(transition.to()));

		reconnect();
		await().atMost(Duration.ofSeconds(20)).until(() -> sync.status().lastSync().isAfter(before));

		await("the reset reaches the fleet").atMost(Duration.ofSeconds(30))
			.untilAsserted(() -> assertThat(tripped.state()).as("the peer's breaker").isEqualTo(State.CLOSED));
		assertThat(here).as("this breaker's transitions since the reset").doesNotContain(State.OPEN);
		assertThat(refunds.state()).isEqualTo(State.CLOSED);
		assertThat(replica.admin.keys("*{refunds}:open")).isEmpty();
	}

	private void withPeer() throws InterruptedException {
		sync = replica.started();
		peer = replica.redis.join(peers, "b", 1);
		payments = replica.registry.breaker("payments");
		there = peers.breaker("payments");
	}

	/** Redis keeps its data, but no replica can talk to it. */
	private void cutOff() {
		replica.admin.redis().configSet("requirepass", "cut-off");
		replica.admin.redis().clientKill(KillArgs.Builder.typeNormal().skipme());
		replica.admin.redis().clientKill(KillArgs.Builder.typePubsub());
		await().atMost(Duration.ofSeconds(10)).until(() -> !sync.status().up());
	}

	private void reconnect() {
		replica.admin.redis().configSet("requirepass", "");
	}

	/** A primary a failover demoted answers every write with READONLY. */
	private void refuseWrites() {
		replica.admin.redis().replicaof("127.0.0.1", 1);
	}

	private void takeWrites() {
		replica.admin.redis().replicaofNoOne();
	}

	/**
	 * Hands an announcement to this replica's sync thread as its subscription does;
	 * returns once it was applied.
	 */
	private void heard(FleetMessage message) throws Exception {
		CompletableFuture<Void> applied = new CompletableFuture<>();
		sync.thread().submit(() -> {
			sync.peers().received(message.encode());
			applied.complete(null);
		});
		applied.get(10, TimeUnit.SECONDS);
	}

}
