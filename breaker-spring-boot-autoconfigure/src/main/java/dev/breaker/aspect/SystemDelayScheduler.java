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

	/**
	 * The scheduler of {@link DelayScheduler#shared()}, made on first use. It hides the
	 * timer's {@code close()}: whoever declares it as a bean would otherwise have Spring
	 * close it (a public close is an inferred destroy method) for everybody in the JVM.
	 */
	static final class Shared implements DelayScheduler {

		static final DelayScheduler INSTANCE = new Shared(new SystemDelayScheduler());

		private final SystemDelayScheduler delegate;

		private Shared(SystemDelayScheduler delegate) {
			this.delegate = delegate;
		}

		@Override
		public void sleep(Duration pause) throws InterruptedException {
			this.delegate.sleep(pause);
		}

		@Override
		public Future<?> schedule(Duration delay, Runnable task) {
			return this.delegate.schedule(delay, task);
		}

		@Override
		public String toString() {
			return "DelayScheduler.shared()";
		}

	}

}
