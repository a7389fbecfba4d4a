package dev.breaker.benchmarks;

import java.util.concurrent.TimeUnit;

import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig.SlidingWindowSynchronizationStrategy;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig.SlidingWindowType;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * One guarded call through each library's permission API: ask, call the dependency, record the
 * outcome (with the elapsed time where the library takes one), or take the fallback when refused.
 *
 * <p>This is what each library's own call wrapper does minus the wrapper, so it is every
 * library's cheapest path. The breakers are shared by all benchmark threads
 * ({@code Scope.Benchmark}): with two threads they contend as in a real service. Subclasses
 * choose the state (closed or tripped open) and the thread count; set-up and tear-down check
 * that every breaker is in that state, so a benchmark can never measure the wrong path.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 2, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
@Warmup(iterations = 5, time = 2)
@Measurement(iterations = 5, time = 2)
public abstract class GuardedCall {

    static final String FALLBACK = "fallback";

    final Dependency dependency = new Dependency();

    NaiveBreaker naive;
    dev.failsafe.CircuitBreaker<Object> failsafe;
    CircuitBreaker r4jCountSynchronized;
    CircuitBreaker r4jCountLockFree;
    CircuitBreaker r4jTimeSynchronized;
    CircuitBreaker r4jTimeLockFree;

    /** Whether the breakers are tripped open before measuring. */
    abstract boolean open();

    @Setup(Level.Trial)
    public void createBreakers() {
        naive = Contenders.naive();
        failsafe = Contenders.failsafe();
        r4jCountSynchronized = Contenders.resilience4j(SlidingWindowType.COUNT_BASED, SlidingWindowSynchronizationStrategy.SYNCHRONIZED);
        r4jCountLockFree = Contenders.resilience4j(SlidingWindowType.COUNT_BASED, SlidingWindowSynchronizationStrategy.LOCK_FREE);
        r4jTimeSynchronized = Contenders.resilience4j(SlidingWindowType.TIME_BASED, SlidingWindowSynchronizationStrategy.SYNCHRONIZED);
        r4jTimeLockFree = Contenders.resilience4j(SlidingWindowType.TIME_BASED, SlidingWindowSynchronizationStrategy.LOCK_FREE);
        if (open()) {
            Contenders.trip(naive);
            Contenders.trip(failsafe);
            for (CircuitBreaker r4j : resilience4j()) {
                Contenders.trip(r4j);
            }
        }
        requireExpectedStates("before measuring");
    }

    @TearDown(Level.Trial)
    public void checkBreakersStayed() {
        requireExpectedStates("after measuring");
    }

    @Benchmark
    public void unprotected(Blackhole bh) {
        bh.consume(dependency.call());
    }

    @Benchmark
    public void naive(Blackhole bh) {
        if (!naive.tryAcquire()) {
            bh.consume(FALLBACK);
            return;
        }
        String reply = dependency.call();
        naive.onSuccess();
        bh.consume(reply);
    }

    @Benchmark
    public void failsafe(Blackhole bh) {
        if (!failsafe.tryAcquirePermit()) {
            bh.consume(FALLBACK);
            return;
        }
        String reply = dependency.call();
        failsafe.recordSuccess();
        bh.consume(reply);
    }

    @Benchmark
    public void r4jCountSynchronized(Blackhole bh) {
        resilience4j(r4jCountSynchronized, bh);
    }

    @Benchmark
    public void r4jCountLockFree(Blackhole bh) {
        resilience4j(r4jCountLockFree, bh);
    }

    @Benchmark
    public void r4jTimeSynchronized(Blackhole bh) {
        resilience4j(r4jTimeSynchronized, bh);
    }

    @Benchmark
    public void r4jTimeLockFree(Blackhole bh) {
        resilience4j(r4jTimeLockFree, bh);
    }

    /** What Resilience4j's own {@code decorateCallable} does, with {@code tryAcquirePermission} instead of an exception. */
    private void resilience4j(CircuitBreaker r4j, Blackhole bh) {
        if (!r4j.tryAcquirePermission()) {
            bh.consume(FALLBACK);
            return;
        }
        long start = r4j.getCurrentTimestamp();
        String reply = dependency.call();
        r4j.onSuccess(r4j.getCurrentTimestamp() - start, r4j.getTimestampUnit());
        bh.consume(reply);
    }

    private CircuitBreaker[] resilience4j() {
        return new CircuitBreaker[] {r4jCountSynchronized, r4jCountLockFree, r4jTimeSynchronized, r4jTimeLockFree};
    }

    private void requireExpectedStates(String when) {
        boolean open = open();
        StringBuilder wrong = new StringBuilder();
        if (open ? !naive.isOpen() : !naive.isClosed()) {
            wrong.append(" naive");
        }
        if (open ? !failsafe.isOpen() : !failsafe.isClosed()) {
            wrong.append(" failsafe");
        }
        for (CircuitBreaker r4j : resilience4j()) {
            if (open ? !Contenders.isOpen(r4j) : !Contenders.isClosed(r4j)) {
                wrong.append(' ').append(r4j.getName());
            }
        }
        if (wrong.length() > 0) {
            throw new IllegalStateException("not " + (open ? "open" : "closed") + " " + when + ":" + wrong);
        }
    }
}
