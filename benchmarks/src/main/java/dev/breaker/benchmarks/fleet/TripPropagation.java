package dev.breaker.benchmarks.fleet;

import java.io.IOException;
import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

import dev.breaker.core.Breaker;
import dev.breaker.core.BreakerConfig;
import dev.breaker.core.BreakerRegistry;
import dev.breaker.core.State;
import dev.breaker.core.Ticker;
import dev.breaker.redis.FleetSync;

/**
 * Trip propagation on loopback, two ways:
 * <ol>
 * <li>quorum 1, two replicas: replica A trips (the failing call's thread publishes
 * nothing itself, the sync thread does), and the clock stops when replica B's breaker has
 * applied the open. Then A is reset (in code), which closes B the same way, and the next
 * round starts. This is the measurement of earlier versions.</li>
 * <li>quorum 2, three replicas: A trips (its trip stays local), then B trips, which
 * completes the quorum; the clock runs from B's trip until replica C's breaker has opened
 * (a vote and an open: two round trips). Then A is reset, which closes B and C; C's close
 * is timed.</li>
 * </ol>
 *
 * <pre>java -cp ... dev.breaker.benchmarks.fleet.TripPropagation [rounds=2000] [warm-up=300]</pre>
 * Prints p50, p90, p99, p99.9 and max in microseconds, for the opens and for the closes.
 */
public final class TripPropagation {

	private TripPropagation() {
	}

	public static void main(String[] args) throws Exception {
		int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 2_000;
		int warmUp = args.length > 1 ? Integer.parseInt(args[1]) : 300;
		BreakerConfig config = BreakerConfig.builder()
			.consecutiveFailures(1)
			.openWait(Duration.ofSeconds(30))
			.openWaitJitter(0)
			.ticker(Ticker.system())
			.build();
		try (LocalRedis redis = new LocalRedis()) {
			quorumOfOne(redis, config, rounds, warmUp);
		}
		try (LocalRedis redis = new LocalRedis()) {
			quorumOfTwo(redis, config, rounds, warmUp);
		}
	}

	private static void quorumOfOne(LocalRedis redis, BreakerConfig config, int rounds, int warmUp) throws Exception {
		BreakerRegistry a = BreakerRegistry.builder().defaults(config).build();
		BreakerRegistry b = BreakerRegistry.builder().defaults(config).build();
		try (FleetSync syncA = redis.join(a, "replica-a", 1); FleetSync syncB = redis.join(b, "replica-b", 1)) {
			Breaker tripping = a.breaker("payments");
			Breaker following = b.breaker("payments");
			BlockingQueue<Long> opened = new ArrayBlockingQueue<>(1);
			BlockingQueue<Long> closed = new ArrayBlockingQueue<>(1);
			listen(following, opened, closed);
			LocalRedis.pause(200);

			long[] openMicros = new long[rounds];
			long[] closeMicros = new long[rounds];
			for (int i = -warmUp; i < rounds; i++) {
				long tripAt = System.nanoTime();
				fail(tripping);
				long open = await(opened, "open");
				long resetAt = System.nanoTime();
				tripping.reset();
				long close = await(closed, "close");
				if (i >= 0) {
					openMicros[i] = (open - tripAt) / 1_000;
					closeMicros[i] = (close - resetAt) / 1_000;
				}
			}
			System.out.println(
					"trip propagation A -> B over Redis pub/sub on loopback, quorum 1, " + rounds + " rounds after "
							+ warmUp + " warm-up, " + Runtime.getRuntime().availableProcessors() + " cores:");
			report("open ", openMicros);
			report("close", closeMicros);
		}
	}

