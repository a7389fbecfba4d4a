package dev.breaker.core;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The testing clock: a ticker that only moves when told to, so tests of timing (windows,
 * open waits, slow calls, half-open max-wait) are deterministic and never sleep.
 *
 * <p>
 * Pass it to {@link BreakerConfig.Builder#ticker(Ticker)} in tests, and its
 * {@link #clock(Instant)} to {@link BreakerConfig.Builder#clock(Clock)} when a test reads
 * wall-clock times ({@code since}, {@code openUntil}): both move only when the test says.
 * Not meant for production: a breaker on a ticker nobody advances never leaves OPEN by
 * itself.
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

	/**
	 * The testing wall clock: {@code start} plus the time this ticker has advanced, in
	 * UTC.
	 * @param start the instant the clock shows while this ticker stands at 0
	 * @return a clock that moves exactly when this ticker does
	 */
	public Clock clock(Instant start) {
		return clock(this, start);
	}

	/**
	 * A wall clock at {@code start} plus whatever {@code ticker} answers at each read, in
	 * UTC: for a test whose wall clock must part from the breaker's ticker (a jump of the
	 * wall clock alone, or an action run at each read).
	 * @param ticker read once per {@link Clock#instant()}
	 * @param start the instant the clock shows while {@code ticker} answers 0
	 * @return the clock
	 */
	public static Clock clock(Ticker ticker, Instant start) {
		return clock(ticker, start, ZoneOffset.UTC);
	}

	private static Clock clock(Ticker ticker, Instant start, ZoneId zone) {
		return new Clock() {

			@Override
			public ZoneId getZone() {
				return zone;
			}

			@Override
			public Clock withZone(ZoneId other) {
				return clock(ticker, start, other);
			}

			@Override
			public Instant instant() {
				return start.plusNanos(ticker.nanos());
			}

		};
	}

}
