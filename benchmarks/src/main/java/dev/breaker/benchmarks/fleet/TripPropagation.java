package dev.breaker.benchmarks.fleet;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
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
import dev.breaker.redis.RedisServerHarness;

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
		try (RedisServerHarness redis = RedisServerHarness.start()) {
			measure(redis, config, 1, rounds, warmUp,
					"trip propagation A -> B over Redis pub/sub on loopback, quorum 1, " + rounds + " rounds after "
							+ warmUp + " warm-up, " + Runtime.getRuntime().availableProcessors() + " cores:");
		}
		try (RedisServerHarness redis = RedisServerHarness.start()) {
			measure(redis, config, 2, rounds, warmUp,
					"trip propagation A, B -> C, quorum 2 (the clock runs from B's trip, which completes it), " + rounds
							+ " rounds after " + warmUp + " warm-up:");
		}
	}

	/**
	 * {@code quorum + 1} replicas (A, B, C) of "payments"; each round the first
	 * {@code quorum} trip, the last of them with the clock running until the replica
	 * after them has opened, then A is reset and the clock runs until that replica has
	 * closed.
	 */
	private static void measure(RedisServerHarness redis, BreakerConfig config, int quorum, int rounds, int warmUp,
			String title) throws Exception {
		List<BreakerRegistry> registries = new ArrayList<>();
		for (int k = 0; k <= quorum; k++) {
			registries.add(BreakerRegistry.builder().defaults(config).build());
		}
		List<FleetSync> syncs = new ArrayList<>();
		try {
			for (int k = 0; k <= quorum; k++) {
				syncs.add(redis.join(registries.get(k), "replica-" + (char) ('a' + k), quorum));
			}
			List<Breaker> payments = registries.stream().map(r -> r.breaker("payments")).toList();
			Breaker timed = payments.get(quorum - 1);
			BlockingQueue<Long> opened = new ArrayBlockingQueue<>(1);
			BlockingQueue<Long> closed = new ArrayBlockingQueue<>(1);
			listen(payments.get(quorum), opened, closed);
			pause(200);

			long[] openMicros = new long[rounds];
			long[] closeMicros = new long[rounds];
			for (int i = -warmUp; i < rounds; i++) {
				for (Breaker untimed : payments.subList(0, quorum - 1)) {
					fail(untimed);
					// let this vote reach Redis: the timed trip is the one that
					// completes the quorum
					pause(5);
				}
				long tripAt = System.nanoTime();
				fail(timed);
				long open = await(opened, "open");
				if (quorum > 1) {
					awaitFollowing(syncs.get(0));
				}
				long resetAt = System.nanoTime();
				payments.get(0).reset();
				long close = await(closed, "close");
				if (quorum > 1) {
					awaitClosed(timed);
				}
				if (i >= 0) {
					openMicros[i] = (open - tripAt) / 1_000;
					closeMicros[i] = (close - resetAt) / 1_000;
				}
			}
			System.out.println(title);
			report("open ", openMicros);
			report("close", closeMicros);
		}
		finally {
			for (int k = syncs.size() - 1; k >= 0; k--) {
				syncs.get(k).close();
			}
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
			pause(1);
		}
	}

	private static void awaitClosed(Breaker breaker) {
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
		while (breaker.state() != State.CLOSED) {
			if (System.nanoTime() > deadline) {
				throw new IllegalStateException("replica B never closed");
			}
			pause(1);
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

	private static void pause(long millis) {
		try {
			TimeUnit.MILLISECONDS.sleep(millis);
		}
		catch (InterruptedException e) {
			Thread.currentThread().interrupt();
		}
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
