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
	 * so it never keeps a JVM alive.
	 */

	/** The one instance shared by every breaker of the JVM. */
	public static final CachedTicker INSTANCE = new CachedTicker(TimeUnit.MILLISECONDS.toNanos(1));

	private volatile long now = System.nanoTime();

	private CachedTicker(long periodNanos) {
		Thread thread = new Thread(() -> advance(periodNanos), "breaker-ticker");
		thread.setDaemon(true);
		thread.start();
	}

	private void advance(long periodNanos) {
		while (true) {
			LockSupport.parkNanos(periodNanos);
			now = System.nanoTime();
		}
	}

	@Override
	public long nanos() {
		return now;
	}

}
