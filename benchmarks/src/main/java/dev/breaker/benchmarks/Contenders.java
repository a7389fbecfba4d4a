package dev.breaker.benchmarks;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import dev.breaker.core.Breaker;
import dev.breaker.core.BreakerConfig;
import dev.breaker.core.Outcome;
import dev.breaker.core.Permit;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig.SlidingWindowSynchronizationStrategy;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig.SlidingWindowType;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Every breaker in the comparison, configured alike and put in the state a benchmark
 * measures.
 *
 * <p>
 * Alike: trip at a 50 % failure rate once 20 calls are in the window; stay open for an
 * hour, so an open-path benchmark never meets a probe. The window is ten seconds where
 * the library counts by time (breaker, Failsafe, the time-based Resilience4j windows, the
 * naive list) and the last 100 calls where it counts calls (Resilience4j's count-based
 * window at its default size).
 *
 * <p>
 * The breakers are shared by all benchmark threads ({@code Scope.Benchmark}): with two
 * threads they contend as they would in a service. Set-up and tear-down check that every
 * breaker is in the state the subclass asks for, so a benchmark can never quietly measure
 * the other path.
 */
@State(Scope.Benchmark)
public abstract class Contenders extends Measured {

	static final Duration WINDOW = Duration.ofSeconds(10);
	static final int WINDOW_CALLS = 100;
	static final int MINIMUM_CALLS = 20;
	static final int FAILURE_RATE = 50;
	static final Duration OPEN_WAIT = Duration.ofHours(1);

	/** What a caller returns when the breaker refuses the call. */
	static final String FALLBACK = "fallback";

	/**
	 * More failures than any contender needs to trip; tripping stops at the first open
	 * state.
	 */
	private static final int TRIP_ATTEMPTS = 10_000;

	private static final RuntimeException FAILURE = new IllegalStateException("dependency down");

	final Dependency dependency = new Dependency();

	Breaker breaker;

	/**
	 * The same breaker with {@code recordLatency(false)}: what latency costs is the
	 * difference.
	 */
	Breaker breakerLatencyOff;

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
		breaker = breaker();
		breakerLatencyOff = Breaker.of("breaker-latency-off", config().recordLatency(false).build());
		naive = naive();
		failsafe = failsafe();
		r4jCountSynchronized = resilience4j(SlidingWindowType.COUNT_BASED,
				SlidingWindowSynchronizationStrategy.SYNCHRONIZED);
		r4jCountLockFree = resilience4j(SlidingWindowType.COUNT_BASED, SlidingWindowSynchronizationStrategy.LOCK_FREE);
		r4jTimeSynchronized = resilience4j(SlidingWindowType.TIME_BASED,
				SlidingWindowSynchronizationStrategy.SYNCHRONIZED);
		r4jTimeLockFree = resilience4j(SlidingWindowType.TIME_BASED, SlidingWindowSynchronizationStrategy.LOCK_FREE);
		if (open()) {
			trip(breaker);
			trip(breakerLatencyOff);
			trip(naive);
			trip(failsafe);
			resilience4j().forEach(Contenders::trip);
		}
		wrap();
		requireMeasuredState("before measuring");
	}

	/** Builds whatever a subclass calls the breakers through, once they exist. */
	void wrap() {
	}

	@TearDown(Level.Trial)
	public void checkBreakersStayed() {
		requireMeasuredState("after measuring");
	}

	static Breaker breaker() {
		return Breaker.of("breaker", config().build());
	}

	private static BreakerConfig.Builder config() {
		return BreakerConfig.builder()
			.window(WINDOW)
			.failureRateThreshold(FAILURE_RATE)
			.minimumCalls(MINIMUM_CALLS)
			.openWait(OPEN_WAIT)
			.maxOpenWait(OPEN_WAIT);
	}

	static NaiveBreaker naive() {
		return new NaiveBreaker(WINDOW.toNanos(), WINDOW_CALLS, MINIMUM_CALLS, FAILURE_RATE, OPEN_WAIT.toNanos(),
				System::nanoTime);
	}

	static dev.failsafe.CircuitBreaker<Object> failsafe() {
		return dev.failsafe.CircuitBreaker.builder()
			.withFailureRateThreshold(FAILURE_RATE, MINIMUM_CALLS, WINDOW)
			.withDelay(OPEN_WAIT)
			.build();
	}

	static CircuitBreaker resilience4j(SlidingWindowType type, SlidingWindowSynchronizationStrategy strategy) {
		int size = type == SlidingWindowType.COUNT_BASED ? WINDOW_CALLS : (int) WINDOW.toSeconds();
		CircuitBreakerConfig config = CircuitBreakerConfig.custom()
			.slidingWindow(size, MINIMUM_CALLS, type, strategy)
			.failureRateThreshold(FAILURE_RATE)
			.waitDurationInOpenState(OPEN_WAIT)
			.build();
		return CircuitBreaker.of("r4j-" + type + "-" + strategy, config);
	}

	static void trip(Breaker breaker) {
		for (int i = 0; i < TRIP_ATTEMPTS && breaker.state() != dev.breaker.core.State.OPEN; i++) {
			Permit permit = breaker.acquire();
			breaker.release(permit, Outcome.FAILURE, 0);
		}
		requireOpen("breaker", breaker.state() == dev.breaker.core.State.OPEN);
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

	static void trip(CircuitBreaker r4j) {
		for (int i = 0; i < TRIP_ATTEMPTS && r4j.getState() != CircuitBreaker.State.OPEN; i++) {
			if (r4j.tryAcquirePermission()) {
				r4j.onError(0, TimeUnit.NANOSECONDS, FAILURE);
			}
		}
		requireOpen(r4j.getName(), r4j.getState() == CircuitBreaker.State.OPEN);
	}

	private static void requireOpen(String name, boolean open) {
		if (!open) {
			throw new IllegalStateException(name + " did not open after " + TRIP_ATTEMPTS + " failures");
		}
	}

	private List<CircuitBreaker> resilience4j() {
		return List.of(r4jCountSynchronized, r4jCountLockFree, r4jTimeSynchronized, r4jTimeLockFree);
	}

	private void requireMeasuredState(String when) {
		boolean open = open();
		StringBuilder wrong = new StringBuilder();
		dev.breaker.core.State state = open ? dev.breaker.core.State.OPEN : dev.breaker.core.State.CLOSED;
		if (breaker.state() != state) {
			wrong.append(" breaker");
		}
		if (breakerLatencyOff.state() != state) {
			wrong.append(" breaker-latency-off");
		}
		if (open ? !naive.isOpen() : !naive.isClosed()) {
			wrong.append(" naive");
		}
		if (open ? !failsafe.isOpen() : !failsafe.isClosed()) {
			wrong.append(" failsafe");
		}
		CircuitBreaker.State expected = open ? CircuitBreaker.State.OPEN : CircuitBreaker.State.CLOSED;
		for (CircuitBreaker r4j : resilience4j()) {
			if (r4j.getState() != expected) {
				wrong.append(' ').append(r4j.getName());
			}
		}
		if (wrong.length() > 0) {
			throw new IllegalStateException("not " + (open ? "open" : "closed") + " " + when + ":" + wrong);
		}
	}

}
