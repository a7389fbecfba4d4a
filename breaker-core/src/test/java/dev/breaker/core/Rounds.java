package dev.breaker.core;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Many short races on the same threads: every round, each thread runs its part, released
 * together by a barrier, then all wait for each other before the round is judged. Far
 * cheaper per round than new threads, so a stress test can afford tens of thousands of
 * rounds.
 */
final class Rounds {

	/**
	 * Rounds for a race stress test: {@code -Dbreaker.stress=long} runs ten times the CI
	 * default.
	 */
	static int count(int ciDefault) {
		return "long".equals(System.getProperty("breaker.stress")) ? ciDefault * 10 : ciDefault;
	}

	interface Part {

		void run(int thread) throws Exception;

	}

	interface Judge {

		/**
		 * Prepares the next round (before the barrier) or judges the last one (after it);
		 * false stops.
		 */
		void between(int round) throws Exception;

	}

	/**
	 * Runs {@code rounds} rounds of {@code parts}; {@code setUp} runs alone before each
	 * round, {@code judge} after.
	 */
	static void run(int rounds, Judge setUp, Judge judge, Part... parts) {
		int threads = parts.length;
		CyclicBarrier start = new CyclicBarrier(threads + 1);
		CyclicBarrier end = new CyclicBarrier(threads + 1);
		AtomicReference<Throwable> failure = new AtomicReference<>();
		List<Thread> started = new ArrayList<>();
		for (int i = 0; i < threads; i++) {
			int index = i;
			Thread t = new Thread(() -> {
				for (int r = 0; r < rounds; r++) {
					try {
						start.await();
						if (failure.get() == null) {
							parts[index].run(index);
						}
					}
					catch (BrokenBarrierException | InterruptedException e) {
						return;
					}
					catch (Throwable e) {
						failure.compareAndSet(null, e);
					}
					try {
						end.await();
					}
					catch (BrokenBarrierException | InterruptedException e) {
						return;
					}
				}
			}, "round-" + i);
			t.setDaemon(true);
			t.start();
			started.add(t);
		}
		try {
			for (int r = 0; r < rounds && failure.get() == null; r++) {
				setUp.between(r);
				start.await();
				end.await();
				judge.between(r);
			}
		}
		catch (Throwable e) {
			failure.compareAndSet(null, e);
		}
		finally {
			start.reset();
			end.reset();
			for (Thread t : started) {
				t.interrupt();
			}
		}
		if (failure.get() instanceof AssertionError a) {
			throw a;
		}
		if (failure.get() != null) {
			throw new AssertionError("a round failed", failure.get());
		}
	}

}
