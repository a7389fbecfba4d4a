package dev.breaker.core;

import dev.breaker.core.spi.SharedStateHooks;
import static dev.breaker.core.Fixture.fail;
import static dev.breaker.core.Fixture.succeed;
import static dev.breaker.core.Fixture.timed;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Thresholds that follow traffic: the rate rules need max(minimumCalls, minimumCallsRatio
 * x peak calls per window of the last hour), and auto probes are 10% of the peak
 * concurrency, in [1, 32].
 */
class TrafficThresholdsTests {

	private final Fixture fixture = new Fixture();

	private Breaker scaled(double ratio) {
		return fixture
			.breaker(c -> c.consecutiveFailures(0).failureRateThreshold(50).minimumCalls(20).minimumCallsRatio(ratio));
	}

	/**
	 * {@code perSecond} successes each second for {@code seconds}, spread over the
	 * second, each taking {@code nanos}.
	 */
	private void traffic(Breaker breaker, int perSecond, int seconds, long nanos) {
		long step = Duration.ofSeconds(1).toNanos() / perSecond;
		for (int s = 0; s < seconds; s++) {
			for (int i = 0; i < perSecond; i++) {
				timed(breaker, Outcome.SUCCESS, nanos);
				fixture.ticker.advanceNanos(step);
			}
		}
	}

	/** The peak calls per window the snapshot shows, and the minimum it raises. */
	private static void assertPeak(Breaker breaker, long peakCallsPerWindow, int minimumCalls) {
		Snapshot.Traffic traffic = breaker.snapshot().traffic();
		assertThat(traffic.peakCallsPerWindow()).isEqualTo(peakCallsPerWindow);
		assertThat(traffic.minimumCalls()).isEqualTo(minimumCalls);
	}

	/**
	 * {@code failures - 1} failures leave the breaker closed, the next one trips it.
	 */
	private static void tripsOnFailure(Breaker breaker, int failures) {
		fail(breaker, failures - 1);
		assertThat(breaker.state()).isEqualTo(State.CLOSED);
		fail(breaker, 1);
		assertThat(breaker.state()).isEqualTo(State.OPEN);
	}

	@Test
	void thePeakCallsPerWindowFollowTrafficUp() {
		Breaker breaker = scaled(0.5);
		traffic(breaker, 100, 12, 0);
		assertThat(breaker.snapshot().traffic().peakCallsPerWindow()).isEqualTo(1000);
		traffic(breaker, 250, 12, 0);
		assertThat(breaker.snapshot().traffic().peakCallsPerWindow()).isEqualTo(2500);
	}

	@Test
	void thePeakIsTheBusiestWindowNotTheLatest() {
		Breaker breaker = scaled(0.5);
		traffic(breaker, 250, 12, 0);
		traffic(breaker, 100, 12, 0);
		assertPeak(breaker, 2500, 1250);
	}

	@Test
	void thePeakDecaysWithinTheHour() {
		Breaker breaker = scaled(0.5);
		traffic(breaker, 250, 12, 0);
		for (int minute = 1; minute <= 54; minute++) {
			traffic(breaker, 10, 60, 0);
			assertThat(breaker.snapshot().traffic().peakCallsPerWindow()).as("after %d minutes", minute)
				.isEqualTo(2500);
		}
		for (int minute = 55; minute <= 61; minute++) {
			traffic(breaker, 10, 60, 0);
		}
		assertPeak(breaker, 100, 50);
	}

	@Test
	void thePeakDecaysOverAnHourWithNoTrafficAtAll() {
		Breaker breaker = scaled(0.5);
		traffic(breaker, 250, 12, 0);
		fixture.advance(Duration.ofMinutes(61));
		assertPeak(breaker, 0, 20);
	}

	@Test
	void aBusyServiceIsNotJudgedOnTheFirstFailuresOfANewEra() {
		Breaker breaker = scaled(0.5);
		// peak 1000 calls per window: the rate rules need 500
		traffic(breaker, 100, 12, 0);
		// a fresh era: the window starts empty, as after a deploy or a recovery
		breaker.reset();
		fail(breaker, 300);
		assertThat(breaker.state()).isEqualTo(State.CLOSED);
		tripsOnFailure(breaker, 200);
		assertThat(breaker.snapshot().transitions()).last()
			.extracting(Transition::reason)
			.isEqualTo("failure rate 100% >= 50% over 500 calls");
	}

