package dev.breaker.aspect;

import java.time.Duration;
import java.util.concurrent.Future;

/**
 * How the aspect waits: the pause before a retry and the timeout of an asynchronous call.
 * Tests replace it so nothing really sleeps.
 */
public interface DelayScheduler {

	/**
	 * Block the calling thread for the pause before a synchronous retry.
	 * @param pause how long
	 * @throws InterruptedException if the thread is interrupted while waiting
	 */
	void sleep(Duration pause) throws InterruptedException;

	/**
	 * Run a task once the delay has passed, on a thread other than the timer's own.
	 * @param delay how long from now
	 * @param task what to run
	 * @return a handle to cancel the task (a cancelled timeout no longer holds its call)
	 */
	Future<?> schedule(Duration delay, Runnable task);

	/**
	 * The real clock: {@link Thread#sleep} and one daemon timer thread handing tasks to
	 * daemon workers of its own (never the common fork-join pool, which the application's
	 * own tasks may hold).
	 * @return a new scheduler; close it when done
	 */
	static SystemDelayScheduler system() {
		return new SystemDelayScheduler();
	}

	/**
	 * One real clock shared by everything made without a scheduler of its own (HTTP
	 * interceptors and filters built by hand), created on first use and never closed: its
	 * timer thread is a daemon.
	 * @return the shared scheduler
	 */
	static DelayScheduler shared() {
		return SystemDelayScheduler.Shared.INSTANCE;
	}

}
