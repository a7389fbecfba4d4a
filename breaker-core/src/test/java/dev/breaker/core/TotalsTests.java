package dev.breaker.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/** The cumulative totals: every finished call, never reset, never going down. */
class TotalsTests {

	private final Fixture fixture = new Fixture();

	@Test
	void keepCountingAfterCallsLeaveTheWindow() {
		Breaker breaker = fixture.breaker(c -> c.consecutiveFailures(0).failureRateThreshold(0));
		for (int i = 0; i < 30; i++) {
			Fixture.succeed(breaker, 3);
			Fixture.fail(breaker, 1);
			Fixture.timed(breaker, Outcome.SUCCESS, Duration.ofSeconds(3).toNanos());
			fixture.advance(Duration.ofMillis(1700));
		}
		assertThat(breaker.totals().calls(Outcome.SUCCESS)).isEqualTo(120);
		assertThat(breaker.totals().calls(Outcome.FAILURE)).isEqualTo(30);
		assertThat(breaker.totals().slowCalls()).isEqualTo(30);
		assertThat(breaker.snapshot().calls()).isLessThan(150);
	}

	@Test
	void areNotResetByAnOperatorReset() {
		Breaker breaker = fixture.breaker(c -> c);
		Fixture.succeed(breaker, 7);
		Fixture.record(breaker, Outcome.IGNORED, 2);
		breaker.reset();
		Fixture.succeed(breaker, 1);
		assertThat(breaker.totals().calls(Outcome.SUCCESS)).isEqualTo(8);
		assertThat(breaker.totals().calls(Outcome.IGNORED)).isEqualTo(2);
		assertThat(breaker.snapshot().calls()).isEqualTo(1);
	}

	@Test
	void countTripsRejectionsAndProbes() {
		Breaker breaker = fixture.breaker(c -> c.consecutiveFailures(1).halfOpenSuccessesToClose(1));
		Fixture.fail(breaker, 1);
		breaker.acquire();
		fixture.advance(Duration.ofSeconds(30));
		Fixture.succeed(breaker, 1);
		Totals totals = breaker.totals();
		assertThat(totals.trips()).isEqualTo(1);
		assertThat(totals.rejected()).isEqualTo(1);
		assertThat(totals.probeSuccesses()).isEqualTo(1);
		assertThat(totals.calls(Outcome.SUCCESS)).isEqualTo(1);
		assertThat(totals.calls(Outcome.FAILURE)).isEqualTo(1);
	}

	@Test
	void neverGoDownWhileBucketsRollOverAndTheWindowIsCleared() {
		Breaker breaker = fixture.breaker(c -> c.consecutiveFailures(0)
			.failureRateThreshold(0)
			.window(Duration.ofMillis(4))
			.bucket(Duration.ofMillis(1)));
		AtomicBoolean writing = new AtomicBoolean(true);
		int writers = 3;
		int perWriter = 200_000;
		Concurrently.run(writers + 1, i -> {
			if (i == writers) {
				long last = 0;
				while (writing.get()) {
					long now = breaker.totals().calls(Outcome.SUCCESS);
					assertThat(now).as("total after %d", last).isGreaterThanOrEqualTo(last);
					last = now;
				}
				return;
			}
			for (int n = 1; n <= perWriter; n++) {
				breaker.release(breaker.acquire(), Outcome.SUCCESS, 0);
				if (i == 0 && n % 100 == 0) {
					fixture.advance(Duration.ofMillis(1));
				}
				if (i == 0 && n % 10_000 == 0) {
					breaker.reset();
				}
			}
			if (i == 0) {
				writing.set(false);
			}
		});
		assertThat(breaker.totals().calls(Outcome.SUCCESS)).isEqualTo((long) writers * perWriter);
	}

	@Test
	void aSlowCallOfAnEarlierStateStillCountsAsSlowInTheTotals() {
		Breaker breaker = fixture.breaker(c -> c.slowCallDuration(Duration.ofSeconds(1)));
		Permit slow = breaker.acquire();
		Permit slowToo = breaker.acquire();
		Permit quick = breaker.acquire();
		breaker.reset();
		breaker.release(slow, Outcome.SUCCESS, Duration.ofSeconds(2).toNanos());
		breaker.release(slowToo, Outcome.FAILURE, Duration.ofSeconds(2).toNanos());
		breaker.release(quick, Outcome.SUCCESS, 0);
		assertThat(breaker.totals().slowCalls()).isEqualTo(2);
		assertThat(breaker.totals().calls(Outcome.SUCCESS)).isEqualTo(2);
		assertThat(breaker.snapshot().calls()).isZero();
	}

}
