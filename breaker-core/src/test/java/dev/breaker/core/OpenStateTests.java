package dev.breaker.core;

import static dev.breaker.core.Fixture.fail;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * OPEN: rejection, the open wait (multiplier, cap, jitter, Retry-After) and the lazy move
 * to HALF_OPEN.
 */
class OpenStateTests {

	private final Fixture fixture = new Fixture();

	private Breaker tripped() {
		Breaker breaker = fixture.breaker(c -> c.consecutiveFailures(1).openWait(Duration.ofSeconds(30)));
		fail(breaker, 1);
		return breaker;
	}

	@Test
	void rejectsEveryCallWhileOpen() throws Exception {
		Breaker breaker = tripped();
		Permit permit = breaker.acquire();
		assertThat(permit.granted()).isFalse();
		assertThat(permit.probe()).isFalse();
		assertThatThrownBy(() -> breaker.call(() -> "never runs")).isSameAs(breaker.rejection());
		assertThat(breaker.totals().rejected()).isEqualTo(2);
	}

	@Test
	void rejectionSaysWhichBreakerAndUntilWhen() {
		Breaker breaker = tripped();
		BreakerOpenException e = breaker.rejection();
		assertThat(e.breaker()).isEqualTo("payments");
		assertThat(e.openUntil()).isEqualTo(Fixture.EPOCH.plusSeconds(30));
		assertThat(e).hasMessage("breaker 'payments' is OPEN until 2026-11-29T21:00:30Z");
		assertThat(e.getStackTrace()).isEmpty();
	}

	@Test
	void staysOpenUntilTheOpenWaitEnds() {
		Breaker breaker = tripped();
		fixture.advance(Duration.ofSeconds(30).minusNanos(1));
		assertThat(breaker.state()).isEqualTo(State.OPEN);
		assertThat(breaker.acquire().granted()).isFalse();
	}

	@Test
	void movesToHalfOpenOnTheFirstStateReadAfterTheOpenWait() {
		Breaker breaker = tripped();
		fixture.advance(Duration.ofSeconds(30));
		assertThat(breaker.state()).isEqualTo(State.HALF_OPEN);
		assertThat(fixture.transitions).last().satisfies(t -> {
			assertThat(t.from()).isEqualTo(State.OPEN);
			assertThat(t.to()).isEqualTo(State.HALF_OPEN);
			assertThat(t.reason()).isEqualTo("open wait of 30s ended");
		});
	}

	@Test
	void movesToHalfOpenOnTheFirstAcquireAfterTheOpenWaitAndGrantsItAProbe() {
		Breaker breaker = tripped();
		fixture.advance(Duration.ofSeconds(31));
		Permit permit = breaker.acquire();
		assertThat(permit.granted()).isTrue();
		assertThat(permit.probe()).isTrue();
		assertThat(fixture.transitions).hasSize(2);
	}

	@Test
	void eachConsecutiveTripMultipliesTheOpenWaitUpToTheCap() {
		Breaker breaker = fixture.breaker(c -> c.consecutiveFailures(1)
			.openWait(Duration.ofSeconds(10))
			.openWaitMultiplier(2)
			.maxOpenWait(Duration.ofSeconds(35))
			.halfOpenFailuresToReopen(1));
		fail(breaker, 1);
		assertThat(openFor(breaker)).isEqualTo(Duration.ofSeconds(10));
		reopenAfterProbe(breaker, Duration.ofSeconds(10));
		assertThat(openFor(breaker)).isEqualTo(Duration.ofSeconds(20));
		reopenAfterProbe(breaker, Duration.ofSeconds(20));
		assertThat(openFor(breaker)).isEqualTo(Duration.ofSeconds(35));
		reopenAfterProbe(breaker, Duration.ofSeconds(35));
		assertThat(openFor(breaker)).isEqualTo(Duration.ofSeconds(35));
	}