	private static void quorumOfTwo(LocalRedis redis, BreakerConfig config, int rounds, int warmUp) throws Exception {
		BreakerRegistry a = BreakerRegistry.builder().defaults(config).build();
		BreakerRegistry b = BreakerRegistry.builder().defaults(config).build();
		BreakerRegistry c = BreakerRegistry.builder().defaults(config).build();
		try (FleetSync syncA = redis.join(a, "replica-a", 2);
				FleetSync syncB = redis.join(b, "replica-b", 2);
				FleetSync syncC = redis.join(c, "replica-c", 2)) {
			Breaker first = a.breaker("payments");
			Breaker second = b.breaker("payments");
			Breaker third = c.breaker("payments");
			BlockingQueue<Long> opened = new ArrayBlockingQueue<>(1);
			BlockingQueue<Long> closed = new ArrayBlockingQueue<>(1);
			listen(third, opened, closed);
			LocalRedis.pause(200);

			long[] openMicros = new long[rounds];
			long[] closeMicros = new long[rounds];
			for (int i = -warmUp; i < rounds; i++) {
				fail(first);
				// let the first vote reach Redis: the second trip is the one that
				// completes the quorum
				LocalRedis.pause(5);
				long tripAt = System.nanoTime();
				fail(second);
				long open = await(opened, "open");
				awaitFollowing(syncA);
				long resetAt = System.nanoTime();
				first.reset();
				long close = await(closed, "close");
				awaitClosed(second);
				if (i >= 0) {
					openMicros[i] = (open - tripAt) / 1_000;
					closeMicros[i] = (close - resetAt) / 1_000;
				}
			}
			System.out
				.println("trip propagation A, B -> C, quorum 2 (the clock runs from B's trip, which completes it), "
						+ rounds + " rounds after " + warmUp + " warm-up:");
			report("open ", openMicros);
			report("close", closeMicros);
		}
	}

	private static void listen(Breaker breaker, BlockingQueue<Long> opened, BlockingQueue<Long> closed) {
		breaker.onTransition(t -> {
			long now = System.nanoTime();
			if (t.to() == State.OPEN) {
				opened.offer(now);
			}
			else if (t.to() == State.CLOSED) {
				closed.offer(now);
			}
		});
	}

	/**
	 * The first replica follows the fleet's episode once the open reached it too (its
	 * reset then ends it).
	 */
	private static void awaitFollowing(FleetSync sync) {
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
		while (sync.view("payments").episode().isEmpty()) {
			if (System.nanoTime() > deadline) {
				throw new IllegalStateException("replica A never followed the fleet's open");
			}
			LocalRedis.pause(1);
		}
	}

	private static void awaitClosed(Breaker breaker) {
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
		while (breaker.state() != State.CLOSED) {
			if (System.nanoTime() > deadline) {
				throw new IllegalStateException("replica B never closed");
			}
			LocalRedis.pause(1);
		}
	}

	private static void fail(Breaker breaker) throws Exception {
		try {
			breaker.call(() -> {
				throw new IOException("down");
			});
		}
		catch (IOException expected) {
			// the trip
		}
		if (breaker.state() != State.OPEN) {
			throw new IllegalStateException("replica A did not trip: " + breaker.state());
		}
	}

	private static long await(BlockingQueue<Long> events, String what) throws InterruptedException {
		Long at = events.poll(5, TimeUnit.SECONDS);
		if (at == null) {
			throw new IllegalStateException("replica B never saw the " + what);
		}
		return at;
	}

	private static void report(String what, long[] micros) {
		long[] sorted = micros.clone();
		Arrays.sort(sorted);
		System.out.printf(Locale.ROOT, "  %s  p50 %6d us   p90 %6d us   p99 %6d us   p99.9 %6d us   max %6d us%n", what,
				at(sorted, 0.50), at(sorted, 0.90), at(sorted, 0.99), at(sorted, 0.999), sorted[sorted.length - 1]);
	}

	private static long at(long[] sorted, double quantile) {
		int index = (int) Math.ceil(quantile * sorted.length) - 1;
		return sorted[Math.max(0, Math.min(sorted.length - 1, index))];
	}

}
