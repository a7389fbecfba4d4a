package dev.breaker.core;

import static dev.breaker.core.Fixture.fail;
import static dev.breaker.core.Fixture.record;
import static dev.breaker.core.Fixture.succeed;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The retry budget: retries may add retryBudgetRatio of the first attempts in the window,
 * plus a floor per second.
 */
class RetryBudgetTests {

	private final Fixture fixture = new Fixture();

	/** No trip rule: the budget alone decides. */
	private Breaker breaker(double ratio, double minPerSecond) {
		return fixture.breaker(c -> c.consecutiveFailures(0)
			.failureRateThreshold(0)
			.retryBudgetRatio(ratio)
			.retryBudgetMinPerSecond(minPerSecond));
	}

	private static int retries(Breaker breaker, int asked) {
		int granted = 0;
		for (int i = 0; i < asked; i++) {
			if (breaker.tryRetry(false)) {
				granted++;
			}
		}
		return granted;
	}

	@Test
	void aQuietBreakerMayRetryTheFloorTimesTheWindowInSeconds() {
		Breaker breaker = breaker(0.2, 10);
		assertThat(retries(breaker, 150)).isEqualTo(100);
	}

	@Test
	void retriesMayAddTheRatioOfTheCallsInTheWindow() {
		Breaker breaker = breaker(0.2, 10);
		succeed(breaker, 600);
		fail(breaker, 400);
		assertThat(retries(breaker, 1000)).isEqualTo(200 + 100);
	}

	@Test
	void everyFinishedCallCountsTowardTheBudgetIgnoredAndThrottledToo() {
		Breaker breaker = breaker(0.5, 0);
		succeed(breaker, 10);
		record(breaker, Outcome.TIMEOUT, 10);
		record(breaker, Outcome.IGNORED, 10);
		record(breaker, Outcome.THROTTLED, 10);
		assertThat(retries(breaker, 100)).isEqualTo(20);
	}

	@Test
	void aRatioOfZeroAndNoFloorAllowsNoRetry() {
		Breaker breaker = breaker(0, 0);
		succeed(breaker, 1000);
		assertThat(breaker.tryRetry(false)).isFalse();
		assertThat(breaker.totals().retriesRefused()).isEqualTo(1);
	}

	@Test
	void aFractionalBudgetRoundsDown() {
		Breaker breaker = breaker(0.25, 0.15); // 0.25 x 7 + 0.15 x 10 = 3.25
		succeed(breaker, 7);
		assertThat(retries(breaker, 10)).isEqualTo(3);
	}

	@Test
	void theBudgetRefillsWhenItsRetriesLeaveTheWindow() {
		Breaker breaker = breaker(0, 1); // 10 per 10s window
		assertThat(retries(breaker, 10)).isEqualTo(10);
		fixture.advance(Duration.ofSeconds(9));
		assertThat(retries(breaker, 1)).isZero();
		fixture.advance(Duration.ofSeconds(1));
		assertThat(retries(breaker, 20)).isEqualTo(10);
	}

	@Test
	void retriesLeaveTheWindowBucketByBucket() {
		Breaker breaker = breaker(0, 1);
		assertThat(retries(breaker, 4)).isEqualTo(4);
		fixture.advance(Duration.ofSeconds(5));
		assertThat(retries(breaker, 6)).isEqualTo(6);
		// the first four left, the six of second 5 remain
		fixture.advance(Duration.ofSeconds(5));
		assertThat(retries(breaker, 10)).isEqualTo(4);
		assertThat(breaker.snapshot().retryBudget().retries()).isEqualTo(10);
	}

	@Test
	void callsThatLeftTheWindowNoLongerPayForRetries() {
		Breaker breaker = breaker(0.5, 0);
		succeed(breaker, 100);
		fixture.advance(Duration.ofSeconds(10));
		assertThat(breaker.tryRetry(false)).isFalse();
	}

	@Test
	void retriesWhoseAttemptsTheBreakerRecordsAreNotFirstAttempts() {
		Breaker breaker = breaker(0.5, 0);
		succeed(breaker, 100);
		int granted = 0;
		for (int i = 0; i < 100; i++) {
			if (breaker.tryRetry(true)) {
				granted++;
				fail(breaker, 1); // the retry's own attempt, recorded as a call
			}
		}
		// half of the 100 first attempts, not half of the 150 calls the window holds
		assertThat(granted).isEqualTo(50);
		assertThat(breaker.snapshot().calls()).isEqualTo(150);
		assertThat(breaker.snapshot().retryBudget()).isEqualTo(new Snapshot.RetryBudget("payments", 100, 50, 50));
	}

