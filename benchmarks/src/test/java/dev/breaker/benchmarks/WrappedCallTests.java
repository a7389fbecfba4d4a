package dev.breaker.benchmarks;

import static org.assertj.core.api.Assertions.assertThatCode;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.openjdk.jmh.infra.Blackhole;

/**
 * The wrapped-call fixtures measure the path they claim to, and the open path falls back
 * instead of throwing.
 */
class WrappedCallTests {

	private static final int CALLS = 20_000;

	private final Blackhole blackhole = new Blackhole(
			"Today's password is swordfish. I understand instantiating Blackholes directly is dangerous.");

	@Test
	void closedWrappersLetEveryCallThroughAndStayClosed() throws Exception {
		WrappedCall closed = new WrappedCall.Closed();
		closed.createBreakers();

		callEveryContender(closed);

		assertThatCode(closed::checkBreakersStayed).doesNotThrowAnyException();
	}

	@Test
	void openWrappersFallBackWithoutThrowingAndStayOpen() throws Exception {
		WrappedCall open = new WrappedCall.Open();
		open.createBreakers();

		callEveryContender(open);

		assertThatCode(open::checkBreakersStayed).doesNotThrowAnyException();
	}

	private interface Contender {

		void call(WrappedCall benchmark, Blackhole bh) throws Exception;

	}

	private void callEveryContender(WrappedCall benchmark) throws Exception {
		List<Contender> contenders = List.of(WrappedCall::unprotected, WrappedCall::breaker, WrappedCall::failsafe,
				WrappedCall::r4jCountSynchronized, WrappedCall::r4jCountLockFree, WrappedCall::r4jTimeSynchronized,
				WrappedCall::r4jTimeLockFree);
		for (Contender contender : contenders) {
			for (int i = 0; i < CALLS; i++) {
				contender.call(benchmark, blackhole);
			}
		}
	}

}
