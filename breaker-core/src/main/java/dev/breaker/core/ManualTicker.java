package dev.breaker.core;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The testing clock: a ticker that only moves when told to, so tests of timing (windows,
 * open waits, slow calls, half-open max-wait) are deterministic and never sleep.
 *
 * <p>
 * Pass it to {@link BreakerConfig.Builder#ticker(Ticker)} in tests; pair it with a
 * {@link java.time.Clock} that follows it when a test reads wall-clock times
 * ({@code since}, {@code openUntil}). Not meant for production: a breaker on a ticker
 * nobody advances never leaves OPEN by itself.
 */
public final class ManualTicker implements Ticker {

	private final AtomicLong nanos = new AtomicLong();

	/** A ticker standing at 0. */
	public ManualTicker() {
	}

	@Override
	public long nanos() {
		return nanos.get();
	}

	/** Moves the time forward by {@code d}. */
	public void advance(Duration d) {
		advanceNanos(d.toNanos());
	}

	/** Moves the time forward by {@code n} nanoseconds. */
	public void advanceNanos(long n) {
		if (n < 0) {
			throw new IllegalArgumentException("a ticker never goes back, but was asked to advance by " + n + " ns");
		}
		nanos.addAndGet(n);
	}

	/** Sets the time to {@code nanos}. */
	public void set(long nanos) {
		this.nanos.set(nanos);
	}

}
