package dev.breaker.core;

import dev.breaker.core.internal.CachedTicker;

/**
 * A monotonic nanosecond time source with an arbitrary origin; the engine never reads
 * wall-clock time for its rules.
 */
@FunctionalInterface
public interface Ticker {

	/** Nanoseconds since an arbitrary, fixed origin; never decreases. */
	long nanos();

	/**
	 * The default: a volatile read of a value that one shared daemon thread advances
	 * about every millisecond. Cheaper than {@link System#nanoTime()} (a system clock
	 * read per call) and precise enough for windows, open waits and slow-call timing.
	 */
	static Ticker cached() {
		return CachedTicker.INSTANCE;
	}

	/** {@link System#nanoTime()}: exact, but costs a system clock read per call. */
	static Ticker system() {
		return System::nanoTime;
	}

}
