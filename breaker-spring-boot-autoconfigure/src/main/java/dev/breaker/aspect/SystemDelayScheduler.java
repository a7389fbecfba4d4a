package dev.breaker.aspect;

import java.time.Duration;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * The real {@link DelayScheduler}: sleeps with {@link TimeUnit#sleep}, schedules on one
 * daemon timer thread and runs the tasks on the common fork-join pool, so a slow retry
 * never holds the timer.
 */
public final class SystemDelayScheduler implements DelayScheduler, AutoCloseable {

	private final ScheduledThreadPoolExecutor timer;

	SystemDelayScheduler() {
		this.timer = new ScheduledThreadPoolExecutor(1, (task) -> {
			Thread thread = new Thread(task, "breaker-timer");
			thread.setDaemon(true);
			return thread;
		});
		this.timer.setRemoveOnCancelPolicy(true);
	}

	@Override
	public void sleep(Duration pause) throws InterruptedException {
		TimeUnit.NANOSECONDS.sleep(pause.toNanos());
	}

	@Override
	public Future<?> schedule(Duration delay, Runnable task) {
		return this.timer.schedule(() -> ForkJoinPool.commonPool().execute(task), delay.toNanos(),
				TimeUnit.NANOSECONDS);
	}

	@Override
	public void close() {
		this.timer.shutdownNow();
	}

	/** The scheduler of {@link DelayScheduler#shared()}, made on first use. */
	static final class Shared {

		static final DelayScheduler INSTANCE = new SystemDelayScheduler();

		private Shared() {
		}

	}

}
