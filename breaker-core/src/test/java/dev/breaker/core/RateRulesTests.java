package dev.breaker.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The rate rules are checked after every call that counts, success or failure. */
class RateRulesTests {

	private final Fixture fixture = new Fixture();

	private Breaker rateOnly(int minimumCalls) {
		return fixture.breaker(c -> c.consecutiveFailures(0).failureRateThreshold(50).minimumCalls(minimumCalls));
	}

	@Test
	void aSuccessThatBringsTheWindowToMinimumCallsTripsWhenTheRateHolds() {
		Breaker breaker = rateOnly(2);
		Fixture.fail(breaker, 1);
		Fixture.succeed(breaker, 1);
		assertThat(breaker.state()).isEqualTo(State.OPEN);
		assertThat(fixture.transitions).singleElement()
			.extracting(Transition::reason)
			.isEqualTo("failure rate 50% >= 50% over 2 calls");
	}

	@Test
	void aSuccessTripsWhenOldSuccessesHaveLeftTheWindow() {
		Breaker breaker = rateOnly(2);
		Fixture.succeed(breaker, 2);
		fixture.advance(Duration.ofSeconds(1));
		Fixture.fail(breaker, 1); // 1 of 3: 33%
		assertThat(breaker.state()).isEqualTo(State.CLOSED);
		fixture.advance(Duration.ofSeconds(9)); // the two successes leave the window
		Fixture.succeed(breaker, 1); // 1 of 2: 50%
		assertThat(breaker.state()).isEqualTo(State.OPEN);
	}

	@Test
	void aSlowSuccessTripsTheSlowCallRateToo() {
		Breaker breaker = fixture.slowCallRateOnly((c) -> c.minimumCalls(2));
		Fixture.timed(breaker, Outcome.SUCCESS, Duration.ofSeconds(2).toNanos());
		Fixture.succeed(breaker, 1);
		assertThat(breaker.state()).isEqualTo(State.OPEN);
		assertThat(fixture.transitions).singleElement()
			.extracting(Transition::reason)
			.isEqualTo("slow-call rate 50% >= 50% over 2 calls");
	}

	@Test
	void aConditionReachedByManySuccessesInOneTickIsSeenOneTickLaterEvenIfTheNextCallLowersTheRate() {
		Breaker breaker = rateOnly(4);
		Permit later = breaker.acquire();
		Fixture.succeed(breaker, 1); // 1 call
		Fixture.fail(breaker, 2); // 3 calls, 67%, below the minimum
		Fixture.succeed(breaker, 1); // 4 calls, 50%: the rule holds now
		fixture.advance(Duration.ofNanos(1));
		// would make it 40%: the held condition still trips
		breaker.release(later, Outcome.SUCCESS, 0);
		assertThat(breaker.state()).isEqualTo(State.OPEN);
		assertThat(fixture.transitions).singleElement()
			.extracting(Transition::reason)
			.isEqualTo("failure rate 50% >= 50% over 4 calls");
	}

	@Test
	void aConditionHeldAfterACallIsSeenByTheNextAcquireOneTickLater() {
		Breaker breaker = rateOnly(4);
		Fixture.succeed(breaker, 1);
		Fixture.fail(breaker, 2);
		Fixture.succeed(breaker, 1);
		fixture.advance(Duration.ofNanos(1));
		assertThat(breaker.acquire().granted()).isFalse();
		assertThat(breaker.currentState()).isEqualTo(State.OPEN);
	}

	@Test
	void aConditionHeldAfterACallIsSeenByTheNextStateReadOneTickLater() {
		Breaker breaker = rateOnly(4);
		Fixture.succeed(breaker, 1);
		Fixture.fail(breaker, 2);
		Fixture.succeed(breaker, 1);
		fixture.advance(Duration.ofNanos(1));
		assertThat(breaker.state()).isEqualTo(State.OPEN);
	}

	@Test
	void successesBelowTheThresholdNeverTrip() {
		Breaker breaker = rateOnly(4);
		for (int i = 0; i < 50; i++) {
			Fixture.succeed(breaker, 2);
			Fixture.fail(breaker, 1);
			fixture.advance(Duration.ofMillis(7));
		}
		assertThat(breaker.state()).isEqualTo(State.CLOSED);
	}

}
