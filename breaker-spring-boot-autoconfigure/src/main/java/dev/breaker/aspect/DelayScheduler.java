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
	 * Run a task once the delay has passed, as {@link #schedule(Duration, Runnable)}, and
	 * run {@code dropped} instead if the scheduler takes the task but will never run it:
	 * it was closed while the delay was pending (the default scheduler closes with its
	 * application context). The retries' pauses and the timeouts are scheduled this way,
	 * so that a call paused for a retry when the context closes ends, with its last
	 * attempt, and an attempt whose timeout is dropped ends at once, rather than waiting
	 * for ever.
	 *
	 * <p>
	 * At most one of {@code task} and {@code dropped} runs, and neither once the handle
	 * is cancelled first. A scheduler that cannot take the task at all throws, as
	 * {@link #schedule(Duration, Runnable)} does, and runs neither. {@code dropped} may
	 * run on another thread before this method returns.
	 *
	 * <p>
	 * The default schedules {@code task} alone and never runs {@code dropped}: right for
	 * a scheduler that runs every task it took (a test's, or one never closed); one that
	 * may drop tasks it took should override it.
	 * @param delay how long from now
	 * @param task what to run
	 * @param dropped what to run if the scheduler drops the task (closed before it ran)
	 * @return a handle to cancel the task
	 */
	default Future<?> schedule(Duration delay, Runnable task, Runnable dropped) {
		return schedule(delay, task);
	}

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
