package dev.breaker.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Overrides asked from inside a transition listener. */
class OverridesFromAListenerTests {

	private final Fixture fixture = new Fixture();

	/**
	 * docs/engine.md: "halfOpen() always starts a fresh episode (the probes in flight
	 * stop counting)". A listener told of the breaker entering HALF_OPEN asks halfOpen()
	 * after a probe was taken (here by the listener itself, standing for another thread
	 * between the publish and the listener).
	 */
	@Test
	void aListenersHalfOpenOfTheStateItIsToldAboutStartsAFreshEpisode() {
		Breaker breaker = fixture.breaker(c -> c.halfOpenSuccessesToClose(1));
		Permit[] taken = new Permit[1];
		breaker.onTransition(t -> {
			if (t.to() == State.HALF_OPEN && taken[0] == null) {
				taken[0] = breaker.acquire();
				breaker.halfOpen();
			}
		});
		breaker.halfOpen();
		assertThat(taken[0].granted()).isTrue();
		assertThat(breaker.snapshot().probes().inFlight()).as("probes in flight after the listener's halfOpen()")
			.isZero();
	}

	/**
	 * docs/engine.md: "A reset always empties the window and makes the calls in flight
	 * stop counting, whoever asks": also a listener's, of the CLOSED it is told about.
	 */
	@Test
	void aListenersResetOfTheClosedItIsToldAboutMakesTheCallsInFlightStopCounting() {
		Breaker breaker = fixture.breaker(c -> c.consecutiveFailures(1));
		Permit[] taken = new Permit[1];
		breaker.onTransition(t -> {
			if (t.to() == State.CLOSED && taken[0] == null) {
				taken[0] = breaker.acquire();
				breaker.reset();
			}
		});
		Fixture.succeed(breaker, 1);
		breaker.reset(); // CLOSED -> CLOSED, told
		assertThat(taken[0].granted()).isTrue();
		breaker.release(taken[0], Outcome.FAILURE, 0);
		assertThat(breaker.state()).as("after a failure of a call from before the listener's reset")
			.isEqualTo(State.CLOSED);
		assertThat(fixture.transitions).hasSize(1);
	}

	/**
	 * Thread-local delivery state after a listener that throws, nested deliveries, a
	 * third breaker.
	 */
	@Test
	void anOperatorsResetAfterADeliveryWhoseListenerThrewIsStillTold() {
		Breaker a = Breaker.of("a", fixture.config().consecutiveFailures(1).build());
		Breaker b = Breaker.of("b", fixture.config().build());
		Breaker c = Breaker.of("c", fixture.config().build());
		List<String> seen = new ArrayList<>();
		a.onTransition(t -> {
			b.reset();
			c.reset();
			throw new IllegalStateException("listener bug");
		});
		b.onTransition(t -> seen.add("b " + t.from() + "->" + t.to()));
		c.onTransition(t -> seen.add("c " + t.from() + "->" + t.to()));
		Fixture.succeed(b, 1);
		Fixture.succeed(c, 1);
		Fixture.fail(a, 1); // a trips; its listener resets b and c, then throws
		assertThat(seen).containsExactly("b CLOSED->CLOSED", "c CLOSED->CLOSED");
		Fixture.succeed(b, 1);
		b.reset(); // an operator, outside any listener, after a call finished
		Fixture.succeed(c, 1);
		c.halfOpen();
		assertThat(seen).containsExactly("b CLOSED->CLOSED", "c CLOSED->CLOSED", "b CLOSED->CLOSED",
				"c CLOSED->HALF_OPEN");
	}

}
