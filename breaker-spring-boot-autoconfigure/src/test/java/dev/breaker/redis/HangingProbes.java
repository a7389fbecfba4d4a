package dev.breaker.redis;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

import dev.breaker.core.Breaker;
import dev.breaker.core.BreakerOpenException;

/**
 * Callers that keep calling each breaker of a fleet while the dependency hangs every call
 * it gets, counting how many calls ever ran in it at once, fleet-wide: the measure of a
 * fleet-wide probe limit. A rejected caller parks briefly instead of spinning: a dozen
 * spinning callers on a small machine starve the probe-slot holder's lease renewals, and
 * a lease lost while its probe runs is the one way past the limit.
 */
public final class HangingProbes implements AutoCloseable {

	private final AtomicInteger inDependency = new AtomicInteger();

	private final AtomicInteger mostAtOnce = new AtomicInteger();

	private final AtomicInteger probes = new AtomicInteger();

	private final CountDownLatch dependencyHangs = new CountDownLatch(1);

	private final AtomicBoolean running = new AtomicBoolean(true);

	private final ExecutorService callers;

	private HangingProbes(List<Breaker> breakers, int callersPerBreaker, Duration hang) {
		this.callers = Executors.newFixedThreadPool(breakers.size() * callersPerBreaker);
		for (Breaker breaker : breakers) {
			for (int t = 0; t < callersPerBreaker; t++) {
				this.callers.execute(() -> keepCalling(breaker, hang));
			}
		}
	}

	/**
	 * Starts {@code callersPerBreaker} callers on each breaker.
	 * @param breakers one breaker per replica, all of one name
	 * @param callersPerBreaker callers per breaker
	 * @param hang the longest the dependency holds a call
	 * @return the running callers; close them to let the dependency answer
	 */
	public static HangingProbes start(List<Breaker> breakers, int callersPerBreaker, Duration hang) {
		return new HangingProbes(breakers, callersPerBreaker, hang);
	}

	/** Calls that reached the dependency so far. */
	public int probes() {
		return this.probes.get();
	}

	/** The most calls that were in the dependency at one time, fleet-wide. */
	public int mostAtOnce() {
		return this.mostAtOnce.get();
	}

	private void keepCalling(Breaker breaker, Duration hang) {
		while (this.running.get()) {
			try {
				breaker.call(() -> {
					this.probes.incrementAndGet();
					this.mostAtOnce.accumulateAndGet(this.inDependency.incrementAndGet(), Math::max);
					try {
						this.dependencyHangs.await(hang.toMillis(), TimeUnit.MILLISECONDS);
					}
					finally {
						this.inDependency.decrementAndGet();
					}
					return "ok";
				});
			}
			catch (BreakerOpenException rejected) {
				LockSupport.parkNanos(200_000);
			}
			catch (Exception unexpected) {
				throw new AssertionError(unexpected);
			}
		}
	}

	@Override
	public void close() throws InterruptedException {
		this.running.set(false);
		this.dependencyHangs.countDown();
		this.callers.shutdown();
		this.callers.awaitTermination(10, TimeUnit.SECONDS);
	}

}
