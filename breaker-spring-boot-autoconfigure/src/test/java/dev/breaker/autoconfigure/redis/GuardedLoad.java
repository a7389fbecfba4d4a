package dev.breaker.autoconfigure.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

import dev.breaker.core.Breaker;

/**
 * Steady guarded calls on every replica while something happens to Redis, and a watch on
 * the replicas' store status: how many calls ran, which failed, how long the slowest
 * took, and whether the status ever showed Redis down.
 */
final class GuardedLoad implements AutoCloseable {

	private final AtomicBoolean running = new AtomicBoolean(true);

	private final AtomicLong calls = new AtomicLong();

	private final ConcurrentLinkedQueue<Throwable> failed = new ConcurrentLinkedQueue<>();

	private final AtomicLong slowestNanos = new AtomicLong();

	private final AtomicBoolean sawDown = new AtomicBoolean();

	private final List<Thread> threads = new ArrayList<>();

	GuardedLoad(List<Replica> fleet, String breaker) {
		for (Replica replica : fleet) {
			Breaker guarded = replica.breaker(breaker);
			threads.add(daemon(() -> {
				while (running.get()) {
					long start = System.nanoTime();
					try {
						guarded.call(() -> "charged");
					}
					catch (Exception e) {
						failed.add(e);
					}
					slowestNanos.accumulateAndGet(System.nanoTime() - start, Math::max);
					calls.incrementAndGet();
					pause(1); // steady traffic that leaves the cores to Redis
				}
			}));
		}
		threads.add(daemon(() -> {
			while (running.get()) {
				if (fleet.stream().anyMatch(r -> !r.status().up())) {
					sawDown.set(true);
				}
				pause(10);
			}
		}));
	}

	long calls() {
		return calls.get();
	}

	List<Throwable> failed() {
		return List.copyOf(failed);
	}

	Duration slowest() {
		return Duration.ofNanos(slowestNanos.get());
	}

	boolean sawDown() {
		return sawDown.get();
	}

	/** Stops the calls and the watch, and waits for them. */
	@Override
	public void close() throws InterruptedException {
		running.set(false);
		for (Thread thread : threads) {
			thread.join(5_000);
		}
	}

	/** A pause for the test's own threads, never for a breaker. */
	static void pause(long millis) {
		LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(millis));
	}

	private static Thread daemon(Runnable work) {
		Thread thread = new Thread(work, "guarded-load");
		thread.setDaemon(true);
		thread.start();
		return thread;
	}

}
