package dev.breaker.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A reset of a breaker that is CLOSED already: it empties the window whoever asks
 * (Breaker#reset's contract), and a reset repeated with nothing recorded in between is no
 * transition, so listeners resetting each other's breaker end on any thread.
 */
class ResetOfAClosedBreakerTests {

	private final Fixture fixture = new Fixture();

	@Test
	void aListenerResettingAnotherClosedBreakerEmptiesItsWindow() {
		Breaker payments = Breaker.of("payments", fixture.config().consecutiveFailures(1).build());
		Breaker shipping = Breaker.of("shipping", fixture.config().consecutiveFailures(3).build());
		payments.onTransition(t -> {
			if (t.to() == State.OPEN) {
				shipping.reset();
			}
		});
		Fixture.fail(shipping, 2);
		Fixture.fail(payments, 1);

		assertThat(payments.state()).isEqualTo(State.OPEN);
		assertThat(shipping.snapshot().calls()).as("calls in shipping's window after its reset").isZero();
		Fixture.fail(shipping, 2);
		assertThat(shipping.state()).as("shipping after two failures since its reset").isEqualTo(State.CLOSED);
	}

	@Test
	void twoListenersResettingEachOthersBreakerThroughAnotherThreadEnd() throws Exception {
		Breaker payments = Breaker.of("payments", fixture.config().consecutiveFailures(1).build());
		Breaker shipping = Breaker.of("shipping", fixture.config().consecutiveFailures(1).build());
		HandOff handedOff = new HandOff();
		payments.onTransition(t -> handedOff.add(shipping::reset));
		shipping.onTransition(t -> handedOff.add(payments::reset));
		Fixture.fail(payments, 1);
		int ran = handedOff.runOnAnotherThread(10_000);

		assertThat(ran).as("resets handed to the other thread before they ended").isLessThan(10_000);
		assertThat(payments.state()).isEqualTo(State.CLOSED);
		assertThat(shipping.state()).isEqualTo(State.CLOSED);
	}

	@Test
	void aSecondResetInARowOfAClosedBreakerIsNoTransition() {
		Breaker breaker = fixture.breaker(c -> c.consecutiveFailures(3));
		breaker.reset();
		breaker.reset();
		breaker.reset();

		assertThat(fixture.transitions).singleElement()
			.satisfies(t -> assertThat(t.from() + "->" + t.to()).isEqualTo("CLOSED->CLOSED"));
	}

	@Test
	void aResetAfterACallWasRecordedIsATransitionAndEmptiesTheWindow() {
		Breaker breaker = fixture.breaker(c -> c.consecutiveFailures(3));
		breaker.reset();
		Fixture.fail(breaker, 2);
		breaker.reset();
		Fixture.fail(breaker, 2);

		assertThat(fixture.transitions).hasSize(2);
		assertThat(breaker.state()).isEqualTo(State.CLOSED);
		assertThat(breaker.snapshot().failures()).isEqualTo(2);
	}

	@Test
	void aResetOfABreakerThatAResetClosedFromOpenIsATransition() {
		Breaker breaker = fixture.breaker(c -> c.consecutiveFailures(1));
		Fixture.fail(breaker, 1);
		breaker.reset();
		breaker.reset();

		assertThat(fixture.transitions).extracting(t -> t.from() + "->" + t.to())
			.containsExactly("CLOSED->OPEN", "OPEN->CLOSED", "CLOSED->CLOSED");
	}

	/**
	 * As under steady traffic: a call of the other breaker finishes between each turn
	 * (made by the listener itself here, deterministically). A reset asked inside a
	 * listener of a breaker whose CLOSED state was entered and told in the same delivery
	 * is told to nobody, so the loop ends after one turn whatever finishes meanwhile, and
	 * that reset still empties the window.
	 */
	@Test
	void twoListenersResettingEachOthersBreakerEndWhileCallsFinishBetweenTurns() {
		Breaker payments = Breaker.of("payments", fixture.config().consecutiveFailures(0).build());
		Breaker shipping = Breaker.of("shipping", fixture.config().consecutiveFailures(0).build());
		List<String> seen = new ArrayList<>();
		payments.onTransition(t -> {
			seen.add(t.breaker() + " " + t.from() + "->" + t.to());
			if (seen.size() < 10_000) {
				Fixture.succeed(shipping, 1);
				shipping.reset();
			}
		});
		shipping.onTransition(t -> {
			seen.add(t.breaker() + " " + t.from() + "->" + t.to());
			if (seen.size() < 10_000) {
				Fixture.succeed(payments, 1);
				payments.reset();
			}
		});
		Fixture.succeed(payments, 1);
		payments.reset();

		assertThat(seen).containsExactly("payments CLOSED->CLOSED", "shipping CLOSED->CLOSED");
		assertThat(payments.snapshot().calls()).as("calls in payments' window after the reset told to nobody").isZero();
	}

}
