package dev.breaker.aspect;

import java.time.Duration;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Future;
import java.util.concurrent.FutureTask;

/**
 * A {@link DelayScheduler} for tests: sleeps return at once and are recorded, scheduled
 * tasks wait until the test runs them.
 */
final class ManualDelays implements DelayScheduler {

	final List<Duration> sleeps = new CopyOnWriteArrayList<>();

	final List<Duration> scheduled = new CopyOnWriteArrayList<>();

	private final Queue<FutureTask<?>> pending = new ConcurrentLinkedQueue<>();

	/**
	 * Returns at once, or throws for an interrupted thread as {@link Thread#sleep} does.
	 */
	@Override
	public void sleep(Duration pause) throws InterruptedException {
		this.sleeps.add(pause);
		if (Thread.interrupted()) {
			throw new InterruptedException("interrupted during the pause");
		}
	}

	@Override
	public Future<?> schedule(Duration delay, Runnable task) {
		this.scheduled.add(delay);
		FutureTask<?> future = new FutureTask<>(task, null);
		this.pending.add(future);
		return future;
	}

	/**
	 * Runs every task scheduled so far and those they schedule, as if their delays had
	 * passed.
	 */
	void runPending() {
		FutureTask<?> task;
		while ((task = this.pending.poll()) != null) {
			task.run();
		}
	}

	/** Tasks scheduled and neither run nor cancelled. */
	long waiting() {
		return this.pending.stream().filter((task) -> !task.isCancelled()).count();
	}

}
