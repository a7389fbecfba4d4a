package dev.breaker.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The snapshot: state, window per bucket, rates, probes, open-until, history, config. */
class SnapshotTests {

	private final Fixture fixture = new Fixture();

	@Test
	void showsTheWindowBucketByBucketOldestFirst() {
		Breaker breaker = fixture
			.breaker(c -> c.window(Duration.ofSeconds(3)).consecutiveFailures(0).failureRateThreshold(0));
		Fixture.succeed(breaker, 2);
		fixture.advance(Duration.ofSeconds(1));
		Fixture.fail(breaker, 1);
		Fixture.record(breaker, Outcome.TIMEOUT, 1);
		fixture.advance(Duration.ofSeconds(1));
		Fixture.record(breaker, Outcome.IGNORED, 3);
		Fixture.record(breaker, Outcome.THROTTLED, 1);
		Snapshot s = breaker.snapshot();
		assertThat(s.buckets()).containsExactly(new Snapshot.BucketCounts(Fixture.EPOCH, 2, 0, 0, 0, 0, 0),
				new Snapshot.BucketCounts(Fixture.EPOCH.plusSeconds(1), 0, 1, 1, 0, 0, 0),
				new Snapshot.BucketCounts(Fixture.EPOCH.plusSeconds(2), 0, 0, 0, 3, 1, 0));
		assertThat(s.calls()).isEqualTo(4);
		assertThat(s.failures()).isEqualTo(1);
		assertThat(s.timeouts()).isEqualTo(1);
		assertThat(s.ignored()).isEqualTo(3);
		assertThat(s.throttled()).isEqualTo(1);
		assertThat(s.failureRate()).isEqualTo(50.0);
		assertThat(s.slowCallRate()).isZero();
	}

	@Test
	void ratesAreZeroWithNoCalls() {
		Snapshot s = fixture.breaker(c -> c).snapshot();
		assertThat(s.calls()).isZero();
		assertThat(s.failureRate()).isZero();
		assertThat(s.slowCallRate()).isZero();
		assertThat(s.buckets()).hasSize(10);
	}

	@Test
	void describesAnOpenBreaker() {
		Breaker breaker = fixture.breaker(c -> c.consecutiveFailures(2));
		Fixture.fail(breaker, 2);
		fixture.advance(Duration.ofSeconds(3));
		Snapshot s = breaker.snapshot();
		assertThat(s.name()).isEqualTo("payments");
		assertThat(s.state()).isEqualTo(State.OPEN);
		assertThat(s.since()).isEqualTo(Fixture.EPOCH);
		assertThat(s.openUntil()).isEqualTo(Fixture.EPOCH.plusSeconds(30));
		assertThat(s.trips()).isEqualTo(1);
		assertThat(s.consecutiveFailures()).isZero();
		assertThat(s.transitions()).singleElement()
			.extracting(Transition::reason)
			.isEqualTo("consecutive failures 2 >= 2");
		assertThat(s.config()).isSameAs(breaker.config());
		assertThat(s.probes()).isEqualTo(new Snapshot.Probes(0, 0, 0, 0));
	}

	@Test
	void showsProbeProgressWhileHalfOpen() {
		Breaker breaker = fixture.breaker(c -> c.consecutiveFailures(1));
		Fixture.fail(breaker, 1);
		fixture.advance(Duration.ofSeconds(30));
		Fixture.succeed(breaker, 1);
		Permit inFlight = breaker.acquire();
		assertThat(inFlight.probe()).isTrue();
		assertThat(breaker.snapshot().probes()).isEqualTo(new Snapshot.Probes(2, 1, 1, 0));
		assertThat(breaker.snapshot().openUntil()).isNull();
	}

	@Test
	void keepsTheLastTwentyTransitionsMostRecentLast() {
		Breaker breaker = fixture.breaker(c -> c);
		for (int i = 0; i < 15; i++) {
			breaker.forceOpen();
			breaker.disable();
		}
		assertThat(breaker.snapshot().transitions()).hasSize(20)
			.extracting(Transition::generation)
			.startsWith(11L)
			.endsWith(30L);
	}

	@Test
	void countsInFlightCallsWhenAskedToWithoutTripping() {
		Breaker breaker = fixture.breaker(c -> c.trackInFlight(true));
		for (int i = 0; i < 50; i++) {
			breaker.acquire();
			fixture.advance(Duration.ofSeconds(1));
		}
		assertThat(breaker.snapshot().inFlight()).isEqualTo(50);
		assertThat(breaker.state()).isEqualTo(State.CLOSED);
	}

	@Test
	void reportsNoCallsInFlightUnlessTracked() {
		Breaker breaker = fixture.breaker(c -> c);
		breaker.acquire();
		assertThat(breaker.snapshot().inFlight()).isZero();
	}

	@Test
	void countsInFlightCallsWhenTheStallRuleIsOn() {
		Breaker breaker = fixture.breaker(c -> c.stallCalls(100));
		Permit a = breaker.acquire();
		breaker.acquire();
		assertThat(breaker.snapshot().inFlight()).isEqualTo(2);
		breaker.release(a, Outcome.SUCCESS, 0);
		assertThat(breaker.snapshot().inFlight()).isEqualTo(1);
	}

	@Test
	void bucketsStartWhereTheirTimeIsAfterAReset() {
		fixture.advance(Duration.ofSeconds(42));
		Breaker breaker = fixture.breaker(c -> c.window(Duration.ofSeconds(2)));
		breaker.reset();
		Fixture.succeed(breaker, 1);
		assertThat(breaker.snapshot().buckets()).extracting(Snapshot.BucketCounts::start)
			.containsExactly(Fixture.EPOCH.plusSeconds(41), Fixture.EPOCH.plusSeconds(42));
		assertThat(breaker.snapshot().buckets().get(1).successes()).isEqualTo(1);
	}

	@Test
	void countsProbesAndDisabledCallsInFlightWhenAskedTo() {
		Breaker breaker = fixture.breaker(c -> c.trackInFlight(true));
		assertThat(breaker.acquire().granted()).isTrue();
		breaker.halfOpen();
		Permit probe = breaker.acquire();
		assertThat(breaker.snapshot().inFlight()).isEqualTo(2);
		breaker.disable();
		breaker.acquire();
		assertThat(breaker.snapshot().inFlight()).isEqualTo(3);
		breaker.release(probe, Outcome.SUCCESS, 0);
		assertThat(breaker.snapshot().inFlight()).isEqualTo(2);
	}

}