	@Test
	void aSuccessThatReachesARaisedMinimumIsJudgedByTheNextTickWhileFailuresAreJudgedAtOnce() {
		Breaker breaker = scaled(0.5);
		traffic(breaker, 100, 12, 0); // the rate rules need 500
		breaker.reset();
		fail(breaker, 260);
		succeed(breaker, 240); // 500 calls, 52% failed, all in one tick
		assertThat(breaker.state()).isEqualTo(State.CLOSED);
		fixture.advance(Duration.ofMillis(1));
		succeed(breaker, 1);
		assertThat(breaker.state()).isEqualTo(State.OPEN);
		breaker.reset();
		succeed(breaker, 250);
		tripsOnFailure(breaker, 250);
	}

	@Test
	void belowMinimumCallsASuccessThatReachesItIsJudgedAtOnceEvenWithARatio() {
		Breaker breaker = scaled(0.5); // no traffic yet: the minimum is minimumCalls, 20
		fail(breaker, 10);
		succeed(breaker, 9);
		assertThat(breaker.state()).isEqualTo(State.CLOSED);
		succeed(breaker, 1);
		assertThat(breaker.state()).isEqualTo(State.OPEN);
	}

	@Test
	void aQuietServiceStillTripsOnMinimumCalls() {
		Breaker breaker = scaled(0.5);
		// peak 20 calls per window: half of it is below minimumCalls
		traffic(breaker, 2, 12, 0);
		breaker.reset();
		tripsOnFailure(breaker, 20);
	}

	@Test
	void withoutARatioTheMinimumIsMinimumCallsWhateverTheTraffic() {
		Breaker breaker = scaled(0);
		traffic(breaker, 100, 12, 0);
		Snapshot.Traffic traffic = breaker.snapshot().traffic();
		assertThat(traffic.tracked()).isFalse();
		assertThat(traffic.minimumCalls()).isEqualTo(20);
		assertThat(traffic.maxProbes()).isEqualTo(10);
		breaker.reset();
		fail(breaker, 20);
		assertThat(breaker.state()).isEqualTo(State.OPEN);
	}

	@Test
	void theSlowCallRuleNeedsTheRaisedMinimumToo() {
		Breaker breaker = fixture.slowCallRateOnly((c) -> c.minimumCalls(5).minimumCallsRatio(0.5));
		traffic(breaker, 10, 12, 0); // peak 100: the rules need 50
		breaker.reset();
		for (int i = 0; i < 49; i++) {
			timed(breaker, Outcome.SUCCESS, Duration.ofSeconds(2).toNanos());
		}
		assertThat(breaker.state()).isEqualTo(State.CLOSED);
		timed(breaker, Outcome.SUCCESS, Duration.ofSeconds(2).toNanos());
		assertThat(breaker.state()).isEqualTo(State.OPEN);
	}

	private Breaker autoProbes() {
		return fixture.breaker(c -> c.consecutiveFailures(1)
			.openWait(Duration.ofSeconds(30))
			.halfOpenMaxProbesAuto()
			.halfOpenSuccessesToClose(1000)
			.halfOpenFailuresToReopen(1000));
	}

	private List<Permit> grab(Breaker breaker) {
		List<Permit> granted = new ArrayList<>();
		for (Permit p = breaker.acquire(); p.granted(); p = breaker.acquire()) {
			granted.add(p);
		}
		return granted;
	}

	/**
	 * Ramps the probes up (one success a round doubles them): the widths of successive
	 * rounds.
	 */
	private List<Integer> ramp(Breaker breaker) {
		List<Integer> widths = new ArrayList<>();
		for (int round = 0; round < 7; round++) {
			List<Permit> probes = grab(breaker);
			widths.add(probes.size());
			breaker.release(probes.get(0), Outcome.SUCCESS, 0);
			probes.stream().skip(1).forEach(p -> breaker.release(p, Outcome.IGNORED, 0));
		}
		return widths;
	}

