package dev.breaker.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import dev.breaker.core.Breaker;
import dev.breaker.core.BreakerRegistry;
import dev.breaker.core.State;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

/**
 * An operator's reset that Redis did not take is sent again later; by then the breaker
 * may have tripped and the fleet opened a new episode, decided after the reset. The reset
 * sent again must not end that episode, in Redis or on the peers.
 */
class ResentResetTests {

	private static final String TRIPPED = "fleet failure rate 100.0% >= 50% over 40 calls";

	@AutoClose
	private final OneReplica replica = new OneReplica();

	private final FleetKeys keys = new FleetKeys(replica.settings.keyPrefix());

	@Test
	void aResetResentAfterAPeerTrippedTheFleetDoesNotEndTheNewerEpisode() throws Exception {
		resentAfterANewEpisode(false);
	}

	@Test
	void aResetResentAfterItsOwnReplicaTrippedTheFleetDoesNotEndTheNewerEpisode() throws Exception {
		resentAfterANewEpisode(true);
	}

	/**
	 * Replica a's operator resets "payments" fleet-wide while Redis refuses writes; as
	 * the pause before it is sent again ends, Redis takes writes again and a trip (on a,
	 * or on the peer b) opens a new episode fleet-wide; then the reset is sent again.
	 */
	private void resentAfterANewEpisode(boolean ownTrip) throws Exception {
		FleetSync sync = replica.started();
		BreakerRegistry peers = OneReplica.systemTickerRegistry();
		try (FleetSync peer = replica.redis.join(peers, "b", 1)) {
			resentAfterANewEpisode(ownTrip, sync, peers, peer);
		}
	}

	private void resentAfterANewEpisode(boolean ownTrip, FleetSync sync, BreakerRegistry peers, FleetSync peer) {
		Breaker payments = replica.registry.breaker("payments");
		Breaker there = peers.breaker("payments");

		untoldReset(sync, payments);
		beforeTheResend(sync, payments, () -> {
			replica.admin.redis().replicaofNoOne();
			if (ownTrip) {
				sync.tripFromFleetWindow(payments, TRIPPED);
			}
			else {
				peer.tripFromFleetWindow(there, TRIPPED);
				await().atMost(Duration.ofSeconds(10)).until(() -> hget(keys.state("payments"), "episode") != null);
			}
		});
		heardTheReset(peer);

		assertThat(hget(keys.state("payments"), "episode")).as("the newer episode, in Redis").isNotNull();
		assertThat(there.state()).as("replica b, following the newer episode").isEqualTo(State.OPEN);
		assertThat(peer.view("payments").fleetOpen()).as("replica b's mirror").isTrue();
		await().atMost(Duration.ofSeconds(10)).until(() -> payments.state() == State.OPEN);
	}

	/**
	 * As above, the peer b trips and follows the newer episode; then an operator's
	 * FORCED_OPEN decided on another replica before a's reset reaches Redis (it was sent
	 * late) and holds b's breaker. a's reset, sent again, is taken (nothing Redis took
	 * was decided after it) and ends that FORCED_OPEN fleet-wide: b's breaker is lifted
	 * out of it, and follows the episode the reset left open.
	 */
	@Test
	void aResetResentLiftsAnOlderForcedOpenFromAPeerFollowingTheNewerEpisode() throws Exception {
		FleetSync sync = replica.started();
		BreakerRegistry peers = OneReplica.systemTickerRegistry();
		try (FleetSync peer = replica.redis.join(peers, "b", 1)) {
			Breaker payments = replica.registry.breaker("payments");
			Breaker there = peers.breaker("payments");

			untoldReset(sync, payments);
			long resetAt = sync.entries().get("payments").untoldDecidedAt();
			assertThat(resetAt).as("when a's reset was decided").isPositive();
			beforeTheResend(sync, payments, () -> {
				replica.admin.redis().replicaofNoOne();
				peer.tripFromFleetWindow(there, TRIPPED);
				await().atMost(Duration.ofSeconds(10)).until(() -> !peer.view("payments").episode().isEmpty());
				replica.peerOverrideTaken("payments", State.FORCED_OPEN, resetAt - 1_000);
				await().atMost(Duration.ofSeconds(10)).until(() -> there.state() == State.FORCED_OPEN);
			});
			heardTheReset(peer);

			assertThat(hget(keys.override("payments"), "state")).as("the older FORCED_OPEN, in Redis").isNull();
			assertThat(hget(keys.state("payments"), "episode")).as("the newer episode, in Redis").isNotNull();
			await().atMost(Duration.ofSeconds(10))
				.untilAsserted(() -> assertThat(there.state()).as("replica b, lifted out of the FORCED_OPEN")
					.isEqualTo(State.OPEN));
			assertThat(peer.view("payments").episode()).as("the episode b follows")
				.isEqualTo(hget(keys.state("payments"), "episode"));
		}
	}

