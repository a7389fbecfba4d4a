package dev.breaker.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Call durations: the window's percentiles in the snapshot, and cumulative histograms for
 * metrics.
 */
class LatencyTests {

	private static final long MS = 1_000_000;

	private final Fixture fixture = new Fixture();

	private Breaker breaker() {
		return fixture.breaker(c -> c.consecutiveFailures(0).failureRateThreshold(0));
	}

	private static double relativeError(Duration measured, long exactNanos) {
		return Math.abs(measured.toNanos() - exactNanos) / (double) exactNanos;
	}

	@Test
	void theSnapshotReadsTheWindowsPercentilesWithinTenPercent() {
		Breaker breaker = breaker();
		List<Long> durations = new ArrayList<>();
		Random random = new Random(17);
		for (int i = 0; i < 5_000; i++) {
			// log-normal around 20 ms, with a tail to seconds: a dependency's usual shape
			long nanos = (long) (20 * MS * Math.exp(random.nextGaussian()));
			durations.add(nanos);
			Fixture.timed(breaker, Outcome.SUCCESS, nanos);
		}
		Collections.sort(durations);
		Snapshot.Latency latency = breaker.snapshot().latency();
		assertThat(relativeError(latency.p50(), exact(durations, 0.5))).isLessThan(0.10);
		assertThat(relativeError(latency.p90(), exact(durations, 0.9))).isLessThan(0.10);
		assertThat(relativeError(latency.p99(), exact(durations, 0.99))).isLessThan(0.10);
		assertThat(relativeError(latency.p999(), exact(durations, 0.999))).isLessThan(0.10);
		assertThat(latency.max()).isEqualTo(Duration.ofNanos(durations.get(durations.size() - 1)));
	}

	/** The nearest-rank percentile of sorted durations. */
	private static long exact(List<Long> sorted, double fraction) {
		return sorted.get((int) Math.ceil(fraction * sorted.size()) - 1);
	}

	@Test
	void percentilesHoldFromTenMicrosecondsToAnHour() {
		for (long nanos : new long[] { 10_000, 333_333, 7 * MS, 450 * MS, 59_000 * MS, 3_600_000 * MS }) {
			Breaker breaker = breaker();
			Fixture.timed(breaker, Outcome.SUCCESS, nanos);
			Snapshot.Latency latency = breaker.snapshot().latency();
			assertThat(relativeError(latency.p50(), nanos)).as("%d ns", nanos).isLessThan(0.10);
			assertThat(relativeError(latency.p999(), nanos)).as("%d ns", nanos).isLessThan(0.10);
		}
	}

	@Test
	void callsTooFastToTimeReadAsZero() {
		Breaker breaker = breaker();
		// the cached ticker did not move during these calls
		Fixture.record(breaker, Outcome.SUCCESS, 60);
		for (int i = 0; i < 40; i++) {
			Fixture.timed(breaker, Outcome.SUCCESS, 20 * MS);
		}
		Snapshot.Latency latency = breaker.snapshot().latency();
		assertThat(latency.p50()).isEqualTo(Duration.ZERO);
		assertThat(relativeError(latency.p90(), 20 * MS)).isLessThan(0.10);
		assertThat(latency.max()).isEqualTo(Duration.ofMillis(20));
	}

	@Test
	void everyOutcomeCountsTowardLatency() {
		Breaker breaker = breaker();
		Fixture.timed(breaker, Outcome.FAILURE, 900 * MS);
		Fixture.timed(breaker, Outcome.IGNORED, 900 * MS);
		Fixture.timed(breaker, Outcome.TIMEOUT, 900 * MS);
		assertThat(relativeError(breaker.snapshot().latency().p50(), 900 * MS)).isLessThan(0.10);
	}

	@Test
	void aWindowWithoutCallsReadsZero() {
		Snapshot.Latency latency = breaker().snapshot().latency();
		assertThat(latency)
			.isEqualTo(new Snapshot.Latency(Duration.ZERO, Duration.ZERO, Duration.ZERO, Duration.ZERO, Duration.ZERO));
	}

	@Test
	void aCallLeavesTheLatencyWithItsBucket() {
		Breaker breaker = breaker();
		Fixture.timed(breaker, Outcome.SUCCESS, 20 * MS);
		fixture.advance(Duration.ofSeconds(9));
		assertThat(breaker.snapshot().latency().max()).isEqualTo(Duration.ofMillis(20));
		fixture.advance(Duration.ofSeconds(1));
		assertThat(breaker.snapshot().latency().max()).isEqualTo(Duration.ZERO);
		assertThat(breaker.snapshot().latency().p50()).isEqualTo(Duration.ZERO);
	}

