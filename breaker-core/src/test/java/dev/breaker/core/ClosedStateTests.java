package dev.breaker.core;

import static dev.breaker.core.Fixture.fail;
import static dev.breaker.core.Fixture.record;
import static dev.breaker.core.Fixture.succeed;
import static dev.breaker.core.Fixture.timed;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** CLOSED -> OPEN: one test per trip rule, and what must not trip. */
class ClosedStateTests {

	private final Fixture fixture = new Fixture();

	@Test
	void opensAfterFiveConsecutiveFailures() {
		Breaker breaker = fixture.breaker(c -> c.failureRateThreshold(0));
		fail(breaker, 4);
		assertThat(breaker.state()).isEqualTo(State.CLOSED);
		fail(breaker, 1);
		assertThat(breaker.state()).isEqualTo(State.OPEN);
		assertThat(fixture.transitions).singleElement().satisfies(t -> {
			assertThat(t.from()).isEqualTo(State.CLOSED);
			assertThat(t.to()).isEqualTo(State.OPEN);
			assertThat(t.reason()).isEqualTo("consecutive failures 5 >= 5");
			assertThat(t.remote()).isFalse();
		});
	}

	@Test
	void aSuccessBreaksTheRunOfConsecutiveFailures() {
		Breaker breaker = fixture.breaker(c -> c.failureRateThreshold(0));
		fail(breaker, 4);
		succeed(breaker, 1);
		fail(breaker, 4);
		assertThat(breaker.state()).isEqualTo(State.CLOSED);
		assertThat(breaker.snapshot().consecutiveFailures()).isEqualTo(4);
	}

	@Test
	void timeoutsCountAsConsecutiveFailures() {
		Breaker breaker = fixture.breaker(c -> c.failureRateThreshold(0).consecutiveFailures(3));
		record(breaker, Outcome.TIMEOUT, 3);
		assertThat(breaker.state()).isEqualTo(State.OPEN);
	}

	@Test
	void ignoredAndThrottledCallsNeverTrip() {
		Breaker breaker = fixture.breaker(c -> c.consecutiveFailures(1).minimumCalls(1));
		record(breaker, Outcome.IGNORED, 100);
		record(breaker, Outcome.THROTTLED, 100);
		assertThat(breaker.state()).isEqualTo(State.CLOSED);
		assertThat(breaker.snapshot().calls()).isZero();
		assertThat(breaker.snapshot().ignored()).isEqualTo(100);
		assertThat(breaker.snapshot().throttled()).isEqualTo(100);
	}

	@Test
	void consecutiveRuleOffWhenZero() {
		Breaker breaker = fixture.breaker(c -> c.consecutiveFailures(0).failureRateThreshold(0));
		fail(breaker, 1000);
		assertThat(breaker.state()).isEqualTo(State.CLOSED);
	}

	@Test
	void opensWhenFailureRateReachesThresholdWithMinimumCalls() {
		Breaker breaker = fixture.breaker(c -> c.consecutiveFailures(0).failureRateThreshold(50).minimumCalls(20));
		for (int i = 0; i < 9; i++) {
			succeed(breaker, 1);
			fail(breaker, 1);
		}
		succeed(breaker, 1);
		assertThat(breaker.state()).isEqualTo(State.CLOSED); // 9 of 19: below the minimum
		fail(breaker, 1);
		assertThat(breaker.state()).isEqualTo(State.OPEN);
		assertThat(fixture.transitions.get(0).reason()).isEqualTo("failure rate 50% >= 50% over 20 calls");
	}

	@Test
	void failureRateBelowThresholdDoesNotTrip() {
		Breaker breaker = fixture.breaker(c -> c.consecutiveFailures(0).failureRateThreshold(50).minimumCalls(10));
		for (int i = 0; i < 100; i++) {
			succeed(breaker, 2);
			fail(breaker, 1);
		}
		assertThat(breaker.state()).isEqualTo(State.CLOSED);
		assertThat(breaker.snapshot().failureRate()).isCloseTo(33.3, org.assertj.core.data.Offset.offset(0.1));
	}

	@Test
	void timeoutsCountTheirWeightTowardTheFailureRate() {
		Breaker breaker = fixture
			.breaker(c -> c.consecutiveFailures(0).failureRateThreshold(60).minimumCalls(4).timeoutWeight(2));
		succeed(breaker, 2);
		record(breaker, Outcome.TIMEOUT, 1);
		// (0 + 2*1) / (2 + 2) = 50%
		assertThat(breaker.state()).isEqualTo(State.CLOSED);
		record(breaker, Outcome.TIMEOUT, 1);
		// 4 / (2 + 4) = 66.7%
		assertThat(breaker.state()).isEqualTo(State.OPEN);
		assertThat(fixture.transitions.get(0).reason()).isEqualTo("failure rate 66.7% >= 60% over 4 calls");
	}

