package dev.breaker.benchmarks.fleet;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

import dev.breaker.autoconfigure.redis.Replica;
import dev.breaker.core.Breaker;
import dev.breaker.core.BreakerConfig;
import dev.breaker.core.BreakerRegistry;
import dev.breaker.core.State;
import dev.breaker.core.Ticker;
import dev.breaker.redis.RedisServerHarness;

/**
 * {@link FleetScale}'s replicas (each its own Spring context, fleet mode
 * auto-configured), each with the breaker the rounds trip ("payments") and one the load
 * calls ("catalog"), and when each replica's "payments" first opened and closed since the
 * stamps were last cleared.
 */
final class StampedFleet implements AutoCloseable {

	private static final BreakerConfig CONFIG = BreakerConfig.builder()
		.consecutiveFailures(1)
		.failureRateThreshold(0)
		.openWait(Duration.ofSeconds(30))
		.openWaitJitter(0)
		.ticker(Ticker.system())
		.build();

	private final List<Replica> replicas = new ArrayList<>();

	private final List<Breaker> payments = new ArrayList<>();

	private final List<Breaker> catalog = new ArrayList<>();

	private final AtomicLongArray openedAt;

	private final AtomicLongArray closedAt;

	private StampedFleet(int size) {
		openedAt = new AtomicLongArray(size);
		closedAt = new AtomicLongArray(size);
	}

	static StampedFleet start(RedisServerHarness redis, int size, int quorum, boolean fleetWindow)
			throws InterruptedException {
		StampedFleet fleet = new StampedFleet(size);
		for (int k = 0; k < size; k++) {
			BreakerRegistry registry = BreakerRegistry.builder().defaults(CONFIG).build();
			fleet.replicas.add(Replica.start("replica-" + k, registry, "spring.data.redis.host=127.0.0.1",
					"spring.data.redis.port=" + redis.port(), "logging.level.root=WARN",
					"breaker.shared.redis.quorum=" + quorum, "breaker.shared.redis.fleet-window=" + fleetWindow));
			Breaker breaker = registry.breaker("payments");
			int index = k;
			breaker.onTransition(t -> {
				long now = System.nanoTime();
				if (t.to() == State.OPEN) {
					fleet.openedAt.compareAndSet(index, 0, now);
				}
				else if (t.to() == State.CLOSED) {
					fleet.closedAt.compareAndSet(index, 0, now);
				}
			});
			fleet.payments.add(breaker);
			fleet.catalog.add(registry.breaker("catalog"));
		}
		TimeUnit.MILLISECONDS.sleep(500);
		return fleet;
	}

	int size() {
		return replicas.size();
	}

	Breaker breaker(int k) {
		return payments.get(k);
	}

	Breaker loadBreaker(int k) {
		return catalog.get(k);
	}

	void clearStamps() {
		for (int k = 0; k < size(); k++) {
			openedAt.set(k, 0);
			closedAt.set(k, 0);
		}
	}

	long openedAt(int k) {
		return openedAt.get(k);
	}

	long lastClosedAt(int from) {
		long last = 0;
		for (int k = from; k < size(); k++) {
			last = Math.max(last, closedAt.get(k));
		}
		return last;
	}

	void awaitOpen(int from) {
		await(() -> {
			for (int k = from; k < size(); k++) {
				if (openedAt.get(k) == 0) {
					return false;
				}
			}
			return true;
		}, "every replica opened");
	}

	void awaitClosed(int from) {
		await(() -> {
			for (int k = from; k < size(); k++) {
				if (closedAt.get(k) == 0 || payments.get(k).state() != State.CLOSED) {
					return false;
				}
			}
			return payments.get(0).state() == State.CLOSED;
		}, "every replica closed");
	}

	/**
	 * Replica {@code k} follows the fleet's episode (its reset then ends it fleet-wide).
	 */
	void awaitFollowing(int k) {
		await(() -> !replicas.get(k).sync().view("payments").episode().isEmpty(),
				"replica " + k + " followed the fleet's open");
	}

	private static void await(BooleanSupplier done, String what) {
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
		while (!done.getAsBoolean()) {
			if (System.nanoTime() > deadline) {
				throw new IllegalStateException("not within 10 s: " + what);
			}
			LockSupport.parkNanos(20_000);
		}
	}

	@Override
	public void close() {
		replicas.forEach(Replica::close);
	}

}
