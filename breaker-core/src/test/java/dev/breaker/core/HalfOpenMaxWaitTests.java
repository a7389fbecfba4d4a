package dev.breaker.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Max-wait bounds a probe without a verdict, timed from the oldest probe in flight. */
class HalfOpenMaxWaitTests {

	private final Fixture fixture = new Fixture();

	private Breaker halfOpen(int successesToClose, Duration maxWait) {
		Breaker breaker = fixture.breaker(c -> c.consecutiveFailures(1)
			.openWait(Duration.ofSeconds(30))
			.halfOpenSuccessesToClose(successesToClose)
			.halfOpenMaxWait(maxWait));
		Fixture.fail(breaker, 1);
		fixture.advance(Duration.ofSeconds(30));
		assertThat(breaker.state()).isEqualTo(State.HALF_OPEN);
		return breaker;
	}

	/**
	 * Half-open with one success to close and a max wait of 1 minute: one probe asked,
	 * then {@code later} passes and it succeeds.
	 */
	private Breaker probeSucceedingAfter(Duration later) {
		Breaker breaker = halfOpen(1, Duration.ofMinutes(1));
		Permit probe = breaker.acquire();
		fixture.advance(later);
		breaker.release(probe, Outcome.SUCCESS, later.toNanos());
		return breaker;
	}

	@Test
	void aLowTrafficBreakerClosesWithOneQuickProbeEveryThreeSeconds() {
		Breaker breaker = halfOpen(3, Duration.ofSeconds(5));
		for (int i = 0; i < 3; i++) {
			Fixture.succeed(breaker, 1);
			fixture.advance(Duration.ofSeconds(3));
		}
		assertThat(breaker.state()).isEqualTo(State.CLOSED);
		assertThat(fixture.transitions).extracting(Transition::to)
			.containsExactly(State.OPEN, State.HALF_OPEN, State.CLOSED);
	}

	@Test
	void withNoProbeInFlightHalfOpenWaitsForTrafficHoweverLong() {
		Breaker breaker = halfOpen(3, Duration.ofSeconds(5));
		fixture.advance(Duration.ofHours(2));
		assertThat(breaker.state()).isEqualTo(State.HALF_OPEN);
		assertThat(breaker.acquire().probe()).isTrue();
	}

	@Test
	void aProbeReleasedLongAfterTheMaxWaitReopensWhetherOrNotTheStateWasRead() {
		Breaker unread = probeSucceedingAfter(Duration.ofMinutes(10));

		Fixture other = new Fixture();
		Breaker read = Breaker.of("read",
				other.config()
					.consecutiveFailures(1)
					.halfOpenSuccessesToClose(1)
					.halfOpenMaxWait(Duration.ofMinutes(1))
					.build());
		Fixture.fail(read, 1);
		other.advance(Duration.ofSeconds(30));
		Permit lateRead = read.acquire();
		other.advance(Duration.ofMinutes(10));
		assertThat(read.state()).isEqualTo(State.OPEN); // someone looked
		read.release(lateRead, Outcome.SUCCESS, Duration.ofMinutes(10).toNanos());

		assertThat(unread.currentState()).isEqualTo(read.currentState()).isEqualTo(State.OPEN);
		assertThat(fixture.transitions).last().extracting(Transition::reason).isEqualTo("no probe verdict within 1m");
	}

	@Test
	void theMaxWaitRunsFromTheOldestProbeStillInFlight() {
		Breaker breaker = halfOpen(100, Duration.ofSeconds(60));
		Fixture.succeed(breaker, 1); // the ramp allows two probes now
		Permit first = breaker.acquire();
		fixture.advance(Duration.ofSeconds(40));
		Permit second = breaker.acquire();
		assertThat(second.granted()).isTrue();
		fixture.advance(Duration.ofSeconds(10));
		breaker.release(first, Outcome.SUCCESS, Duration.ofSeconds(50).toNanos());
		// 95s since HALF_OPEN, 55s since the oldest probe in flight
		fixture.advance(Duration.ofSeconds(45));
		assertThat(breaker.state()).isEqualTo(State.HALF_OPEN);
		fixture.advance(Duration.ofSeconds(5));
		assertThat(breaker.state()).isEqualTo(State.OPEN);
		assertThat(fixture.transitions).last().extracting(Transition::reason).isEqualTo("no probe verdict within 1m");
	}

	@Test
	void aProbeWithinTheMaxWaitGivesItsVerdict() {
		Breaker breaker = probeSucceedingAfter(Duration.ofSeconds(59));
		assertThat(breaker.state()).isEqualTo(State.CLOSED);
	}

}
