package dev.breaker.core;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Runs tasks on their own threads, released together, and waits for all; rethrows the
 * first failure.
 */
final class Concurrently {

	private Concurrently() {
	}

	interface Task {

		void run(int index) throws Exception;

	}

	static void run(int threads, Task task) {
		CyclicBarrier start = new CyclicBarrier(threads);
		AtomicReference<Throwable> failure = new AtomicReference<>();
		List<Thread> started = new ArrayList<>();
		for (int i = 0; i < threads; i++) {
			int index = i;
			Thread t = new Thread(() -> {
				try {
					start.await();
					task.run(index);
				}
				catch (Throwable e) {
					failure.compareAndSet(null, e);
				}
			}, "stress-" + i);
			t.start();
			started.add(t);
		}
		for (Thread t : started) {
			try {
				t.join();
			}
			catch (InterruptedException e) {
				Thread.currentThread().interrupt();
				throw new AssertionError(e);
			}
		}
		if (failure.get() != null) {
			throw new AssertionError("a stress thread failed", failure.get());
		}
	}

}
