package dev.breaker.core;

import static dev.breaker.core.Fixture.fail;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Transition listeners: after publish, on the causing thread, before the call returns,
 * never breaking it.
 */
class ListenersTests {

	private final Fixture fixture = new Fixture();

	@Test
	void aListenerSeesTheNewStateAlreadyPublished() {
		Breaker breaker = fixture.breaker(c -> c.consecutiveFailures(1));
		List<State> seen = new ArrayList<>();
		breaker.onTransition(t -> seen.add(breaker.state()));
		fail(breaker, 1);
		assertThat(seen).containsExactly(State.OPEN);
	}

	@Test
	void aListenerRunsOnTheCausingThreadBeforeTheCallReturns() {
		Breaker breaker = fixture.breaker(c -> c.consecutiveFailures(1));
		List<Thread> threads = new ArrayList<>();
		breaker.onTransition(t -> threads.add(Thread.currentThread()));
		fail(breaker, 1);
		assertThat(threads).containsExactly(Thread.currentThread());
	}

	@Test
	void aThrowingListenerNeitherBreaksTheCallNorSilencesTheOthers() throws Exception {
		Breaker breaker = fixture.breaker(c -> c.consecutiveFailures(1));
		List<Transition> after = new ArrayList<>();
		breaker.onTransition(t -> {
			throw new IllegalStateException("listener bug");
		});
		breaker.onTransition(after::add);
		Permit p = breaker.acquire();
		breaker.release(p, Outcome.FAILURE, 0);
		assertThat(breaker.state()).isEqualTo(State.OPEN);
		assertThat(after).hasSize(1);
	}

	@Test
	void aListenerMayCallBackIntoTheBreaker() {
		Breaker breaker = fixture.breaker(c -> c.consecutiveFailures(1));
		List<Snapshot> snapshots = new ArrayList<>();
		breaker.onTransition(t -> snapshots.add(breaker.snapshot()));
		fail(breaker, 1);
		assertThat(snapshots).singleElement().extracting(Snapshot::state).isEqualTo(State.OPEN);
	}

	@Test
	void aTransitionCarriesBreakerStatesTimeReasonAndGeneration() {
		Breaker breaker = fixture.breaker(c -> c.consecutiveFailures(1));
		fixture.advance(java.time.Duration.ofSeconds(7));
		fail(breaker, 1);
		assertThat(fixture.transitions).containsExactly(new Transition("payments", State.CLOSED, State.OPEN,
				Fixture.EPOCH.plusSeconds(7), "consecutive failures 1 >= 1", 1, false));
	}

	@Test
	void afterAVirtualMachineErrorTheNextTransitionIsDeliveredAlone() {
		Breaker breaker = fixture.breaker(c -> c.consecutiveFailures(1));
		List<State> delivered = new ArrayList<>();
		boolean[] thrown = { false };
		breaker.onTransition(t -> {
			delivered.add(t.to());
			if (!thrown[0]) {
				thrown[0] = true;
				breaker.forceOpen(); // queued behind this delivery, then dropped with it
				throw new OutOfMemoryError("simulated");
			}
		});
		org.assertj.core.api.Assertions.assertThatThrownBy(() -> fail(breaker, 1)).isInstanceOf(OutOfMemoryError.class);
		breaker.disable();
		assertThat(delivered).containsExactly(State.OPEN, State.DISABLED);
	}

}
