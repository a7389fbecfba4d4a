package dev.breaker.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import dev.breaker.core.Breaker;
import dev.breaker.core.State;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Transition listeners may call {@link FleetSync#override} themselves, for instance to
 * keep two breakers in step. An operator's override runs such a listener on the
 * operator's thread while a peer's override runs the other one on the fleet's sync
 * thread: nothing the fleet holds while a breaker runs its listeners may make one wait
 * for the other (a per-breaker lock held there deadlocked the two, and fleet mode stopped
 * on that replica for good). A real Redis; the two listeners meet at a barrier, so both
 * are inside at once.
 */
class OverrideListenersTests {

	private final OneReplica replica = new OneReplica();

	@AfterEach
	void close() {
		replica.close();
	}

	@Test
	void twoListenersKeepingBreakersInStepThroughTheFleetDoNotDeadlockTheOperatorAgainstTheSyncThread()
			throws Exception {
		FleetSync sync = replica.sync;
		sync.start();
		assertThat(sync.awaitFirstSync(Duration.ofSeconds(10))).isTrue();
		Breaker payments = replica.registry.breaker("payments");
		Breaker ledger = replica.registry.breaker("ledger");
		CyclicBarrier bothInside = new CyclicBarrier(2);
		AtomicReference<Throwable> failed = new AtomicReference<>();
		keepInStep(sync, payments, ledger, bothInside, failed);
		keepInStep(sync, ledger, payments, bothInside, failed);

		Thread operator = new Thread(() -> sync.override(payments, State.FORCED_OPEN, true), "operator");
		operator.start();
		// a peer's operator forces the other one open at the same moment
		String forced = new FleetMessage(FleetMessage.Kind.OVERRIDE, "ledger", "", 0, State.FORCED_OPEN, "checkout-2",
				System.currentTimeMillis(), "operator: FORCED_OPEN on every replica", "")
			.encode();
		replica.admin.publish(replica.settings.channel(), forced);

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
		for (String name : new String[] { "payments", "ledger" }) {
			replica.admin.publish(replica.settings.channel(),
					new FleetMessage(FleetMessage.Kind.OVERRIDE, name, "", 0, State.CLOSED, "checkout-2",
							System.currentTimeMillis(), "operator: CLOSED on every replica", "")
						.encode());
		}
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
