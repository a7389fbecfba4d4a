package dev.breaker.aspect;

import java.time.Duration;
import java.util.concurrent.Future;
import java.util.function.Supplier;

/**
 * A {@link DelayScheduler} for tests whose {@code schedule} fails (a bug, or an executor
 * of the application's own that is saturated), as a buggy one of an application's might,
 * with a message that would forge a log line and flood it ({@link BrokenSleep#FORGED}).
 * Its sleep returns at once.
 */
public final class BrokenSchedule implements DelayScheduler {

	private final Supplier<? extends Throwable> failure;

	/** One whose schedule throws an {@link IllegalStateException}. */
	public BrokenSchedule() {
		this(() -> new IllegalStateException(BrokenSleep.FORGED));
	}

	/** One whose schedule throws what {@code failure} makes (unchecked, or an error). */
	public BrokenSchedule(Supplier<? extends Throwable> failure) {
		this.failure = failure;
	}

	@Override
	public void sleep(Duration pause) {
	}

	@Override
	public Future<?> schedule(Duration delay, Runnable task) {
		throw BrokenSchedule.<RuntimeException>sneaky(this.failure.get());
	}

	@Override
	public Future<?> schedule(Duration delay, Runnable task, Runnable dropped) {
		throw BrokenSchedule.<RuntimeException>sneaky(this.failure.get());
	}

	@SuppressWarnings("unchecked")
	private static <T extends Throwable> T sneaky(Throwable failure) throws T {
		throw (T) failure;
	}

}
