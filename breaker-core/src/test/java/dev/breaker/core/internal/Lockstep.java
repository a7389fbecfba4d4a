package dev.breaker.core.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Writers that enter every new bucket together, on purpose: in each round every writer
 * does its work at the round's time, and the last one to finish moves the time on by one
 * step (rolling the window over) and opens the next round.
 */
final class Lockstep {

	/** What one writer does in one round. */
	@FunctionalInterface
	interface Work {

		void run(int writer, long now);

	}

	private Lockstep() {
	}

	/**
	 * Runs {@code rounds} rounds of {@code writers} threads, each round at
	 * {@code now.get()}, and returns when every writer has finished.
	 */
	static void run(int writers, int rounds, AtomicLong now, long step, Work work) throws InterruptedException {
		AtomicInteger round = new AtomicInteger();
		AtomicInteger arrived = new AtomicInteger();
		List<Thread> threads = new ArrayList<>();
		for (int w = 0; w < writers; w++) {
			int writer = w;
			threads.add(new Thread(() -> {
				for (int r = 0; r < rounds; r++) {
					while (round.get() < r) {
						Thread.onSpinWait();
					}
					work.run(writer, now.get());
					if (arrived.incrementAndGet() == writers * (r + 1)) {
						now.addAndGet(step);
						round.incrementAndGet();
					}
				}
			}));
		}
		threads.forEach(Thread::start);
		for (Thread t : threads) {
			t.join();
		}
	}

}
