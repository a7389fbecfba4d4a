package dev.breaker.aspect;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * The real scheduler ({@link DelayScheduler#system()}), closed with the context that
 * declares it, that lets a test wait until it took a retry's pause (a pause with a
 * dropped callback). For calls that schedule their pauses: it does not sleep.
 */
public final class WatchedScheduler implements DelayScheduler, AutoCloseable {

	private final SystemDelayScheduler delegate = DelayScheduler.system();

	private final CountDownLatch taken = new CountDownLatch(1);

	@Override
	public void sleep(Duration pause) {
		throw new UnsupportedOperationException("the calls watched schedule their pauses");
	}

	@Override
	public Future<?> schedule(Duration delay, Runnable task) {
		return this.delegate.schedule(delay, task);
	}

	@Override
	public Future<?> schedule(Duration delay, Runnable task, Runnable dropped) {
		Future<?> pause = this.delegate.schedule(delay, task, dropped);
		this.taken.countDown();
		return pause;
	}

	/** Whether a retry's pause was taken within ten seconds. */
	public boolean awaitPause() throws InterruptedException {
		return this.taken.await(10, TimeUnit.SECONDS);
	}

	@Override
	public void close() {
		this.delegate.close();
	}

}
