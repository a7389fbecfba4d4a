package dev.breaker.aspect;

import java.time.Duration;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Future;
import java.util.concurrent.FutureTask;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A {@link DelayScheduler} for tests: sleeps return at once and are recorded, scheduled
 * tasks wait until the test runs them.
 */
final class ManualDelays implements DelayScheduler {

	final List<Duration> sleeps = new CopyOnWriteArrayList<>();

	final List<Duration> scheduled = new CopyOnWriteArrayList<>();

	private final Queue<FutureTask<?>> pending = new ConcurrentLinkedQueue<>();

	/**
	 * Run by the next {@link #schedule}, which then refuses, as a closed scheduler does.
	 */
	private final AtomicReference<Runnable> refusal = new AtomicReference<>();

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

	/**
	 * Has the next {@link #schedule} run {@code meanwhile} and then refuse its task with
	 * a {@link RejectedExecutionException}, as a scheduler closed with its context does.
	 */
	void refuseNext(Runnable meanwhile) {
		this.refusal.set(meanwhile);
	}

	@Override
	public Future<?> schedule(Duration delay, Runnable task) {
		Runnable refused = this.refusal.getAndSet(null);
		if (refused != null) {
			refused.run();
			throw new RejectedExecutionException("scheduler closed");
		}
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