	@Test
	void aRetryGivenBackBeforeItsAttemptIsMadeMayBeGrantedAgain() {
		Breaker breaker = breaker(0, 0.5); // 5 per window
		long[] grants = new long[5];
		for (int i = 0; i < grants.length; i++) {
			grants[i] = breaker.grantRetry(false);
		}
		assertThat(grants).doesNotContain(-1);
		assertThat(breaker.grantRetry(false)).isEqualTo(-1);
		assertThat(breaker.returnRetry(grants[2], false)).isTrue();
		assertThat(breaker.snapshot().retryBudget().retries()).isEqualTo(4);
		assertThat(breaker.grantRetry(false)).isNotNegative();
		assertThat(breaker.grantRetry(false)).isEqualTo(-1);
	}

	@Test
	void aRetryGoesBackAtMostOnceAndNeverBelowWhatWasTaken() {
		Breaker breaker = breaker(0, 0.5); // 5 per window
		long grant = breaker.grantRetry(false);
		assertThat(breaker.returnRetry(grant, false)).isTrue();
		assertThat(breaker.returnRetry(grant, false)).as("the same grant again").isFalse();
		assertThat(breaker.returnRetry(-1, false)).as("a refusal").isFalse();
		assertThat(retries(breaker, 10)).isEqualTo(5);
	}

	@Test
	void retriesGoBackInAnyOrder() {
		Breaker breaker = breaker(0, 0.5); // 5 per window
		long first = breaker.grantRetry(false);
		long second = breaker.grantRetry(false);
		assertThat(breaker.returnRetry(first, false)).isTrue();
		assertThat(breaker.returnRetry(second, false)).isTrue();
		assertThat(retries(breaker, 10)).isEqualTo(5);
	}

	@Test
	void aRetryGrantedBeforeTheBudgetsNextCheckpointStaysSpent() {
		Breaker breaker = breaker(0, 0.5); // 5 per window
		long grant = breaker.grantRetry(false);
		fixture.advance(Duration.ofSeconds(1));
		assertThat(retries(breaker, 4)).isEqualTo(4); // the new bucket's checkpoint
		// given back now, it would hide one of those four from the windows that begin
		// at the new bucket
		assertThat(breaker.returnRetry(grant, false)).isFalse();
		assertThat(retries(breaker, 1)).isZero();
		fixture.advance(Duration.ofSeconds(9));
		assertThat(retries(breaker, 5)).as("the four remain, the first left").isEqualTo(1);
	}

	@Test
	void aRecordedRetryGivenBackIsNoLongerLeftOutOfTheFirstAttempts() {
		Breaker breaker = breaker(0.5, 0);
		succeed(breaker, 10);
		long grant = breaker.grantRetry(true);
		assertThat(breaker.returnRetry(grant, true)).isTrue();
		// its attempt was never recorded: the ten calls are all first attempts
		assertThat(breaker.snapshot().retryBudget()).isEqualTo(new Snapshot.RetryBudget("payments", 10, 5, 0));
		assertThat(retries(breaker, 10)).isEqualTo(5);
	}

	@Test
	void grantedAndRefusedRetriesAreCounted() {
		Breaker breaker = breaker(0, 0.5); // 5 per window
		retries(breaker, 8);
		assertThat(breaker.totals().retries()).isEqualTo(5);
		assertThat(breaker.totals().retriesRefused()).isEqualTo(3);
	}

	@Test
	void theSnapshotShowsTheBudgetBeforeAnyRetry() {
		Breaker breaker = breaker(0.2, 10);
		succeed(breaker, 50);
		Snapshot.RetryBudget budget = breaker.snapshot().retryBudget();
		assertThat(budget).isEqualTo(new Snapshot.RetryBudget("payments", 50, 110, 0));
		assertThat(budget.remaining()).isEqualTo(110);
	}

	@Test
	void theSnapshotShowsRetriesMadeAndWhatRemains() {
		Breaker breaker = breaker(0.2, 10);
		succeed(breaker, 50);
		retries(breaker, 30);
		Snapshot.RetryBudget budget = breaker.snapshot().retryBudget();
		assertThat(budget).isEqualTo(new Snapshot.RetryBudget("payments", 50, 110, 30));
		assertThat(budget.remaining()).isEqualTo(80);
		retries(breaker, 200);
		assertThat(breaker.snapshot().retryBudget().remaining()).isZero();
	}

	@Test
	void aClosedStateAfterATripPaysForRetriesWithItsOwnCallsOnly() {
		Breaker breaker = fixture.breaker(c -> c.consecutiveFailures(0)
			.failureRateThreshold(50)
			.minimumCalls(10)
			.retryBudgetRatio(0.5)
			.retryBudgetMinPerSecond(0));
		succeed(breaker, 100);
		fail(breaker, 100);
		assertThat(breaker.state()).isEqualTo(State.OPEN);
		breaker.reset();
		succeed(breaker, 4);
		assertThat(retries(breaker, 10)).isEqualTo(2);
	}

