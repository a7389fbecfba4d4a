package dev.breaker.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The stall rule counts exactly the current CLOSED state's calls in flight too long. */
class StallRuleTests {

	private final Fixture fixture = new Fixture();

	private Breaker stallBreaker() {
		return fixture.breaker(c -> c.stallCalls(1)
			.slowCallDuration(Duration.ofSeconds(2))
			.consecutiveFailures(0)
			.failureRateThreshold(0));
	}

	@Test
	void aCallFinishedJustAfterABucketBoundaryNeverCountsAsStalled() {
		Breaker breaker = stallBreaker();
		fixture.ticker.set(999_999_000L);
		Permit p = breaker.acquire();
		fixture.advance(Duration.ofNanos(2_000));
		// the caller's own timing started a microsecond after acquire
		breaker.release(p, Outcome.SUCCESS, 1_000);
		assertThat(breaker.snapshot().inFlight()).isZero();
		fixture.ticker.set(3_000_000_000L);
		breaker.acquire();
		assertThat(breaker.state()).isEqualTo(State.CLOSED);
		assertThat(fixture.transitions).isEmpty();
	}

	@Test
	void aCallTimedWithTheBreakersOwnTickerNeverCountsAsStalled() throws Exception {
		Breaker breaker = stallBreaker();
		fixture.ticker.set(999_999_500L);
		breaker.call(() -> {
			fixture.advance(Duration.ofNanos(1_000));
			return "fast";
		});
		fixture.ticker.set(3_000_000_000L);
		breaker.acquire();
		assertThat(breaker.state()).isEqualTo(State.CLOSED);
	}

	@Test
	void aCallLeftHangingInAnEarlierClosedStateNeverCountsForALaterOne() {
		Breaker breaker = stallBreaker();
		assertThat(breaker.acquire().granted()).isTrue(); // hangs for good
		breaker.reset();
		fixture.advance(Duration.ofSeconds(3));
		breaker.acquire();
		assertThat(breaker.state()).isEqualTo(State.CLOSED);
		// older than the window: it must not come back as "ancient"
		fixture.advance(Duration.ofSeconds(30));
		breaker.reset();
		fixture.advance(Duration.ofSeconds(3));
		breaker.acquire();
		assertThat(breaker.state()).isEqualTo(State.CLOSED);
		assertThat(fixture.transitions).extracting(Transition::to).containsOnly(State.CLOSED);
	}

	@Test
	void aCallOfTheCurrentStateStillTripsOnceItIsStalled() {
		Breaker breaker = stallBreaker();
		Permit old = breaker.acquire();
		breaker.reset();
		fixture.advance(Duration.ofMillis(500));
		Permit hanging = breaker.acquire();
		assertThat(hanging.granted()).isTrue();
		fixture.advance(Duration.ofMillis(2600));
		breaker.acquire();
		assertThat(breaker.state()).isEqualTo(State.OPEN);
		assertThat(fixture.transitions).last()
			.extracting(Transition::reason)
			.isEqualTo("stall: 1 calls in flight longer than 2s");
		breaker.release(old, Outcome.SUCCESS, 0);
	}

	@Test
	void aCallLongerThanTheWindowStillCountsAsStalled() {
		Breaker breaker = fixture
			.breaker(c -> c.stallCalls(2).slowCallDuration(Duration.ofSeconds(2)).consecutiveFailures(0));
		breaker.acquire();
		// the bucket it started in has long left the window
		fixture.advance(Duration.ofSeconds(25));
		breaker.acquire();
		fixture.advance(Duration.ofMillis(3100));
		breaker.acquire();
		assertThat(breaker.state()).isEqualTo(State.OPEN);
		assertThat(fixture.transitions).last()
			.extracting(Transition::reason)
			.isEqualTo("stall: 2 calls in flight longer than 2s");
	}

	@Test
	void aCallIsNeverCountedAsStalledBeforeItHasRunSlowCallDuration() {
		Breaker breaker = fixture.breaker(c -> c.stallCalls(1)
			.slowCallDuration(Duration.ofSeconds(10))
			.window(Duration.ofSeconds(10))
			.consecutiveFailures(0));
		fixture.advance(Duration.ofMillis(900));
		breaker.acquire(); // started at 0.9s
		// 10.5s: in flight 9.6s, its bucket has left the window
		fixture.advance(Duration.ofMillis(9600));
		breaker.acquire();
		assertThat(breaker.currentState()).isEqualTo(State.CLOSED);
		fixture.advance(Duration.ofMillis(500)); // 11s: its bucket ended 10s ago
		breaker.acquire();
		assertThat(breaker.currentState()).isEqualTo(State.OPEN);
	}

}
