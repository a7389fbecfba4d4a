package dev.breaker.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A ticker is only monotonic from an arbitrary origin ({@link System#nanoTime()} may be
 * negative, a user's ticker may start anywhere): a breaker must trip, wait and close the
 * same wherever its ticker starts, and when its ticker wraps past {@link Long#MAX_VALUE}.
 */
class TickerWrapTests {

	private static final long SECOND = 1_000_000_000L;

	private final Fixture fixture = new Fixture();

	private Breaker breaker(long start) {
		fixture.ticker.set(start);
		return fixture.breaker((c) -> c.consecutiveFailures(0)
			.failureRateThreshold(50)
			.minimumCalls(10)
			.openWait(Duration.ofSeconds(30))
			.halfOpenSuccessesToClose(1));
	}

	@ParameterizedTest
	@ValueSource(longs = { Long.MAX_VALUE - 5 * SECOND, Long.MAX_VALUE, Long.MIN_VALUE, -5 * SECOND })
	void tripsOnTheFailureRateAfterItsTickerWrapsOrWhenItStartsNegative(long start) {
		Breaker breaker = breaker(start);
		Fixture.succeed(breaker, 2);
		fixture.advance(Duration.ofSeconds(6));
		Fixture.fail(breaker, 8);
		assertThat(breaker.state()).isEqualTo(State.OPEN);
		assertThat(breaker.snapshot().failures()).as("failures in the window").isEqualTo(8);
	}

	@ParameterizedTest
	@ValueSource(longs = { Long.MAX_VALUE - 5 * SECOND, Long.MAX_VALUE - 45 * SECOND, -5 * SECOND })
	void tripsWaitsAndClosesAgainAndAgainAcrossTheWrap(long start) {
		Breaker breaker = breaker(start);
		for (int episode = 0; episode < 4; episode++) {
			Fixture.fail(breaker, 10);
			assertThat(breaker.state()).as("episode %d: tripped", episode).isEqualTo(State.OPEN);
			fixture.advance(Duration.ofSeconds(29));
			assertThat(breaker.acquire().granted()).as("episode %d: rejected while open", episode).isFalse();
			fixture.advance(Duration.ofSeconds(1));
			Fixture.succeed(breaker, 1);
			assertThat(breaker.state()).as("episode %d: closed by its probe", episode).isEqualTo(State.CLOSED);
			fixture.advance(Duration.ofSeconds(11));
		}
	}

	@ParameterizedTest
	@ValueSource(longs = { Long.MAX_VALUE - 5 * SECOND, -5 * SECOND })
	void tripsOnConsecutiveFailuresAcrossTheWrap(long start) {
		fixture.ticker.set(start);
		Breaker breaker = fixture.breaker((c) -> c.consecutiveFailures(3));
		fixture.advance(Duration.ofSeconds(10));
		Fixture.fail(breaker, 3);
		assertThat(breaker.state()).isEqualTo(State.OPEN);
	}

}
