package dev.breaker.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import dev.breaker.core.Breaker;
import dev.breaker.core.BreakerConfig;
import dev.breaker.core.BreakerRegistry;
import dev.breaker.core.State;
import dev.breaker.core.Ticker;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

/**
 * Overrides of one breaker made at once here and on peers. An operator's fleet-wide
 * override is decided, written to the mirror and queued for publishing in one step, then
 * applied to the breaker; a peer's override heard meanwhile was published before it, so
 * the fleet ends in the operator's. This replica must too. Two operators here end in the
 * one decided last, there and in the fleet, and a trip by traffic after the last reset
 * stands. And transition listeners may call {@link FleetSync#override} themselves, for
 * instance to force two breakers open in step: nothing the fleet holds while a breaker
 * runs its listeners may make the operator's thread and the fleet's sync thread wait for
 * each other (a per-breaker lock held there deadlocked the two, and fleet mode stopped on
 * that replica for good). A real Redis and its channel; what lands between two steps is
 * published there from a transition listener, which waits until this replica heard it,
 * and the two listeners that keep breakers in step meet at a barrier, so both are inside
 * at once.
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
		CountDownLatch busy = new CountDownLatch(1);
		AtomicBoolean heardInside = new AtomicBoolean();
		payments.onTransition(transition -> {
			if (transition.to() == State.FORCED_OPEN && landed.compareAndSet(false, true)) {
				// between the operator's two steps (decided and queued; applied here): a
				// peer's reset, published before the operator's override is (the sync
				// thread, busy, has not sent it yet)
				assertThat(replica.peerOverride("payments", State.CLOSED)).isPositive();
				busy.countDown();
				// heard here (the mirror's second change: the operator's own echo,
				// published after it, is its third and may follow at once)
				await().atMost(Duration.ofSeconds(10)).until(() -> sync.view("payments").generation() >= 2);
				heardInside.set(true);
			}
		});
		sync.thread().submit(() -> awaitQuietly(busy));

		sync.override(payments, State.FORCED_OPEN, true);

		assertThat(landed).isTrue();
		assertThat(heardInside).as("the peer's reset heard here while the listener ran").isTrue();
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
		markHandled(sync);
		assertThat(payments.state()).isEqualTo(State.CLOSED);
	}

	/**
	 * Two operators on this replica, one after the other: the second's reset lands while
	 * the first's FORCED_OPEN runs its listeners. The reset is the latest decision; the
	 * fleet (what Redis published last, what a replica started later reads) and this
	 * breaker must both end in it.
	 */
	@Test
	void twoOperatorsHereEndWithTheFleetAndThisBreakerInTheLaterDecision() throws Exception {
		FleetSync sync = replica.started();
		List<String> heard = replica.admin.listen(replica.settings.channel());
		Breaker payments = replica.registry.breaker("payments");
		AtomicBoolean landed = new AtomicBoolean();
		payments.onTransition(transition -> {
			if (transition.to() == State.FORCED_OPEN && landed.compareAndSet(false, true)) {
				runAndWait(() -> sync.override(payments, State.CLOSED, true), "operator-2");
			}
		});

		sync.override(payments, State.FORCED_OPEN, true);

		assertThat(landed).isTrue();
		await().atMost(Duration.ofSeconds(10)).until(() -> heard.size() == 2);
		// a peer's message after both, so both echoes were handled here
		markHandled(sync);
		assertThat(FleetMessage.decode(heard.get(1)).override()).as("published last").isEqualTo(State.CLOSED);
		BreakerRegistry later = BreakerRegistry.builder()
			.defaults(BreakerConfig.builder().ticker(Ticker.system()).build())
			.build();
		State startedLater;
		try (FleetSync b = replica.redis.join(later, "b", 1)) {
			startedLater = later.breaker("payments").state();
		}
		assertThat(payments.state())
			.as("this replica's breaker, as the fleet (a replica started later: %s)", startedLater)
			.isEqualTo(startedLater);
		assertThat(payments.state()).as("the latest decision").isEqualTo(State.CLOSED);
	}

	/**
	 * A slow listener of an operator's FORCED_OPEN; meanwhile a second operator resets
	 * the breaker and the still-failing dependency trips it again. The trip came after
	 * the latest decision and must stand: the first override's settling may not re-apply
	 * the reset over it (the breaker would stop protecting).
	 */
	@Test
	void aTripAfterTheLatestResetIsNotUndoneByAnEarlierOverridesSettle() throws Exception {
		FleetSync sync = replica.started();
		Breaker payments = replica.registry.breaker("payments");
		AtomicBoolean landed = new AtomicBoolean();
		AtomicReference<State> afterTrip = new AtomicReference<>();
		payments.onTransition(transition -> {
			if (transition.to() == State.FORCED_OPEN && landed.compareAndSet(false, true)) {
				runAndWait(() -> sync.override(payments, State.CLOSED, false), "operator-2");
				for (int i = 0; i < 1_000 && payments.state() != State.OPEN; i++) {
					try {
						payments.call(() -> {
							throw new IOException("down");
						});
					}
					catch (Exception expected) {
						// the dependency fails
					}
				}
				afterTrip.set(payments.state());
			}
		});

		sync.override(payments, State.FORCED_OPEN, false);

		assertThat(afterTrip.get()).as("tripped by its own calls after the later reset").isEqualTo(State.OPEN);
		assertThat(payments.state()).as("the trip after the latest decision stands").isEqualTo(State.OPEN);
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
	 * Publishes a peer's reset of "ledger" and waits until this replica applied it: what
	 * was published before it was handled here too. "ledger" is a breaker of this
	 * replica's: the mirror entry of a breaker it does not have is dropped at the next
	 * sweep (every second) once it holds nothing, as after a reset, and a poll after that
	 * would never see the reset applied.
	 */
	private void markHandled(FleetSync sync) {
		replica.registry.breaker("ledger");
		replica.peerOverride("ledger", State.CLOSED);
		await().atMost(Duration.ofSeconds(10)).until(() -> sync.view("ledger").replica().equals("checkout-2"));
	}

	private static void awaitQuietly(CountDownLatch latch) {
		try {
			latch.await(20, TimeUnit.SECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	/** Runs {@code task} on a thread of its own and waits (bounded) until it ended. */
	private static void runAndWait(Runnable task, String name) {
		Thread thread = new Thread(task, name);
		thread.start();
		try {
			thread.join(10_000);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
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
