package dev.breaker.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

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
		String state = new FleetKeys(replica.settings.keyPrefix()).state("payments");

		replica.admin.redis().replicaof("127.0.0.1", 1); // a demoted primary: READONLY
		sync.override(payments, State.CLOSED, true);
		await().atMost(Duration.ofSeconds(10)).until(() -> sync.view("payments").untold() != null);

		AtomicBoolean landed = new AtomicBoolean();
		AtomicReference<Throwable> failed = new AtomicReference<>();
		AtomicReference<String> episode = new AtomicReference<>();
		sync.overrides().beforeResend(breaker -> {
			if (breaker == payments && landed.compareAndSet(false, true)) {
				try {
					replica.admin.redis().replicaofNoOne();
					if (ownTrip) {
						sync.tripFromFleetWindow(payments, TRIPPED);
					}
					else {
						peer.tripFromFleetWindow(there, TRIPPED);
						await().atMost(Duration.ofSeconds(10))
							.until(() -> replica.admin.redis().hget(state, "episode") != null);
					}
				}
				catch (Throwable e) {
					failed.set(e);
				}
			}
		});
		await().atMost(Duration.ofSeconds(20)).until(landed::get);
		assertThat(failed.get()).as("the trip as the pause ended").isNull();
		// the reset sent again was taken, and b heard its announcement after the open
		await().atMost(Duration.ofSeconds(10)).until(() -> sync.view("payments").untold() == null);
		await().atMost(Duration.ofSeconds(10))
			.until(() -> "a".equals(peer.view("payments").replica())
					&& peer.view("payments").reason().contains("CLOSED"));

		assertThat(replica.admin.redis().hget(state, "episode")).as("the newer episode, in Redis").isNotNull();
		assertThat(there.state()).as("replica b, following the newer episode").isEqualTo(State.OPEN);
		assertThat(peer.view("payments").fleetOpen()).as("replica b's mirror").isTrue();
		await().atMost(Duration.ofSeconds(10)).until(() -> payments.state() == State.OPEN);
	}

}