	@Test
	void aThreadWhoseTimeIsAWholeWindowBehindIsRefused() {
		Breaker breaker = breaker(0, 10);
		fixture.ticker.set(Duration.ofSeconds(20).toNanos());
		assertThat(breaker.tryRetry(false)).isTrue();
		// the slot of second 10 holds second 20 now
		fixture.ticker.set(Duration.ofSeconds(10).toNanos());
		assertThat(breaker.tryRetry(false)).isFalse();
		fixture.ticker.set(Duration.ofSeconds(21).toNanos());
		assertThat(breaker.tryRetry(false)).isTrue();
	}

	@Test
	void childrenShareTheirGroupsBudgetAndItsCounts() {
		BreakerRegistry registry = BreakerRegistry.builder()
			.defaults(fixture.config()
				.consecutiveFailures(0)
				.failureRateThreshold(0)
				.retryBudgetRatio(0)
				.retryBudgetMinPerSecond(1)
				.build())
			.children("recommendations", new BreakerRegistry.Children(10, Duration.ofMinutes(5), true))
			.build();
		Breaker loud = registry.breaker("recommendations", "loud");
		Breaker quiet = registry.breaker("recommendations", "quiet");
		assertThat(retries(loud, 50)).isEqualTo(10);
		assertThat(retries(quiet, 1)).isZero();
		Breaker group = registry.breaker("recommendations");
		assertThat(group.totals().retries()).isEqualTo(10);
		assertThat(group.totals().retriesRefused()).isEqualTo(41);
		assertThat(quiet.snapshot().retryBudget()).isEqualTo(new Snapshot.RetryBudget("recommendations", 0, 10, 10));
	}

	@Test
	void aChildsCallsPayForItsGroupsRetries() {
		BreakerRegistry registry = BreakerRegistry.builder()
			.defaults(fixture.config()
				.consecutiveFailures(0)
				.failureRateThreshold(0)
				.retryBudgetRatio(0.5)
				.retryBudgetMinPerSecond(0)
				.build())
			.children("recommendations", new BreakerRegistry.Children(10, Duration.ofMinutes(5), true))
			.build();
		Breaker child = registry.breaker("recommendations", "user-1");
		succeed(child, 20);
		assertThat(retries(registry.breaker("recommendations", "user-2"), 50)).isEqualTo(10);
	}

	@Test
	void recordedRetriesStopCountingAgainstTheCallsWhenTheirBucketLeavesTheWindow() {
		Breaker breaker = breaker(0.5, 0);
		succeed(breaker, 100);
		assertThat(recordedRetries(breaker, 100)).isEqualTo(50);
		fixture.advance(Duration.ofSeconds(5));
		succeed(breaker, 100);
		assertThat(recordedRetries(breaker, 100)).isEqualTo(50);
		// second 0 leaves: 100 + 50 calls of second 5 remain
		fixture.advance(Duration.ofSeconds(5));
		succeed(breaker, 100);
		// 200 first attempts now (the 50 recorded retries of second 5 left out): 100
		// allowed, 50 made
		assertThat(breaker.snapshot().retryBudget()).isEqualTo(new Snapshot.RetryBudget("payments", 200, 100, 50));
		assertThat(recordedRetries(breaker, 100)).isEqualTo(50);
	}

	private static int recordedRetries(Breaker breaker, int asked) {
		int granted = 0;
		for (int i = 0; i < asked; i++) {
			if (breaker.tryRetry(true)) {
				granted++;
				fail(breaker, 1);
			}
		}
		return granted;
	}

	@Test
	void aSlowCallIsOneCall() {
		Breaker breaker = breaker(1, 0);
		for (int i = 0; i < 10; i++) {
			Fixture.timed(breaker, Outcome.SUCCESS, Duration.ofSeconds(3).toNanos());
		}
		assertThat(breaker.snapshot().slowCalls()).isEqualTo(10);
		assertThat(retries(breaker, 50)).isEqualTo(10);
	}

	@Test
	void theSnapshotForgetsRetriesWhoseBucketLeftTheWindow() {
		Breaker breaker = breaker(0, 10);
		retries(breaker, 30);
		fixture.advance(Duration.ofSeconds(9));
		assertThat(breaker.snapshot().retryBudget().retries()).isEqualTo(30);
		fixture.advance(Duration.ofSeconds(1));
		assertThat(breaker.snapshot().retryBudget().retries()).isZero();
	}

}
