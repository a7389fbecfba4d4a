package dev.breaker.aspect;

import java.time.Duration;
import java.util.concurrent.Future;

/**
 * A {@link DelayScheduler} for tests whose sleep fails (a bug, not an interrupt), as a
 * buggy one of an application's might, with a message that would forge a log line and
 * flood it.
 */
public final class BrokenSleep implements DelayScheduler {

	/** What the sleep's exception says. */
	public static final String FORGED = "clock gone\nWARN forged line " + "x".repeat(500);

	@Override
	public void sleep(Duration pause) {
		throw new IllegalStateException(FORGED);
	}

	@Override
	public Future<?> schedule(Duration delay, Runnable task) {
		throw new UnsupportedOperationException("blocking calls sleep");
	}

}
