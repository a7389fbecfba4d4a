package dev.breaker.benchmarks;

import org.openjdk.jmh.annotations.Threads;

/** The closed path: every call is let through and its success recorded. */
public final class ClosedPath {

    private ClosedPath() {
    }

    /** One caller. */
    @Threads(1)
    public static class OneThread extends GuardedCall {
        @Override
        boolean open() {
            return false;
        }
    }

    /** Two callers sharing each breaker. */
    @Threads(2)
    public static class TwoThreads extends GuardedCall {
        @Override
        boolean open() {
            return false;
        }
    }
}
