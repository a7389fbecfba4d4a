package dev.breaker.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A permit whose call may end more than once (a publisher that fails as its subscriber
 * cancels) is recorded once: the first end wins, timed from the start.
 */
class ReleaseOnceTests {

	private final Fixture fixture = new Fixture();

	private final Breaker breaker = fixture.breaker(
			(config) -> config.consecutiveFailures(0).failureRateThreshold(0).slowCallDuration(Duration.ofSeconds(1)));

	@Test
	void theFirstEndIsRecordedAndTheLaterOnesAreDropped() {
		ReleaseOnce release = ReleaseOnce.started(breaker, breaker.acquire());
		release.cancelled();
		release.failed(new IOException("connection reset"));
		release.succeeded();
		assertThat(breaker.totals().calls(Outcome.IGNORED)).isEqualTo(1);
		assertThat(breaker.totals().calls(Outcome.FAILURE)).isZero();
		assertThat(breaker.totals().calls(Outcome.SUCCESS)).isZero();
	}

	@Test
	void aFailureIsClassifiedByTheBreakersClassifier() {
		ReleaseOnce.started(breaker, breaker.acquire()).failed(new IOException("connection reset"));
		assertThat(breaker.totals().calls(Outcome.FAILURE)).isEqualTo(1);
	}

	@Test
	void aClassifierThatThrowsLeavesTheFailureToTheDefaultClassifierAndTheCallOutOfFlight() {
		Breaker guarded = fixture.breaker((config) -> config.trackInFlight(true).classifier((result, error) -> {
			throw new IllegalArgumentException("bug in the application's classifier");
		}));
		ReleaseOnce release = ReleaseOnce.started(guarded, guarded.acquire());
		release.failed(new IOException("connection reset"));
		assertThat(guarded.totals().calls(Outcome.FAILURE)).isEqualTo(1);
		assertThat(guarded.snapshot().inFlight()).isZero();
	}

	@Test
	void theCallIsTimedFromTheStart() {
		ReleaseOnce release = ReleaseOnce.started(breaker, breaker.acquire());
		fixture.advance(Duration.ofSeconds(2));
		release.succeeded();
		assertThat(breaker.totals().calls(Outcome.SUCCESS)).isEqualTo(1);
		assertThat(breaker.totals().slowCalls()).isEqualTo(1);
	}

	@Test
	void endsRacingOnSeveralThreadsRecordTheCallExactlyOnce() {
		int rounds = 500;
		for (int round = 0; round < rounds; round++) {
			ReleaseOnce release = ReleaseOnce.started(breaker, breaker.acquire());
			AtomicInteger index = new AtomicInteger();
			Concurrently.run(3, (thread) -> {
				switch (thread) {
					case 0 -> release.succeeded();
					case 1 -> release.cancelled();
					default -> release.failed(new IOException("reset " + index.incrementAndGet()));
				}
			});
		}
		Totals totals = breaker.totals();
		assertThat(totals.calls(Outcome.SUCCESS) + totals.calls(Outcome.IGNORED) + totals.calls(Outcome.FAILURE))
			.isEqualTo(rounds);
	}

}
