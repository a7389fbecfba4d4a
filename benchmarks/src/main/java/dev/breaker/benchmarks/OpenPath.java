package dev.breaker.benchmarks;

import org.openjdk.jmh.annotations.Threads;

/**
 * The open path: every breaker has tripped and every call is refused and answered by the
 * fallback.
 */
public final class OpenPath {

	private OpenPath() {
	}

	/** One caller. */
	@Threads(1)
	public static class OneThread extends GuardedCall {

		@Override
		boolean open() {
			return true;
		}

	}

	/** Two callers sharing each breaker. */
	@Threads(2)
	public static class TwoThreads extends GuardedCall {

		@Override
		boolean open() {
			return true;
		}

	}

}