	@Test
	void autoProbesAloneLeaveTheMinimumAtMinimumCalls() {
		Breaker breaker = fixture
			.breaker(c -> c.consecutiveFailures(0).failureRateThreshold(50).minimumCalls(20).halfOpenMaxProbesAuto());
		traffic(breaker, 100, 12, 0);
		assertThat(breaker.snapshot().traffic().tracked()).isTrue();
		assertThat(breaker.snapshot().traffic().minimumCalls()).isEqualTo(20);
		breaker.reset();
		tripsOnFailure(breaker, 20);
	}

	@Test
	void autoProbesAreATenthOfThePeakConcurrency() {
		Breaker breaker = autoProbes();
		// 400 calls a second taking 250ms each: 100 calls in flight on average
		traffic(breaker, 400, 3, Duration.ofMillis(250).toNanos());
		assertThat(breaker.snapshot().traffic().peakConcurrentCalls()).isEqualTo(100);
		assertThat(breaker.snapshot().traffic().maxProbes()).isEqualTo(10);
		fail(breaker, 1);
		fixture.advance(Duration.ofSeconds(30));
		assertThat(breaker.state()).isEqualTo(State.HALF_OPEN);
		assertThat(ramp(breaker)).containsExactly(1, 2, 4, 8, 10, 10, 10);
		assertThat(breaker.snapshot().traffic().maxProbes()).isEqualTo(10);
		assertThat(breaker.snapshot().probes().limit()).isEqualTo(10);
	}

	@Test
	void autoProbesRoundUp() {
		Breaker breaker = autoProbes();
		// 12.2 in flight on average
		traffic(breaker, 200, 3, Duration.ofMillis(61).toNanos());
		assertThat(breaker.snapshot().traffic().peakConcurrentCalls()).isEqualTo(12.2);
		assertThat(breaker.snapshot().traffic().maxProbes()).isEqualTo(2);
	}

	@Test
	void autoProbesAreAtLeastOne() {
		Breaker breaker = autoProbes();
		assertThat(breaker.snapshot().traffic().maxProbes()).isEqualTo(1);
		fail(breaker, 1);
		fixture.advance(Duration.ofSeconds(30));
		assertThat(ramp(breaker)).containsOnly(1);
	}

	@Test
	void autoProbesAreAtMostThirtyTwo() {
		Breaker breaker = autoProbes();
		traffic(breaker, 1000, 3, Duration.ofSeconds(1).toNanos()); // 1000 in flight
		assertThat(breaker.snapshot().traffic().maxProbes()).isEqualTo(32);
		fail(breaker, 1);
		fixture.advance(Duration.ofSeconds(30));
		assertThat(ramp(breaker)).containsExactly(1, 2, 4, 8, 16, 32, 32);
	}

	@Test
	void autoProbesFollowThePeakConcurrencyOfTheLastHour() {
		Breaker breaker = autoProbes();
		traffic(breaker, 400, 3, Duration.ofMillis(250).toNanos());
		traffic(breaker, 40, 60, Duration.ofMillis(250).toNanos()); // 10 in flight
		assertThat(breaker.snapshot().traffic().maxProbes()).isEqualTo(10);
		for (int minute = 0; minute < 61; minute++) {
			traffic(breaker, 40, 60, Duration.ofMillis(250).toNanos());
		}
		assertThat(breaker.snapshot().traffic().peakConcurrentCalls()).isEqualTo(10);
		assertThat(breaker.snapshot().traffic().maxProbes()).isEqualTo(1);
	}

	@Test
	void anEpisodeKeepsTheProbeCountItBeganWith() {
		Breaker breaker = autoProbes();
		traffic(breaker, 400, 3, Duration.ofMillis(250).toNanos());
		fail(breaker, 1);
		fixture.advance(Duration.ofMinutes(70)); // the peak is forgotten meanwhile
		assertThat(breaker.state()).isEqualTo(State.HALF_OPEN);
		assertThat(breaker.snapshot().traffic().maxProbes()).isEqualTo(1);
		breaker.forceOpen();
		breaker.reset();
		traffic(breaker, 400, 3, Duration.ofMillis(250).toNanos());
		fail(breaker, 1);
		fixture.advance(Duration.ofSeconds(30));
		assertThat(breaker.snapshot().traffic().maxProbes()).isEqualTo(10);
		fixture.advance(Duration.ofMinutes(70));
		assertThat(breaker.snapshot().traffic().maxProbes()).isEqualTo(10);
	}