	@Test
	void aResetEmptiesTheWindowsLatencyButNotTheCumulativeHistograms() {
		Breaker breaker = breaker();
		Fixture.timed(breaker, Outcome.SUCCESS, 20 * MS);
		breaker.reset();
		assertThat(breaker.snapshot().latency().max()).isEqualTo(Duration.ZERO);
		assertThat(breaker.durations().histogram().count()).isEqualTo(1);
		assertThat(breaker.durations().count(Outcome.SUCCESS, breaker.durations().bounds().size())).isEqualTo(1);
	}

	@Test
	void withRecordLatencyOffABreakerKeepsNoLatency() {
		Breaker breaker = fixture.breaker(c -> c.recordLatency(false));
		Fixture.timed(breaker, Outcome.SUCCESS, 20 * MS);
		assertThat(breaker.config().recordLatency()).isFalse();
		assertThat(breaker.snapshot().latency()).isNull();
		assertThat(breaker.durations()).isNull();
		assertThat(BreakerConfig.defaults().recordLatency()).isTrue();
	}

	@Test
	void aChildThatConsultsItsParentLeavesLatencyToTheParent() {
		BreakerRegistry registry = BreakerRegistry.builder()
			.defaults(fixture.config().build())
			.children("recommendations", new BreakerRegistry.Children(100, Duration.ofMinutes(5), true))
			.build();
		Breaker child = registry.breaker("recommendations", "user-42");
		Fixture.timed(child, Outcome.SUCCESS, 20 * MS);
		assertThat(child.snapshot().latency()).isNull();
		assertThat(child.durations()).isNull();
		assertThat(relativeError(registry.breaker("recommendations").snapshot().latency().p50(), 20 * MS))
			.isLessThan(0.10);
	}

	@Test
	void aChildOnItsOwnKeepsItsOwnLatency() {
		BreakerRegistry registry = BreakerRegistry.builder()
			.defaults(fixture.config().build())
			.children("http", new BreakerRegistry.Children(100, Duration.ofMinutes(5), false))
			.build();
		Breaker host = registry.breaker("http", "api.acme.com");
		Fixture.timed(host, Outcome.SUCCESS, 20 * MS);
		assertThat(host.snapshot().latency().max()).isEqualTo(Duration.ofMillis(20));
	}

	@Test
	void aCallThatFinishesAfterTheStateChangedCountsInTheHistogramsButNotInTheWindow() {
		Breaker breaker = breaker();
		Permit permit = breaker.acquire();
		breaker.forceOpen();
		breaker.reset();
		breaker.release(permit, Outcome.TIMEOUT, 1_000 * MS);
		assertThat(breaker.snapshot().calls()).isZero();
		assertThat(breaker.snapshot().latency().max()).isEqualTo(Duration.ZERO);
		CallDurations durations = breaker.durations();
		assertThat(durations.count(Outcome.TIMEOUT, durations.bounds().size())).isEqualTo(1);
		assertThat(durations.count(Outcome.TIMEOUT, durations.bounds().indexOf(Duration.ofMillis(500)))).isZero();
		assertThat(durations.count(Outcome.TIMEOUT, durations.bounds().indexOf(Duration.ofSeconds(1)))).isEqualTo(1);
		assertThat(durations.histogram().count()).isEqualTo(1);
		assertThat(durations.totalSeconds(Outcome.TIMEOUT)).isCloseTo(1.0, within(1e-9));
	}

	@Test
	void theHistogramBoundsRunFromAMillisecondToAMinuteWithTheSlowCallDurationAmongThem() {
		Breaker breaker = fixture.breaker(c -> c.slowCallDuration(Duration.ofMillis(300)));
		assertThat(breaker.durations().bounds()).containsExactly(Duration.ofMillis(1),
				Duration.ofMillis(2).plusNanos(500_000), Duration.ofMillis(5), Duration.ofMillis(10),
				Duration.ofMillis(25), Duration.ofMillis(50), Duration.ofMillis(100), Duration.ofMillis(250),
				Duration.ofMillis(300), Duration.ofMillis(500), Duration.ofSeconds(1), Duration.ofMillis(2_500),
				Duration.ofSeconds(5), Duration.ofSeconds(10), Duration.ofSeconds(30), Duration.ofMinutes(1));
		assertThat(fixture.breaker(c -> c).durations().bounds()).contains(Duration.ofSeconds(2)).hasSize(16);
		assertThat(fixture.breaker(c -> c.slowCallDuration(Duration.ofSeconds(1))).durations().bounds()).hasSize(15);
		assertThat(fixture.breaker(c -> c.slowCallDuration(Duration.ofMillis(2))).durations().bounds().get(0))
			.isEqualTo(Duration.ofMillis(1));
		assertThat(fixture.breaker(c -> c.slowCallDuration(Duration.ofNanos(100_000))).durations().bounds().get(0))
			.isEqualTo(Duration.ofNanos(100_000));
	}

