package dev.breaker.core.internal;

import dev.breaker.core.Ticker;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The default ticker: one shared daemon thread publishes {@link System#nanoTime()} about
 * every millisecond, and every reader pays only a volatile read.
 */
public final class CachedTicker implements Ticker {

	/*
	 * Invariant: `now` only grows (a single writer copies System.nanoTime(), which is
	 * monotonic). Readers use a plain volatile read (a plain load on x86) instead of a
	 * nanoTime clock read: the release/acquire pair makes the value at most ~1 ms stale,
	 * which is all windows, open waits and slow-call timing need. The thread is a daemon,
	 * so it never keeps a JVM alive, and it ignores interrupts (clears them), since every
	 * breaker of the JVM needs it to keep time.
	 */

	/** The one instance shared by every breaker of the JVM. */
	public static final CachedTicker INSTANCE = new CachedTicker(TimeUnit.MILLISECONDS.toNanos(1));

	private volatile long now = System.nanoTime();

	/** Turns of the thread's loop so far (tests: a parked thread turns once a period). */
	private volatile long turns;

	private CachedTicker(long periodNanos) {
		Thread thread = new Thread(() -> advance(periodNanos), "breaker-ticker");
		thread.setDaemon(true);
		thread.start();
	}

	private void advance(long periodNanos) {
		while (true) {
			LockSupport.parkNanos(periodNanos);
			// An interrupt (a container interrupting threads it did not start, on
			// undeploy) is cleared: nothing waits for this thread to stop, and a park
			// with the flag set returns at once, which would spin a core for ever.
			Thread.interrupted();
			now = System.nanoTime();
			turns++;
		}
	}

	@Override
	public long nanos() {
		return now;
	}

	long turns() {
		return turns;
	}

}
