package dev.breaker.benchmarks;

import dev.breaker.core.Breaker;
import dev.breaker.core.Outcome;
import dev.breaker.core.Permit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.infra.Blackhole;

/**
 * The closed path: every call is let through and its success recorded.
 *
 * <p>
 * Besides every contender's row, the breaker is measured with latency recording off
 * ({@code recordLatency(false)}), and with every call reporting 20 ms, as a real remote
 * call does: the {@code breaker} row's call takes no time on the cached ticker, so it
 * records no latency; the timed rows pay for the histogram's bin, bucket and sum of each
 * call.
 */
public final class ClosedPath {

	/** What a remote call takes, as the breaker's ticker measures it. */
	static final long TWENTY_MS = 20_000_000L;

	private ClosedPath() {
	}

	/** The rows only the closed path has. */
	public abstract static class Closed extends GuardedCall {

		@Override
		boolean open() {
			return false;
		}

		@Benchmark
		public void breakerLatencyOff(Blackhole bh) {
			measured(breakerLatencyOff, bh);
		}

		@Benchmark
		public void breakerTimed(Blackhole bh) {
			timed(breaker, bh);
		}

		@Benchmark
		public void breakerTimedLatencyOff(Blackhole bh) {
			timed(breakerLatencyOff, bh);
		}

		private void measured(Breaker b, Blackhole bh) {
			Permit permit = b.acquire();
			if (!permit.granted()) {
				bh.consume(FALLBACK);
				return;
			}
			long start = b.nanos();
			String reply = dependency.call();
			b.release(permit, Outcome.SUCCESS, b.nanos() - start);
			bh.consume(reply);
		}

		private void timed(Breaker b, Blackhole bh) {
			Permit permit = b.acquire();
			if (!permit.granted()) {
				bh.consume(FALLBACK);
				return;
			}
			String reply = dependency.call();
			b.release(permit, Outcome.SUCCESS, TWENTY_MS);
			bh.consume(reply);
		}

	}

	/** One caller. */
	@Threads(1)
	public static class OneThread extends Closed {

	}

	/** Two callers sharing each breaker. */
	@Threads(2)
	public static class TwoThreads extends Closed {

	}

}
