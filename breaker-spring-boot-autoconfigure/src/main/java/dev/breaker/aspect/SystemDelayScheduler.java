package dev.breaker.aspect;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import dev.breaker.core.BreakerNames;
import org.jspecify.annotations.Nullable;

/**
 * The real {@link DelayScheduler}: sleeps with {@link TimeUnit#sleep}, schedules on one
 * daemon timer thread and runs the tasks on daemon workers of its own, so a slow retry
 * never holds the timer, and an application whose own tasks hold the common fork-join
 * pool (calls to the very dependency that hangs) never holds its timeouts.
 *
 * <p>
 * {@link #close()} drops the tasks still pending; those scheduled with a {@code dropped}
 * callback ({@link #schedule(Duration, Runnable, Runnable)}: the retries' pauses, the
 * timeouts) have it run, each on a daemon thread the close starts for them (one call
 * whose fallback hangs holds no other), so that their calls end.
 */
public final class SystemDelayScheduler implements DelayScheduler, AutoCloseable {

	private static final System.Logger LOG = System.getLogger(SystemDelayScheduler.class.getName());

	/**
	 * Workers at most: timeouts and retries run the guarded method's continuations, which
	 * may block; beyond this many at once, tasks wait their turn (threads are made as
	 * needed and end after a minute idle).
	 */
	static final int WORKERS = Math.max(8, 2 * Runtime.getRuntime().availableProcessors());

	private final ScheduledThreadPoolExecutor timer;

	private final ThreadPoolExecutor workers;

	/**
	 * The pauses taken with a dropped callback that have neither run nor been dropped.
	 */
	private final Set<Pause> pending = ConcurrentHashMap.newKeySet();

	/** Set before the executors are shut down, so that no pause is left behind. */
	private volatile boolean closed;

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

	/**
	 * Also watches the task until it runs: if this scheduler is closed first, the task is
	 * dropped and {@code dropped} runs (on a thread the close starts for it, on the
	 * timer's if the close came as the delay ended, or on this one if it came as the task
	 * was taken).
	 */
	@Override
	public Future<?> schedule(Duration delay, Runnable task, Runnable dropped) {
		Pause pause = new Pause(task, dropped);
		this.pending.add(pause);
		try {
			pause.timed = this.timer.schedule(pause::handOver, delay.toNanos(), TimeUnit.NANOSECONDS);
		}
		catch (RejectedExecutionException refused) {
			if (pause.abandon(refused)) {
				throw refused; // refused up front: neither task nor dropped runs
			}
			return pause; // a close that came first dropped it
		}
		if (this.closed) {
			// the close may have drained the timer before the task reached it
			pause.drop();
		}
		return pause;
	}

	@Override
	public void close() {
		this.closed = true;
		this.timer.shutdownNow();
		this.workers.shutdownNow();
		if (!this.pending.isEmpty()) {
			// each call ends on a thread of its own: the closing thread (which may hold
			// the context's shutdown lock) never runs a fallback, a fallback that hangs
			// never holds the close, nor any other call (as many threads at most as
			// pauses pending, bounded by the calls in flight; reused as their callbacks
			// return, ended a second after)
			ThreadPoolExecutor ending = new ThreadPoolExecutor(0, Integer.MAX_VALUE, 1, TimeUnit.SECONDS,
					new SynchronousQueue<>(), daemon("breaker-dropped-pause"));
			try {
				for (Pause pause : this.pending) {
					ending.execute(pause::drop);
				}
			}
			finally {
				ending.shutdown(); // its threads end as their callbacks return
			}
		}
	}

	/**
	 * A task scheduled with a dropped callback: it runs, is dropped, or is cancelled,
	 * whichever comes first (the future is completed by the one that wins), and leaves
	 * {@link #pending} then.
	 */
	private final class Pause extends CompletableFuture<Void> implements Runnable {

		private final Runnable task;

		private final Runnable dropped;

		/** The timer's task that hands this one to a worker, once scheduled. */
		volatile @Nullable Future<?> timed;

		Pause(Runnable task, Runnable dropped) {
			this.task = task;
			this.dropped = dropped;
		}

		/** On the timer, once the delay passed. */
		void handOver() {
			try {
				SystemDelayScheduler.this.workers.execute(this);
			}
			catch (RejectedExecutionException closing) {
				drop();
			}
		}

		/** On a worker. */
		@Override
		public void run() {
			if (complete(null)) {
				SystemDelayScheduler.this.pending.remove(this);
				this.task.run();
			}
		}

		/** The scheduler closed before the task ran: {@code dropped} runs instead. */
		void drop() {
			if (completeExceptionally(new RejectedExecutionException("scheduler closed before the delay ended"))) {
				SystemDelayScheduler.this.pending.remove(this);
				try {
					this.dropped.run();
				}
				catch (RuntimeException ex) {
					// the other pauses still end
					LOG.log(System.Logger.Level.WARNING,
							"a retry's pause or an attempt's timeout dropped by a closing scheduler could not end its call: "
									+ BreakerNames.printable(ex.getClass().getName()) + ": "
									+ DiscardedValues.bounded(ex.getMessage()));
				}
			}
		}

		/** The timer refused the task: whether it is this refusal that ends it. */
		boolean abandon(RejectedExecutionException refused) {
			boolean abandoned = completeExceptionally(refused);
			SystemDelayScheduler.this.pending.remove(this);
			return abandoned;
		}

		@Override
		public boolean cancel(boolean mayInterruptIfRunning) {
			boolean cancelled = super.cancel(mayInterruptIfRunning);
			if (cancelled) {
				SystemDelayScheduler.this.pending.remove(this);
				Future<?> timed = this.timed;
				if (timed != null) {
					timed.cancel(false);
				}
			}
			return cancelled;
		}

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
		public Future<?> schedule(Duration delay, Runnable task, Runnable dropped) {
			return this.delegate.schedule(delay, task, dropped);
		}

		@Override
		public String toString() {
			return "DelayScheduler.shared()";
		}

	}

}
