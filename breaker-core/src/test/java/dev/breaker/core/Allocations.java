package dev.breaker.core;

import java.lang.management.ManagementFactory;
import java.util.function.Supplier;

import static org.assertj.core.api.Assertions.assertThat;

/** Bytes allocated by the calling thread, from com.sun.management.ThreadMXBean. */
final class Allocations {

	private static final com.sun.management.ThreadMXBean THREADS = (com.sun.management.ThreadMXBean) ManagementFactory
		.getThreadMXBean();

	private Allocations() {
	}

	@SuppressWarnings("deprecation") // Thread.threadId() exists only from Java 19
	static long allocatedByThisThread() {
		return THREADS.getThreadAllocatedBytes(Thread.currentThread().getId());
	}

	/**
	 * The least bytes {@code work} allocated on this thread over three runs: a steady
	 * per-call (or every-N-calls) allocation shows in every run, while a one-off JIT
	 * deoptimisation shows in one.
	 */
	static long steady(Runnable work) {
		long least = Long.MAX_VALUE;
		for (int i = 0; i < 3 && least > 0; i++) {
			least = Math.min(least, of(work));
		}
		return least;
	}

	/**
	 * Bytes {@code work} allocates on this thread, minus what measuring itself allocates.
	 */
	static long of(Runnable work) {
		long calibrate = allocatedByThisThread();
		long calibrated = allocatedByThisThread() - calibrate;
		long before = allocatedByThisThread();
		work.run();
		return allocatedByThisThread() - before - calibrated;
	}

	/**
	 * The least bytes one construction of a breaker allocated, measured once after each
	 * of {@code rounds} runs of {@code runs} more: early ones still pay for temporaries
	 * the JIT's escape analysis later removes, so a single early measurement depends on
	 * what ran before it.
	 */
	static long settledBytes(Supplier<Breaker> construction, int rounds, int runs) {
		long least = Long.MAX_VALUE;
		for (int round = 0; round < rounds; round++) {
			for (int i = 0; i < runs; i++) {
				construction.get();
			}
			Breaker[] keep = new Breaker[1];
			least = Math.min(least, of(() -> keep[0] = construction.get()));
			assertThat(keep[0].state()).isEqualTo(State.CLOSED);
		}
		return least;
	}

}