	@Test
	void aCallOfExactlyTheSlowCallDurationIsUnderItsBoundAndOneNanosecondMoreIsNot() {
		Breaker breaker = fixture.breaker(c -> c.slowCallDuration(Duration.ofMillis(300)));
		CallDurations durations = breaker.durations();
		int slow = durations.bounds().indexOf(Duration.ofMillis(300));
		Fixture.timed(breaker, Outcome.SUCCESS, 300 * MS);
		assertThat(durations.count(Outcome.SUCCESS, slow)).isEqualTo(1);
		assertThat(breaker.snapshot().slowCalls()).isZero();
		Fixture.timed(breaker, Outcome.SUCCESS, 300 * MS + 1);
		assertThat(durations.count(Outcome.SUCCESS, slow)).isEqualTo(1);
		assertThat(durations.count(Outcome.SUCCESS, slow + 1)).isEqualTo(2);
		assertThat(breaker.snapshot().slowCalls()).isEqualTo(1);
	}

	@Test
	void cumulativeCountsAreKeptPerOutcome() {
		Breaker breaker = breaker();
		CallDurations durations = breaker.durations();
		int all = durations.bounds().size();
		Fixture.record(breaker, Outcome.SUCCESS, 3);
		Fixture.timed(breaker, Outcome.SUCCESS, 7 * MS);
		Fixture.timed(breaker, Outcome.FAILURE, 2 * 60_000 * MS);
		assertThat(durations.count(Outcome.SUCCESS, 0)).isEqualTo(3);
		assertThat(durations.count(Outcome.SUCCESS, durations.bounds().indexOf(Duration.ofMillis(10)))).isEqualTo(4);
		assertThat(durations.count(Outcome.SUCCESS, all)).isEqualTo(4);
		assertThat(durations.count(Outcome.FAILURE, all - 1)).isZero();
		assertThat(durations.count(Outcome.FAILURE, all)).isEqualTo(1);
		assertThat(durations.count(Outcome.IGNORED, all)).isZero();
		assertThat(durations.totalSeconds(Outcome.SUCCESS)).isCloseTo(0.007, within(1e-9));
		assertThat(durations.totalSeconds(Outcome.FAILURE)).isCloseTo(120.0, within(1e-9));
	}

	@Test
	void anAbsurdElapsedTimeIsBoundedInTheSum() {
		Breaker breaker = breaker();
		Fixture.timed(breaker, Outcome.SUCCESS, Long.MAX_VALUE);
		Fixture.timed(breaker, Outcome.SUCCESS, Long.MAX_VALUE);
		CallDurations durations = breaker.durations();
		assertThat(durations.totalSeconds(Outcome.SUCCESS)).isEqualTo(2 * 24 * 3600.0);
		assertThat(durations.count(Outcome.SUCCESS, durations.bounds().size() - 1)).isZero();
		assertThat(breaker.snapshot().latency().p50()).isGreaterThan(Duration.ofHours(1));
	}

	@Test
	void aNegativeElapsedTimeCountsAsTooFastToTime() {
		Breaker breaker = breaker();
		Fixture.timed(breaker, Outcome.SUCCESS, -5 * MS);
		assertThat(breaker.snapshot().latency().max()).isEqualTo(Duration.ZERO);
		assertThat(breaker.durations().count(Outcome.SUCCESS, 0)).isEqualTo(1);
		assertThat(breaker.durations().totalSeconds(Outcome.SUCCESS)).isZero();
	}

	@Test
	void theCumulativeHistogramGivesThePercentilesOfAnyPeriod() {
		Breaker breaker = breaker();
		for (int i = 0; i < 100; i++) {
			Fixture.timed(breaker, Outcome.SUCCESS, 20 * MS);
		}
		LatencyHistogram before = breaker.durations().histogram();
		fixture.advance(Duration.ofSeconds(1));
		for (int i = 0; i < 10; i++) {
			Fixture.timed(breaker, Outcome.SUCCESS, 800 * MS);
		}
		LatencyHistogram second = breaker.durations().histogram().since(before);
		assertThat(second.count()).isEqualTo(10);
		assertThat(relativeError(second.percentile(0.5), 800 * MS)).isLessThan(0.10);
		assertThat(before.count()).isEqualTo(100);
		assertThat(relativeError(before.percentile(0.99), 20 * MS)).isLessThan(0.10);
		assertThat(before.since(before).count()).isZero();
		assertThat(before.since(before).percentile(0.5)).isEqualTo(Duration.ZERO);
	}

}
