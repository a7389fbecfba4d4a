package dev.breaker.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import dev.breaker.core.Breaker;
import dev.breaker.core.BreakerConfig;
import dev.breaker.core.BreakerRegistry;
import dev.breaker.core.State;
import dev.breaker.core.ManualTicker;
import dev.breaker.core.Transition;
import io.lettuce.core.RedisURI;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A replica's own announcements come back on the channel on another connection than its
 * scripts' replies, and may come many episodes late: they must never change which episode
 * its breaker follows (a close would then end the wrong one, and the fleet would stay
 * open). Driven by hand on the sync side; no Redis is needed (none is reached).
 */
class LateAnnouncementsTests {

	private final ManualTicker ticker = new ManualTicker();

	private final BreakerRegistry registry = BreakerRegistry.builder()
		.defaults(
				BreakerConfig.builder().consecutiveFailures(1).openWait(Duration.ofSeconds(30)).ticker(ticker).build())
		.build();

	private final FleetSync sync = new FleetSync(registry, new SharedStoreStatus("a", Clock.systemUTC()),
			RedisURI.create("127.0.0.1", 1), FleetSettings.defaults(1));

	private final Breaker payments = registry.breaker("payments");

	@AfterEach
	void close() {
		sync.close();
	}

	@Test
	void ownAnnouncementsArrivingEpisodesLateLeaveTheFollowedEpisodeAlone() throws Exception {
		FleetEntry entry = sync.entries().local("payments");
		for (int round = 1; round <= 100; round++) {
			trip();
			sync.peers().openedHere(payments, entry, own(FleetMessage.Kind.OPEN, "e" + round), "");
			assertThat(entry.tied()).isEqualTo("e" + round);
			payments.reset();
			assertThat(entry.untie()).isEqualTo("e" + round); // what the close publishes
		}
		trip();
		sync.peers().openedHere(payments, entry, own(FleetMessage.Kind.OPEN, "e101"), "");

		// the channel catches up: every earlier round's open and close, in order
		for (int round = 1; round <= 100; round++) {
			sync.peers().apply(own(FleetMessage.Kind.OPEN, "e" + round), sync.nextSequence(), Long.MAX_VALUE, true);
			assertThat(entry.tied()).isEqualTo("e101");
			sync.peers().apply(own(FleetMessage.Kind.CLOSED, "e" + round), sync.nextSequence(), Long.MAX_VALUE, true);
		}
		sync.peers().apply(own(FleetMessage.Kind.OPEN, "e101"), sync.nextSequence(), Long.MAX_VALUE, true);

		assertThat(entry.tied()).isEqualTo("e101");
		assertThat(sync.view("payments").fleetOpen()).isTrue();
		assertThat(sync.view("payments").episode()).isEqualTo("e101");
		assertThat(payments.state()).isEqualTo(State.OPEN);
	}

	@Test
	void aPeersCloseArrivingBeforeTheReplyThatOpenedTheEpisodeClosesTheBreaker() throws Exception {
		FleetEntry entry = sync.entries().local("payments");
		trip();
		// on the channel: this replica's own open, then a peer's close of it; the
		// script's reply comes after both
		sync.peers().apply(own(FleetMessage.Kind.OPEN, "e1"), sync.nextSequence(), Long.MAX_VALUE, true);
		sync.peers().apply(peer(FleetMessage.Kind.CLOSED, "e1"), sync.nextSequence(), Long.MAX_VALUE, true);

		sync.peers().openedHere(payments, entry, own(FleetMessage.Kind.OPEN, "e1"), "");

		assertThat(payments.state()).isEqualTo(State.CLOSED);
		assertThat(entry.tied()).isEmpty();
	}

	@Test
	void aNewerEpisodeThatOvertakesTheReplyIsTheOneTheBreakerKeepsFollowing() throws Exception {
		FleetEntry entry = sync.entries().local("payments");
		trip();
		// this replica's open of e1 is sent; meanwhile a peer's failed probe replaced e1
		// by e2, and that came first
		sync.peers().apply(own(FleetMessage.Kind.OPEN, "e1"), sync.nextSequence(), Long.MAX_VALUE, true);
		sync.peers().apply(peer(FleetMessage.Kind.OPEN, "e2"), sync.nextSequence(), Long.MAX_VALUE, true);
		assertThat(entry.tied()).isEqualTo("e2");

		sync.peers().openedHere(payments, entry, own(FleetMessage.Kind.OPEN, "e1"), "");

		assertThat(entry.tied()).isEqualTo("e2");
		assertThat(payments.state()).isEqualTo(State.OPEN);
	}

	@Test
	void aFailedProbeForTheFleetMovesTheBreakerToTheNewEpisodeItOpened() throws Exception {
		FleetEntry entry = sync.entries().local("payments");
		sync.peers().apply(peer(FleetMessage.Kind.OPEN, "e1"), sync.nextSequence(), Long.MAX_VALUE, true);
		assertThat(entry.tied()).isEqualTo("e1");

		sync.peers().openedHere(payments, entry, own(FleetMessage.Kind.OPEN, "e2"), "e1");

		assertThat(entry.tied()).isEqualTo("e2");
	}

