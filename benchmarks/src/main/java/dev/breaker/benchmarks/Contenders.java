package dev.breaker.benchmarks;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig.SlidingWindowSynchronizationStrategy;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig.SlidingWindowType;

/**
 * Every breaker in the comparison, configured alike: trip at a 50 % failure rate once 20 calls
 * are in the window, stay open for an hour (so an open-path benchmark never sees a probe).
 *
 * <p>Windows: ten seconds where the library counts by time (breaker, Failsafe, the time-based
 * Resilience4j windows, the naive list), the last 100 calls where it counts calls (Resilience4j's
 * count-based window, its default size).
 */
public final class Contenders {

    static final Duration WINDOW = Duration.ofSeconds(10);
    static final int WINDOW_CALLS = 100;
    static final int MINIMUM_CALLS = 20;
    static final int FAILURE_RATE = 50;
    static final Duration OPEN_WAIT = Duration.ofHours(1);

    /** More failures than any contender needs to trip; tripping stops at the first open state. */
    private static final int TRIP_ATTEMPTS = 10_000;

    private static final RuntimeException FAILURE = new IllegalStateException("dependency down");

    private Contenders() {
    }

    static NaiveBreaker naive() {
        return new NaiveBreaker(WINDOW.toNanos(), WINDOW_CALLS, MINIMUM_CALLS, FAILURE_RATE,
                OPEN_WAIT.toNanos(), System::nanoTime);
    }

    static dev.failsafe.CircuitBreaker<Object> failsafe() {
        return dev.failsafe.CircuitBreaker.builder()
                .withFailureRateThreshold(FAILURE_RATE, MINIMUM_CALLS, WINDOW)
                .withDelay(OPEN_WAIT)
                .build();
    }

    static io.github.resilience4j.circuitbreaker.CircuitBreaker resilience4j(
            SlidingWindowType type, SlidingWindowSynchronizationStrategy strategy) {
        int size = type == SlidingWindowType.COUNT_BASED ? WINDOW_CALLS : (int) WINDOW.toSeconds();
        CircuitBreakerConfig config = CircuitBreakerConfig.custom()
                .slidingWindow(size, MINIMUM_CALLS, type, strategy)
                .failureRateThreshold(FAILURE_RATE)
                .waitDurationInOpenState(OPEN_WAIT)
                .build();
        return io.github.resilience4j.circuitbreaker.CircuitBreaker.of(
                "r4j-" + type + "-" + strategy, config);
    }

    static void trip(NaiveBreaker naive) {
        for (int i = 0; i < TRIP_ATTEMPTS && !naive.isOpen(); i++) {
            if (naive.tryAcquire()) {
                naive.onFailure();
            }
        }
        requireOpen("naive", naive.isOpen());
    }

    static void trip(dev.failsafe.CircuitBreaker<Object> failsafe) {
        for (int i = 0; i < TRIP_ATTEMPTS && !failsafe.isOpen(); i++) {
            if (failsafe.tryAcquirePermit()) {
                failsafe.recordFailure();
            }
        }
        requireOpen("failsafe", failsafe.isOpen());
    }

    static void trip(io.github.resilience4j.circuitbreaker.CircuitBreaker r4j) {
        for (int i = 0; i < TRIP_ATTEMPTS && !isOpen(r4j); i++) {
            if (r4j.tryAcquirePermission()) {
                r4j.onError(0, TimeUnit.NANOSECONDS, FAILURE);
            }
        }
        requireOpen(r4j.getName(), isOpen(r4j));
    }

    static boolean isOpen(io.github.resilience4j.circuitbreaker.CircuitBreaker r4j) {
        return r4j.getState() == io.github.resilience4j.circuitbreaker.CircuitBreaker.State.OPEN;
    }

    static boolean isClosed(io.github.resilience4j.circuitbreaker.CircuitBreaker r4j) {
        return r4j.getState() == io.github.resilience4j.circuitbreaker.CircuitBreaker.State.CLOSED;
    }

    private static void requireOpen(String name, boolean open) {
        if (!open) {
            throw new IllegalStateException(name + " did not open after " + TRIP_ATTEMPTS + " failures");
        }
    }
}
