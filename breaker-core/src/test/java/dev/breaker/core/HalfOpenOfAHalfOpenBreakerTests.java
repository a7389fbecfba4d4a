package dev.breaker.core;

import static org.assertj.core.api.Assertions.assertThat;

import dev.breaker.core.spi.SharedStateHooks;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code halfOpen()} of a breaker that is HALF_OPEN already, by the rule reset() follows
 * for a CLOSED one: it always starts a fresh episode (probes in flight stop counting),
 * and it is told to nobody when no call finished since an operator's halfOpen() began the
 * episode and either that one found it HALF_OPEN already or this one is asked from inside
 * a transition listener; so listeners calling halfOpen() on each other's breaker end, on
 * any thread.
 */
class HalfOpenOfAHalfOpenBreakerTests {

	private static final int TURNS = 10_000;

	private final Fixture fixture = new Fixture();

	@Test
	void twoListenersCallingHalfOpenOnEachOthersBreakerEnd() {
		Breaker payments = Breaker.of("payments", fixture.config().build());
		Breaker shipping = Breaker.of("shipping", fixture.config().build());
		List<String> seen = new ArrayList<>();
		payments.onTransition(t -> {
			seen.add(t.breaker() + " " + t.from() + "->" + t.to());
			if (seen.size() < TURNS) {
				shipping.halfOpen();
			}
		});
		shipping.onTransition(t -> {
			seen.add(t.breaker() + " " + t.from() + "->" + t.to());
			if (seen.size() < TURNS) {
				payments.halfOpen();
			}
		});
		payments.halfOpen();

		assertThat(seen).containsExactly("payments CLOSED->HALF_OPEN", "shipping CLOSED->HALF_OPEN");
		assertThat(payments.state()).isEqualTo(State.HALF_OPEN);
		assertThat(shipping.state()).isEqualTo(State.HALF_OPEN);
	}

	@Test
	void twoListenersCallingHalfOpenOnEachOthersBreakerThroughAnotherThreadEnd() throws Exception {
		Breaker payments = Breaker.of("payments", fixture.config().build());
		Breaker shipping = Breaker.of("shipping", fixture.config().build());
		HandOff handedOff = new HandOff();
		payments.onTransition(t -> handedOff.add(shipping::halfOpen));
		shipping.onTransition(t -> handedOff.add(payments::halfOpen));
		payments.halfOpen();
		int ran = handedOff.runOnAnotherThread(TURNS);

		assertThat(ran).as("halfOpen() calls handed to the other thread before they ended").isLessThan(TURNS);
		assertThat(payments.state()).isEqualTo(State.HALF_OPEN);
		assertThat(shipping.state()).isEqualTo(State.HALF_OPEN);
	}

	@Test
	void aHalfOpenRepeatedOnAnUntouchedHalfOpenBreakerIsToldOnce() {
		Breaker breaker = fixture.breaker(c -> c);
		breaker.halfOpen();
		breaker.halfOpen();
		breaker.halfOpen();

		assertThat(fixture.transitions).extracting(t -> t.from() + "->" + t.to())
			.containsExactly("CLOSED->HALF_OPEN", "HALF_OPEN->HALF_OPEN");
	}

	@Test
	void aHalfOpenAfterAProbeFinishedIsATransitionAndStartsAFreshEpisode() {
		Breaker breaker = fixture.breaker(c -> c.halfOpenSuccessesToClose(5));
		breaker.halfOpen();
		breaker.halfOpen();
		Fixture.succeed(breaker, 1);
		breaker.halfOpen();

		assertThat(fixture.transitions).hasSize(3);
		assertThat(breaker.snapshot().probes().successes()).isZero();
	}

	@Test
	void aHalfOpenToldToNobodyStillStartsAFreshEpisode() {
		Breaker breaker = fixture.breaker(c -> c.halfOpenSuccessesToClose(1));
		breaker.halfOpen();
		breaker.halfOpen();
		Permit inFlight = breaker.acquire();
		assertThat(breaker.acquire().granted()).as("a second probe while the ramp allows one").isFalse();
		breaker.halfOpen();

		Permit fresh = breaker.acquire();
		assertThat(fresh.granted()).as("a probe of the fresh episode").isTrue();
		breaker.release(inFlight, Outcome.SUCCESS, 0);
		assertThat(breaker.state()).as("after the earlier episode's probe succeeded").isEqualTo(State.HALF_OPEN);
		assertThat(fixture.transitions).hasSize(2);
		breaker.release(fresh, Outcome.SUCCESS, 0);
		assertThat(breaker.state()).isEqualTo(State.CLOSED);
	}

	@Test
	void aHalfOpenToldToNobodyKeepsTheFleetsProbeShare() {
		Breaker breaker = fixture.breaker(c -> c);
		breaker.halfOpen();
		breaker.halfOpen();
		SharedStateHooks.limitProbes(breaker, 0);
		breaker.halfOpen();

		assertThat(breaker.acquire().granted()).as("a probe beyond this replica's share of none").isFalse();
		assertThat(fixture.transitions).hasSize(2);
	}

	/**
	 * As under steady traffic: a call of the other breaker finishes between each turn
	 * (here made by the listener itself, deterministically). Each breaker is told at most
	 * once per delivery on a thread, whatever finishes meanwhile.
	 */
	@Test
	void twoListenersCallingHalfOpenOnEachOthersBreakerEndWhileProbesFinishBetweenTurns() {
		Breaker payments = Breaker.of("payments", fixture.config().halfOpenSuccessesToClose(1_000_000).build());
		Breaker shipping = Breaker.of("shipping", fixture.config().halfOpenSuccessesToClose(1_000_000).build());
		List<String> seen = new ArrayList<>();
		payments.onTransition(t -> {
			seen.add(t.breaker() + " " + t.from() + "->" + t.to());
			if (seen.size() < TURNS) {
				Fixture.succeed(shipping, 1);
				shipping.halfOpen();
			}
		});
		shipping.onTransition(t -> {
			seen.add(t.breaker() + " " + t.from() + "->" + t.to());
			if (seen.size() < TURNS) {
				Fixture.succeed(payments, 1);
				payments.halfOpen();
			}
		});
		payments.halfOpen();

		assertThat(seen).containsExactly("payments CLOSED->HALF_OPEN", "shipping CLOSED->HALF_OPEN");
		assertThat(payments.snapshot().probes().successes()).as("the fresh episode the last halfOpen() began").isZero();
	}

}
