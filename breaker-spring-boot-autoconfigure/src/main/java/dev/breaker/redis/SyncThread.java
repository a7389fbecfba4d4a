package dev.breaker.redis;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * The one thread ({@code breaker-fleet-sync}) a replica's fleet jobs run on: callers'
 * threads and Lettuce's reply threads only hand work to it. A task that fails is logged
 * and the thread goes on; once closed, tasks handed to it are dropped.
 */
final class SyncThread {

	private static final System.Logger LOG = System.getLogger(FleetSync.class.getName());

	private final ScheduledExecutorService executor;

	private volatile boolean closed;

	SyncThread() {
		ScheduledThreadPoolExecutor sync = new ScheduledThreadPoolExecutor(1, task -> {
			Thread thread = new Thread(task, "breaker-fleet-sync");
			thread.setDaemon(true);
			return thread;
		});
		sync.setRemoveOnCancelPolicy(true);
		this.executor = sync;
	}

	/**
	 * The executor of the thread, for periodic work (which hands its tasks on with
	 * {@link #submit}).
	 */
	ScheduledExecutorService executor() {
		return executor;
	}

	boolean closed() {
		return closed;
	}

	/** Runs a task on the sync thread; false when closing. */
	boolean submit(Runnable task) {
		if (closed) {
			return false;
		}
		try {
			executor.execute(() -> {
				try {
					task.run();
				}
				catch (RuntimeException e) {
					LOG.log(System.Logger.Level.WARNING, "fleet sync task failed", e);
				}
			});
			return true;
		}
		catch (RejectedExecutionException shuttingDown) {
			return false;
		}
	}

	/** Runs a task on the sync thread after a delay; nothing when closing. */
	void schedule(Runnable task, long delayMillis) {
		if (closed) {
			return;
		}
		try {
			executor.schedule(() -> submit(task), delayMillis, TimeUnit.MILLISECONDS);
		}
		catch (RejectedExecutionException shuttingDown) {
			// closing: the task no longer matters
		}
	}

	/**
	 * A future of work done on the sync thread (a reply handled where the state it
	 * changes lives).
	 */
	<T> CompletableFuture<T> supply(Supplier<CompletableFuture<T>> work) {
		CompletableFuture<T> result = new CompletableFuture<>();
		if (!submit(() -> {
			try {
				work.get().whenComplete((value, error) -> {
					if (error != null) {
						result.completeExceptionally(error);
					}
					else {
						result.complete(value);
					}
				});
			}
			catch (RuntimeException e) {
				result.completeExceptionally(e);
				throw e;
			}
		})) {
			result.cancel(false);
		}
		return result;
	}

	void close() {
		closed = true;
		executor.shutdownNow();
	}

}