	@Test
	void theOpenWaitStartsOverOnceTheBreakerHasClosed() {
		Breaker breaker = fixture.breaker(c -> c.consecutiveFailures(1)
			.openWait(Duration.ofSeconds(10))
			.halfOpenFailuresToReopen(1)
			.halfOpenSuccessesToClose(1));
		fail(breaker, 1);
		reopenAfterProbe(breaker, Duration.ofSeconds(10));
		assertThat(openFor(breaker)).isEqualTo(Duration.ofSeconds(20));
		fixture.advance(Duration.ofSeconds(20));
		Fixture.succeed(breaker, 1);
		assertThat(breaker.state()).isEqualTo(State.CLOSED);
		fail(breaker, 1);
		assertThat(openFor(breaker)).isEqualTo(Duration.ofSeconds(10));
	}

	@Test
	void jitterSpreadsTheOpenWaitWithinItsFraction() {
		for (int i = 0; i < 200; i++) {
			Breaker breaker = fixture.breaker(c -> c.consecutiveFailures(1)
				.openWait(Duration.ofSeconds(100))
				.maxOpenWait(Duration.ofSeconds(200))
				.openWaitJitter(0.2));
			fail(breaker, 1);
			assertThat(openFor(breaker)).isBetween(Duration.ofSeconds(80), Duration.ofSeconds(120));
		}
	}

	@Test
	void aRetryAfterHintKeepsAnOpenBreakerOpenLonger() {
		Breaker breaker = tripped();
		breaker.retryAfter(Duration.ofSeconds(90));
		assertThat(openFor(breaker)).isEqualTo(Duration.ofSeconds(90));
		fixture.advance(Duration.ofSeconds(89));
		assertThat(breaker.state()).isEqualTo(State.OPEN);
		fixture.advance(Duration.ofSeconds(1));
		assertThat(breaker.state()).isEqualTo(State.HALF_OPEN);
	}

	@Test
	void aRetryAfterHintShorterThanTheWaitChangesNothing() {
		Breaker breaker = tripped();
		breaker.retryAfter(Duration.ofSeconds(5));
		assertThat(openFor(breaker)).isEqualTo(Duration.ofSeconds(30));
	}

	@Test
	void aFreshRetryAfterHintLengthensTheNextTrip() {
		assertThat(openWaitOfATripAfterAHint(Duration.ofMillis(500))).isEqualTo(Duration.ofSeconds(120));
	}

	@Test
	void aRetryAfterHintOlderThanABucketIsForgotten() {
		assertThat(openWaitOfATripAfterAHint(Duration.ofMillis(1001))).isEqualTo(Duration.ofSeconds(30));
	}

	/**
	 * The open wait of a breaker (open wait 30 s) that trips {@code age} after a 120 s
	 * Retry-After hint.
	 */
	private Duration openWaitOfATripAfterAHint(Duration age) {
		Breaker breaker = fixture.breaker(c -> c.consecutiveFailures(1).openWait(Duration.ofSeconds(30)));
		breaker.retryAfter(Duration.ofSeconds(120));
		fixture.advance(age);
		fail(breaker, 1);
		return openFor(breaker);
	}

	private Duration openFor(Breaker breaker) {
		return Duration.between(fixture.clock.instant(), breaker.snapshot().openUntil());
	}

	private void reopenAfterProbe(Breaker breaker, Duration wait) {
		fixture.advance(wait);
		fail(breaker, 1);
		assertThat(breaker.state()).isEqualTo(State.OPEN);
	}

	@Test
	void aRetryAfterHintExactlyOneBucketOldStillLengthensATrip() {
		fixture.advance(Duration.ofSeconds(100));
		assertThat(openWaitOfATripAfterAHint(Duration.ofSeconds(1))).isEqualTo(Duration.ofSeconds(120));
	}

	@Test
	void theEndOfTheOpenWaitNamesItsLengthWhateverTheTickerReads() {
		fixture.advance(Duration.ofHours(5));
		Breaker breaker = tripped();
		fixture.advance(Duration.ofSeconds(30));
		assertThat(breaker.state()).isEqualTo(State.HALF_OPEN);
		assertThat(fixture.transitions).last().extracting(Transition::reason).isEqualTo("open wait of 30s ended");
	}

}