	@Test
	void aFleetShareStillCapsAutoProbes() {
		Breaker breaker = autoProbes();
		traffic(breaker, 400, 3, Duration.ofMillis(250).toNanos());
		fail(breaker, 1);
		fixture.advance(Duration.ofSeconds(30));
		assertThat(breaker.state()).isEqualTo(State.HALF_OPEN);
		SharedStateHooks.limitProbes(breaker, 3);
		assertThat(ramp(breaker)).containsExactly(1, 2, 3, 3, 3, 3, 3);
	}

	@Test
	void aFixedProbeCountShowsInTheTraffic() {
		Breaker breaker = fixture.breaker(c -> c.halfOpenMaxProbes(7));
		assertThat(breaker.snapshot().traffic()).isEqualTo(new Snapshot.Traffic(false, 0, 0, 20, 7));
	}

	@Test
	void theDurationOfTheFirstCallOfEachTickIsTheSample() {
		Breaker breaker = autoProbes();
		long step = Duration.ofMillis(10).toNanos();
		// 3 seconds; two calls a tick, the first of 100ms, then 900ms
		for (int tick = 0; tick < 300; tick++) {
			timed(breaker, Outcome.SUCCESS, Duration.ofMillis(100).toNanos());
			timed(breaker, Outcome.SUCCESS, Duration.ofMillis(900).toNanos());
			fixture.ticker.advanceNanos(step);
		}
		// 200 calls a second x the sampled 100ms
		assertThat(breaker.snapshot().traffic().peakConcurrentCalls()).isEqualTo(20);
	}

	@Test
	void theSampleIsTheMeanOfTheWholeBucket() {
		Breaker breaker = autoProbes();
		long step = Duration.ofMillis(10).toNanos();
		for (int i = 0; i < 300; i++) { // 100 calls a second, alternately 100ms and 300ms
			timed(breaker, Outcome.SUCCESS, Duration.ofMillis(i % 2 == 0 ? 100 : 300).toNanos());
			fixture.ticker.advanceNanos(step);
		}
		assertThat(breaker.snapshot().traffic().peakConcurrentCalls()).isEqualTo(20);
	}

	@Test
	void everyFinishedCallCountsTowardConcurrencyButOnlySuccessesFailuresAndTimeoutsTowardTheRateMinimum() {
		Breaker breaker = fixture.breaker(c -> c.consecutiveFailures(0)
			.failureRateThreshold(50)
			.timeoutWeight(0)
			.minimumCallsRatio(0.5)
			.halfOpenMaxProbesAuto());
		long step = Duration.ofMillis(10).toNanos();
		Outcome[] outcomes = { Outcome.TIMEOUT, Outcome.IGNORED, Outcome.THROTTLED, Outcome.SUCCESS };
		for (int i = 0; i < 1200; i++) { // 100 calls a second for 12 seconds, 500ms each
			timed(breaker, outcomes[i % 4], Duration.ofMillis(500).toNanos());
			fixture.ticker.advanceNanos(step);
		}
		Snapshot.Traffic traffic = breaker.snapshot().traffic();
		assertThat(traffic.peakConcurrentCalls()).isEqualTo(50);
		assertThat(traffic.peakCallsPerWindow()).isEqualTo(500); // timeouts and successes
	}

	@Test
	void aWindowClosedAfterAQuietSpellCountsOnlyItsOwnBuckets() {
		Breaker breaker = scaled(0.5);
		succeed(breaker, 1000);
		fixture.advance(Duration.ofSeconds(11));
		succeed(breaker, 1); // closes second 0: 1000
		fixture.advance(Duration.ofSeconds(1));
		// closes second 11: its window holds that one call, not second 0's
		succeed(breaker, 1);
		assertThat(breaker.snapshot().traffic().peakCallsPerWindow()).isEqualTo(1000);
	}

}