	/**
	 * A peer's reset sent again, decided before the episode Redis holds opened, is heard
	 * here while a read of that episode is on its way back (sent before the reset was
	 * heard). Redis left the episode open, so the read is not older than the reset: the
	 * breaker follows the episode (before: the read was dropped as overtaken, and the
	 * breaker ran CLOSED while the fleet held the circuit open).
	 */
	@Test
	void aReadOfAnEpisodeAResetSentAgainLeftOpenIsAppliedThoughTheResetWasHeardWhileItWasOnItsWay() throws Exception {
		FleetSync sync = replica.started();
		Breaker payments = replica.registry.breaker("payments");
		long resetAt = replica.redisTimeMillis();
		await().atMost(Duration.ofSeconds(10)).until(() -> replica.redisTimeMillis() > resetAt + 2);
		// its announcement lost here
		String episode = replica.peerOpened("payments", 60_000, "elsewhere");
		long issued = replica.redisTimeMillis();
		FleetMessage resentReset = new FleetMessage(FleetMessage.Kind.OVERRIDE, "payments", "", issued - resetAt,
				State.CLOSED, "checkout-2", issued, "operator: CLOSED on every replica", "");
		CompletableFuture<Void> done = new CompletableFuture<>();

		sync.thread().submit(() -> {
			long sent = sync.sequence();
			StoreReplies.Stored stored = sync.store().readOpen("payments").join();
			sync.peers().received(resentReset.encode());
			sync.applyStored(stored, sent);
			done.complete(null);
		});
		done.get(10, TimeUnit.SECONDS);

		assertThat(payments.state()).as("following the episode Redis holds open").isEqualTo(State.OPEN);
		assertThat(sync.view("payments").episode()).isEqualTo(episode);
	}

	/** Replica a's operator resets "payments" fleet-wide while Redis refuses writes. */
	private void untoldReset(FleetSync sync, Breaker payments) {
		replica.admin.redis().replicaof("127.0.0.1", 1); // a demoted primary: READONLY
		sync.override(payments, State.CLOSED, true);
		await().atMost(Duration.ofSeconds(10)).until(() -> sync.view("payments").untold() != null);
	}

	/**
	 * Runs {@code landing} as the pause before the untold reset is sent again ends;
	 * returns once the reset sent again was taken.
	 */
	private void beforeTheResend(FleetSync sync, Breaker payments, OneReplica.Landing landing) {
		replica.asTheResendPauseEnds(payments, landing);
		await().atMost(Duration.ofSeconds(10)).until(() -> sync.view("payments").untold() == null);
	}

	/** Waits until b heard the announcement of a's reset sent again. */
	private static void heardTheReset(FleetSync peer) {
		await().atMost(Duration.ofSeconds(10))
			.until(() -> "a".equals(peer.view("payments").replica())
					&& peer.view("payments").reason().contains("CLOSED"));
	}

	private String hget(String key, String field) {
		return replica.admin.redis().hget(key, field);
	}

}