	@Test
	void aLateOrReplayedOpenOfAnEndedEpisodeOpensNothing() {
		FleetMessage open = peer(FleetMessage.Kind.OPEN, "e1");
		sync.peers().apply(open, sync.nextSequence(), Long.MAX_VALUE, true);
		assertThat(payments.state()).isEqualTo(State.OPEN);
		sync.peers().apply(peer(FleetMessage.Kind.CLOSED, "e1"), sync.nextSequence(), Long.MAX_VALUE, true);
		assertThat(payments.state()).isEqualTo(State.CLOSED);

		sync.peers().apply(open, sync.nextSequence(), Long.MAX_VALUE, true);

		assertThat(payments.state()).isEqualTo(State.CLOSED);
	}

	@Test
	void aCloseHeardWhileABreakerIsCreatedInTheEpisodeClosesItAgain() throws Exception {
		registry.onCreated(new LocalTransitions(sync)::created);
		CountDownLatch busy = new CountDownLatch(1);

		Breaker refunds = createdInE1WhoseCloseIsHeardFirst(busy);
		release(busy);

		assertThat(refunds.state()).isEqualTo(State.CLOSED);
		assertThat(sync.entries().get("refunds").tied()).isEmpty();
	}

	@Test
	void aBreakerThatReopenedOnItsOwnBeforeItsTieIsLeftOpenByTheEndedEpisodesClose() throws Exception {
		LocalTransitions local = new LocalTransitions(sync);
		registry.onCreated(local::created);
		registry.onTransition(local::transitioned);
		CountDownLatch busy = new CountDownLatch(1);

		Breaker refunds = createdInE1WhoseCloseIsHeardFirst(busy);
		// meanwhile the peer open runs out here, and the breaker's own probes fail
		ticker.advance(Duration.ofSeconds(31));
		for (int call = 0; call < 10 && lastTransition(refunds).to() != State.OPEN; call++) {
			failOnce(refunds);
		}
		Transition reopened = lastTransition(refunds);
		assertThat(reopened.from()).isEqualTo(State.HALF_OPEN);
		assertThat(reopened.to()).isEqualTo(State.OPEN);
		assertThat(reopened.remote()).isFalse();

		release(busy);

		// the close of e1 says nothing of this breaker's own failed probes: it stays
		// open, and its trip is still to be told to the fleet
		assertThat(refunds.state()).isEqualTo(State.OPEN);
		assertThat(lastTransition(refunds)).isEqualTo(reopened);
		assertThat(sync.entries().get("refunds").tripUnpublished()).isEqualTo(FleetPublisher.Trip.VOTE);
	}

	/**
	 * Breaker refunds, created here while the fleet holds e1 open and the sync thread is
	 * busy until {@code busy} counts down: it opens as the fleet does, and follows e1
	 * once the sync thread gets to it; e1's close is heard first.
	 */
	private Breaker createdInE1WhoseCloseIsHeardFirst(CountDownLatch busy) {
		sync.peers()
			.apply(new FleetMessage(FleetMessage.Kind.OPEN, "refunds", "e1", 30_000, null, "b", 1, "trip", ""),
					sync.nextSequence(), Long.MAX_VALUE, true);
		sync.thread().submit(() -> await(busy));
		Breaker refunds = registry.breaker("refunds");
		assertThat(refunds.state()).isEqualTo(State.OPEN);
		sync.peers()
			.apply(new FleetMessage(FleetMessage.Kind.CLOSED, "refunds", "e1", 0, null, "c", 1, "probes passed", ""),
					sync.nextSequence(), Long.MAX_VALUE, true);
		return refunds;
	}

	/** Lets the sync thread go on, and waits until it has done what was queued. */
	private void release(CountDownLatch busy) throws Exception {
		busy.countDown();
		sync.thread().supply(() -> CompletableFuture.completedFuture(true)).get(10, TimeUnit.SECONDS);
	}

	private static Transition lastTransition(Breaker breaker) {
		List<Transition> transitions = breaker.snapshot().transitions();
		return transitions.get(transitions.size() - 1);
	}

	private static void failOnce(Breaker breaker) {
		try {
			breaker.call(() -> {
				throw new IOException("still down");
			});
		}
		catch (Exception expected) {
			// a failed probe, or a call the open breaker refused
		}
	}

	private static void await(CountDownLatch latch) {
		try {
			latch.await();
		}
		catch (InterruptedException e) {
			Thread.currentThread().interrupt();
		}
	}

	private void trip() throws Exception {
		try {
			payments.call(() -> {
				throw new IOException("down");
			});
		}
		catch (IOException expected) {
			// the trip
		}
	}

	private static FleetMessage own(FleetMessage.Kind kind, String episode) {
		return new FleetMessage(kind, "payments", episode, kind == FleetMessage.Kind.OPEN ? 30_000 : 0, null, "a", 1,
				"trip", "");
	}

	private static FleetMessage peer(FleetMessage.Kind kind, String episode) {
		return new FleetMessage(kind, "payments", episode, kind == FleetMessage.Kind.OPEN ? 30_000 : 0, null, "b", 1,
				"trip", "");
	}

}
