package dev.breaker.aspect;

import java.time.Duration;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * The real {@link DelayScheduler}: sleeps with {@link TimeUnit#sleep}, schedules on one
 * daemon timer thread and runs the tasks on daemon workers of its own, so a slow retry
 * never holds the timer, and an application whose own tasks hold the common fork-join
 * pool (calls to the very dependency that hangs) never holds its timeouts.
 */
public final class SystemDelayScheduler implements DelayScheduler, AutoCloseable {

	/**
	 * Workers at most: timeouts and retries run the guarded method's continuations, which
	 * may block; beyond this many at once, tasks wait their turn (threads are made as
	 * needed and end after a minute idle).
	 */
	static final int WORKERS = Math.max(8, 2 * Runtime.getRuntime().availableProcessors());

	private final ScheduledThreadPoolExecutor timer;

	private final ThreadPoolExecutor workers;

	SystemDelayScheduler() {
		this.timer = new ScheduledThreadPoolExecutor(1, daemon("breaker-timer"));
		this.timer.setRemoveOnCancelPolicy(true);
		this.workers = new ThreadPoolExecutor(WORKERS, WORKERS, 1, TimeUnit.MINUTES, new LinkedBlockingQueue<>(),
				daemon("breaker-delayed"));
		this.workers.allowCoreThreadTimeOut(true);
	}

	private static ThreadFactory daemon(String name) {
		return (task) -> {
			Thread thread = new Thread(task, name);
			thread.setDaemon(true);
			return thread;
		};
	}

	@Override
	public void sleep(Duration pause) throws InterruptedException {
		TimeUnit.NANOSECONDS.sleep(pause.toNanos());
	}

	@Override
	public Future<?> schedule(Duration delay, Runnable task) {
		return this.timer.schedule(() -> this.workers.execute(task), delay.toNanos(), TimeUnit.NANOSECONDS);
	}

	@Override
	public void close() {
		this.timer.shutdownNow();
		this.workers.shutdownNow();
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
