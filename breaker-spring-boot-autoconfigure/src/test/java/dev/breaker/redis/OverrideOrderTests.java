package dev.breaker.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

import dev.breaker.core.Breaker;
import dev.breaker.core.State;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * An operator's fleet-wide override is applied here at once and then published; a peer's
 * override heard meanwhile was published before it, so the fleet ends in the operator's.
 * This replica must too, whichever of its two steps (the breaker, the mirror) the peer's
 * lands between. A real Redis and its channel; the peer's override is published exactly
 * there, from a transition listener on the operator's thread, which waits until this
 * replica heard it.
 */
class OverrideOrderTests {

	private final OneReplica replica = new OneReplica();

	@AfterEach
	void close() {
		replica.close();
	}

	@Test
	void aPeersResetHeardWhileAnOperatorsForcedOpenIsAppliedHereLeavesTheBreakerForcedOpenAsTheFleet()
			throws Exception {
		FleetSync sync = replica.sync;
		sync.start();
		assertThat(sync.awaitFirstSync(Duration.ofSeconds(10))).isTrue();
		Breaker payments = replica.registry.breaker("payments");
		AtomicBoolean landed = new AtomicBoolean();
		payments.onTransition(transition -> {
			if (transition.to() == State.FORCED_OPEN && landed.compareAndSet(false, true)) {
				// between the operator's two steps: a peer's reset, published before the
				// operator's override will be
				String reset = new FleetMessage(FleetMessage.Kind.OVERRIDE, "payments", "", 0, State.CLOSED,
						"checkout-2", System.currentTimeMillis(), "operator: CLOSED on every replica", "")
					.encode();
				assertThat(replica.admin.publish(replica.settings.channel(), reset)).isPositive();
				await().atMost(Duration.ofSeconds(10))
					.until(() -> sync.view("payments").replica().equals("checkout-2"));
			}
		});

		sync.override(payments, State.FORCED_OPEN, true);

		assertThat(landed).isTrue();
		await().atMost(Duration.ofSeconds(10))
			.until(() -> replica.admin.redis().exists("breaker:{payments}:override") == 1);
		// the operator's override's own echo on the channel, heard after the peer's reset
		await().atMost(Duration.ofSeconds(10)).until(() -> sync.view("payments").replica().equals(sync.replicaId()));
		await("the breaker FORCED_OPEN, as the fleet").atMost(Duration.ofSeconds(10))
			.until(() -> payments.state() == State.FORCED_OPEN);
		assertThat(sync.view("payments").override()).isEqualTo(
				new FleetBreakerView.Override(State.FORCED_OPEN, FleetBreakerView.Scope.FLEET, sync.replicaId()));
	}

	/**
	 * An own announcement heard again after a peer's later override (a replay, or a
	 * duplicate delivered late) is no news for the breaker: only the first hearing of it
	 * may tell the breaker that the fleet ended in it.
	 */
	@Test
	void anOwnAnnouncementHeardAgainAfterAPeersLaterResetLeavesTheBreakerClosed() throws Exception {
		FleetSync sync = replica.sync;
		sync.start();
		assertThat(sync.awaitFirstSync(Duration.ofSeconds(10))).isTrue();
		List<String> heard = replica.admin.listen(replica.settings.channel());
		Breaker payments = replica.registry.breaker("payments");
		sync.override(payments, State.FORCED_OPEN, true);
		await().atMost(Duration.ofSeconds(10)).until(() -> !heard.isEmpty());
		String own = heard.get(0);
		String reset = new FleetMessage(FleetMessage.Kind.OVERRIDE, "payments", "", 0, State.CLOSED, "checkout-2",
				System.currentTimeMillis(), "operator: CLOSED on every replica", "")
			.encode();
		replica.admin.publish(replica.settings.channel(), reset);
		await().atMost(Duration.ofSeconds(10)).until(() -> payments.state() == State.CLOSED);

		replica.admin.publish(replica.settings.channel(), own);
		await().atMost(Duration.ofSeconds(10)).until(() -> sync.view("payments").replica().equals(sync.replicaId()));
		// a reset published after it, to know the replayed one was handled before
		String probe = new FleetMessage(FleetMessage.Kind.OVERRIDE, "ledger", "", 0, State.CLOSED, "checkout-2",
				System.currentTimeMillis(), "operator: CLOSED on every replica", "")
			.encode();
		replica.admin.publish(replica.settings.channel(), probe);
		await().atMost(Duration.ofSeconds(10)).until(() -> sync.view("ledger").replica().equals("checkout-2"));
		assertThat(payments.state()).isEqualTo(State.CLOSED);
	}

}
