package dev.breaker.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import dev.breaker.core.Breaker;
import dev.breaker.core.State;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

/**
 * Overrides of one breaker made at once here and on peers. An operator's fleet-wide
 * override is applied here at once and then published; a peer's override heard meanwhile
 * was published before it, so the fleet ends in the operator's. This replica must too,
 * whichever of its two steps (the breaker, the mirror) the peer's lands between. And
 * transition listeners may call {@link FleetSync#override} themselves, for instance to
 * keep two breakers in step: nothing the fleet holds while a breaker runs its listeners
 * may make the operator's thread and the fleet's sync thread wait for each other (a
 * per-breaker lock held there deadlocked the two, and fleet mode stopped on that replica
 * for good). A real Redis and its channel; what lands between two steps is published
 * there from a transition listener, which waits until this replica heard it, and the two
 * listeners that keep breakers in step meet at a barrier, so both are inside at once.
 */
class OverrideOrderTests {

	@AutoClose
	private final OneReplica replica = new OneReplica();

	@Test
	void aPeersResetHeardWhileAnOperatorsForcedOpenIsAppliedHereLeavesTheBreakerForcedOpenAsTheFleet()
			throws Exception {
		FleetSync sync = replica.started();
		Breaker payments = replica.registry.breaker("payments");
		AtomicBoolean landed = new AtomicBoolean();
		payments.onTransition(transition -> {
			if (transition.to() == State.FORCED_OPEN && landed.compareAndSet(false, true)) {
				// between the operator's two steps: a peer's reset, published before the
				// operator's override will be
				assertThat(replica.peerOverride("payments", State.CLOSED)).isPositive();
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
		FleetSync sync = replica.started();
		List<String> heard = replica.admin.listen(replica.settings.channel());
		Breaker payments = replica.registry.breaker("payments");
		sync.override(payments, State.FORCED_OPEN, true);
		await().atMost(Duration.ofSeconds(10)).until(() -> !heard.isEmpty());
		String own = heard.get(0);
		replica.peerOverride("payments", State.CLOSED);
		await().atMost(Duration.ofSeconds(10)).until(() -> payments.state() == State.CLOSED);

		replica.admin.publish(replica.settings.channel(), own);
		await().atMost(Duration.ofSeconds(10)).until(() -> sync.view("payments").replica().equals(sync.replicaId()));
		// a reset published after it, to know the replayed one was handled before
		replica.peerOverride("ledger", State.CLOSED);
		await().atMost(Duration.ofSeconds(10)).until(() -> sync.view("ledger").replica().equals("checkout-2"));
		assertThat(payments.state()).isEqualTo(State.CLOSED);
	}

	@Test
	void twoListenersKeepingBreakersInStepThroughTheFleetDoNotDeadlockTheOperatorAgainstTheSyncThread()
			throws Exception {
		FleetSync sync = replica.started();
		Breaker payments = replica.registry.breaker("payments");
		Breaker ledger = replica.registry.breaker("ledger");
		CyclicBarrier bothInside = new CyclicBarrier(2);
		AtomicReference<Throwable> failed = new AtomicReference<>();
		keepInStep(sync, payments, ledger, bothInside, failed);
		keepInStep(sync, ledger, payments, bothInside, failed);

		Thread operator = new Thread(() -> sync.override(payments, State.FORCED_OPEN, true), "operator");
		operator.start();
		// a peer's operator forces the other one open at the same moment
		replica.peerOverride("ledger", State.FORCED_OPEN);

		operator.join(20_000);
		assertThat(operator.isAlive()).as("the operator's override returned").isFalse();
		assertThat(failed.get()).isNull();
		assertThat(payments.state()).isEqualTo(State.FORCED_OPEN);
		assertThat(ledger.state()).isEqualTo(State.FORCED_OPEN);
		// and the sync thread still applies what the fleet says, after the two stored
		await().atMost(Duration.ofSeconds(10))
			.until(() -> replica.admin.redis().exists("breaker:{payments}:override", "breaker:{ledger}:override") == 2);
		await().atMost(Duration.ofSeconds(10))
			.until(() -> sync.view("payments").replica().equals(sync.replicaId())
					&& sync.view("ledger").replica().equals(sync.replicaId()));
		replica.peerOverride("payments", State.CLOSED);
		replica.peerOverride("ledger", State.CLOSED);
		await("the sync thread applies the fleet's resets").atMost(Duration.ofSeconds(10))
			.until(() -> payments.state() == State.CLOSED && ledger.state() == State.CLOSED);
	}

	/**
	 * On {@code breaker}'s first FORCED_OPEN, waits until the other listener is inside
	 * too, then forces {@code other} open on every replica.
	 */
	private static void keepInStep(FleetSync sync, Breaker breaker, Breaker other, CyclicBarrier bothInside,
			AtomicReference<Throwable> failed) {
		AtomicBoolean first = new AtomicBoolean();
		breaker.onTransition(transition -> {
			if (transition.to() == State.FORCED_OPEN && first.compareAndSet(false, true)) {
				try {
					bothInside.await(10, TimeUnit.SECONDS);
				}
				catch (Exception ex) {
					failed.compareAndSet(null, ex);
				}
				sync.override(other, State.FORCED_OPEN, true);
			}
		});
	}

}
