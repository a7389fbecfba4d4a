package dev.breaker.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

import java.time.Duration;
import java.util.function.BiConsumer;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.openjdk.jmh.infra.Blackhole;

/**
 * The benchmark fixtures measure the path they claim to: closed stays closed, open stays
 * open.
 */
class GuardedCallTests {

	private static final int CALLS = 50_000;

	private final Blackhole blackhole = new Blackhole(
			"Today's password is swordfish. I understand instantiating Blackholes directly is dangerous.");

	@Test
	void closedPathBreakersStayClosedThroughManySuccessfulCalls() {
		GuardedCall closed = new ClosedPath.OneThread();
		closed.createBreakers();

		callEveryContender(closed);

		assertThatCode(closed::checkBreakersStayed).doesNotThrowAnyException();
	}

	@Test
	void theClosedPathsLatencyRowsStayClosedAndRecordWhatTheySay() {
		ClosedPath.OneThread closed = new ClosedPath.OneThread();
		closed.createBreakers();

		for (int i = 0; i < CALLS; i++) {
			closed.breakerLatencyOff(blackhole);
			closed.breakerTimed(blackhole);
			closed.breakerTimedLatencyOff(blackhole);
		}

		assertThatCode(closed::checkBreakersStayed).doesNotThrowAnyException();
		assertThat(closed.breakerLatencyOff.durations()).isNull();
		assertThat(closed.breaker.durations().histogram().count()).isEqualTo(CALLS);
		assertThat(closed.breaker.snapshot().latency().p50()).isBetween(Duration.ofMillis(18), Duration.ofMillis(22));
	}

	@Test
	void openPathBreakersAreTrippedAndStayOpenThroughManyCalls() {
		GuardedCall open = new OpenPath.TwoThreads();
		open.createBreakers();

		callEveryContender(open);

		assertThatCode(open::checkBreakersStayed).doesNotThrowAnyException();
	}

	@Test
	void tearDownFailsWhenABreakerLeftTheMeasuredState() {
		GuardedCall closed = new ClosedPath.TwoThreads();
		closed.createBreakers();
		Contenders.trip(closed.failsafe);

		assertThatIllegalStateException().isThrownBy(closed::checkBreakersStayed)
			.withMessage("not closed after measuring: failsafe");
	}

	private void callEveryContender(GuardedCall benchmark) {
		List<BiConsumer<GuardedCall, Blackhole>> contenders = List.of(GuardedCall::unprotected, GuardedCall::breaker,
				GuardedCall::naive, GuardedCall::failsafe, GuardedCall::r4jCountSynchronized,
				GuardedCall::r4jCountLockFree, GuardedCall::r4jTimeSynchronized, GuardedCall::r4jTimeLockFree);
		for (BiConsumer<GuardedCall, Blackhole> contender : contenders) {
			for (int i = 0; i < CALLS; i++) {
				contender.accept(benchmark, blackhole);
			}
		}
	}

}
