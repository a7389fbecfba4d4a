package dev.breaker.core;

import java.util.ArrayDeque;
import java.util.Queue;

/**
 * What listeners hand to another thread: queued as they run, then run on a worker thread
 * one at a time until none is left (or a most is reached).
 */
final class HandOff {

	private final Queue<Runnable> queue = new ArrayDeque<>();

	/** Queues {@code work} (from a listener, on any thread). */
	void add(Runnable work) {
		synchronized (queue) {
			queue.add(work);
		}
	}

	/**
	 * Runs the queued work, and what it queues in turn, on another thread until none is
	 * left or {@code most} ran.
	 * @return how many ran
	 */
	int runOnAnotherThread(int most) throws InterruptedException {
		int[] ran = new int[1];
		Thread worker = new Thread(() -> {
			while (ran[0] < most) {
				Runnable next;
				synchronized (queue) {
					next = queue.poll();
				}
				if (next == null) {
					return;
				}
				ran[0]++;
				next.run();
			}
		}, "async listener worker");
		worker.start();
		worker.join(60_000);
		return ran[0];
	}

}
