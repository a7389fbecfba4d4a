package dev.breaker.aspect;

import java.time.Duration;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;

/**
 * A {@link DelayScheduler} for tests, as one closed with its context: it refuses every
 * pause and timeout, slept or scheduled.
 */
public final class ClosedScheduler implements DelayScheduler {

	@Override
	public void sleep(Duration pause) {
		throw new RejectedExecutionException("scheduler closed");
	}

	@Override
	public Future<?> schedule(Duration delay, Runnable task) {
		throw new RejectedExecutionException("scheduler closed");
	}

}