	@Test
	void timeoutsOfWeightZeroNeverTrip() {
		Breaker breaker = fixture.breaker(c -> c.consecutiveFailures(3).minimumCalls(1).timeoutWeight(0));
		record(breaker, Outcome.TIMEOUT, 50);
		assertThat(breaker.state()).isEqualTo(State.CLOSED);
	}

	@Test
	void failuresOlderThanTheWindowNoLongerCount() {
		Breaker breaker = fixture.breaker(c -> c.consecutiveFailures(0).failureRateThreshold(50).minimumCalls(10));
		fail(breaker, 9);
		fixture.advance(Duration.ofSeconds(10));
		succeed(breaker, 9);
		fail(breaker, 1);
		assertThat(breaker.state()).isEqualTo(State.CLOSED);
		assertThat(breaker.snapshot().failures()).isEqualTo(1);
	}

	@Test
	void slowCallRateBelowThresholdDoesNotTrip() {
		Breaker breaker = fixture
			.breaker(c -> c.slowCallRateThreshold(80).minimumCalls(10).slowCallDuration(Duration.ofSeconds(2)));
		long slow = Duration.ofMillis(2001).toNanos();
		for (int i = 0; i < 7; i++) {
			timed(breaker, Outcome.SUCCESS, slow);
		}
		record(breaker, Outcome.SUCCESS, 3);
		assertThat(breaker.state()).isEqualTo(State.CLOSED);
		assertThat(breaker.snapshot().slowCallRate()).isEqualTo(70.0);
	}

	@Test
	void slowCallRateTripsAtThreshold() {
		Breaker breaker = fixture
			.breaker(c -> c.slowCallRateThreshold(80).minimumCalls(10).slowCallDuration(Duration.ofSeconds(2)));
		long slow = Duration.ofMillis(2001).toNanos();
		record(breaker, Outcome.SUCCESS, 2);
		for (int i = 0; i < 8; i++) {
			timed(breaker, Outcome.SUCCESS, slow);
		}
		assertThat(breaker.state()).isEqualTo(State.OPEN);
		assertThat(fixture.transitions.get(0).reason()).isEqualTo("slow-call rate 80% >= 80% over 10 calls");
	}

	@Test
	void aCallOfExactlySlowCallDurationIsNotSlow() {
		Breaker breaker = fixture
			.breaker(c -> c.slowCallRateThreshold(1).minimumCalls(1).slowCallDuration(Duration.ofSeconds(2)));
		timed(breaker, Outcome.SUCCESS, Duration.ofSeconds(2).toNanos());
		assertThat(breaker.state()).isEqualTo(State.CLOSED);
		assertThat(breaker.totals().slowCalls()).isZero();
	}

	@Test
	void opensWhileCallsAreStillHangingWhenTheStallRuleIsOn() {
		Breaker breaker = fixture.breaker(c -> c.stallCalls(3).slowCallDuration(Duration.ofSeconds(2)));
		for (int i = 0; i < 3; i++) {
			// never released: the dependency is wedged
			assertThat(breaker.acquire().granted()).isTrue();
		}
		fixture.advance(Duration.ofMillis(2500));
		breaker.acquire();
		// started in a bucket not yet 2s old
		assertThat(breaker.currentState()).isEqualTo(State.CLOSED);
		fixture.advance(Duration.ofMillis(600));
		Permit rejectedOrNot = breaker.acquire();
		assertThat(breaker.currentState()).isEqualTo(State.OPEN);
		assertThat(fixture.transitions.get(0).reason()).isEqualTo("stall: 3 calls in flight longer than 2s");
		// the call that noticed the stall was already let in
		assertThat(rejectedOrNot.granted()).isTrue();
	}

	@Test
	void finishedCallsDoNotCountAsStalled() {
		Breaker breaker = fixture.breaker(c -> c.stallCalls(2).slowCallDuration(Duration.ofSeconds(1)));
		for (int i = 0; i < 10; i++) {
			Permit p = breaker.acquire();
			fixture.advance(Duration.ofMillis(1500));
			breaker.release(p, Outcome.SUCCESS, Duration.ofMillis(1500).toNanos());
		}
		assertThat(breaker.state()).isEqualTo(State.CLOSED);
		assertThat(breaker.snapshot().inFlight()).isZero();
	}

}
