package dev.breaker.core;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

/** A ticker that only moves when told to: for deterministic tests, with no sleeps. */
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
