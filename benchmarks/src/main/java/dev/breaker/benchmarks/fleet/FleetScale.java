package dev.breaker.benchmarks.fleet;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;

import dev.breaker.core.Breaker;
import dev.breaker.core.State;
import dev.breaker.redis.RedisServerHarness;

/**
 * A fleet of replicas (each its own Spring context, fleet mode auto-configured) on one
 * Redis:
 * <ol>
 * <li>trip propagation to every replica: with a quorum of 1, replica 0's trip, and the
 * clock runs until each other replica has opened ("to all": until the last one has); then
 * replica 0 is reset, and the clock runs until every other replica has closed. With a
 * quorum of 2, replica 0 trips, then replica 1's trip completes the quorum, and the clock
 * runs from replica 1's trip;</li>
 * <li>the commands Redis executes per replica and second ({@code INFO commandstats}
 * deltas divided by the replicas and the seconds; a script counts once under
 * {@code evalsha} and once for each command it calls inside): at idle and under load
 * (every core calling closed breakers flat out), with the fleet window off and on, and
 * per trip-and-close cycle.</li>
 * </ol>
 *
 * <pre>java -cp ... dev.breaker.benchmarks.fleet.FleetScale [replicas=10] [rounds=1000] [warm-up=200] [seconds=10]</pre>
 */
public final class FleetScale {

	private FleetScale() {
	}

	public static void main(String[] args) throws Exception {
		int replicas = arg(args, 0, 10);
		int rounds = arg(args, 1, 1_000);
		int warmUp = arg(args, 2, 200);
		int seconds = arg(args, 3, 10);
		if (replicas < 2) {
			throw new IllegalArgumentException(
					"replicas=" + replicas + ": a fleet of at least 2 (quorum 2 takes two replicas' trips)");
		}
		System.out.printf(Locale.ROOT,
				"fleet of %d replicas (one Spring context each) on one Redis, %d cores, load average %.2f%n", replicas,
				Runtime.getRuntime().availableProcessors(),
				ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
		List<String> propagation = new ArrayList<>();
		List<String> commands = new ArrayList<>();
		try (RedisServerHarness redis = RedisServerHarness.start();
				StampedFleet fleet = StampedFleet.start(redis, replicas, 1, false)) {
			quorumOfOne(fleet, rounds, warmUp, propagation);
		}
		try (RedisServerHarness redis = RedisServerHarness.start();
				StampedFleet fleet = StampedFleet.start(redis, replicas, 2, false);
				CommandStats stats = new CommandStats(redis.port())) {
			commands.add(commands("idle", fleet, stats, seconds, false));
			commands.add(commands("under load", fleet, stats, seconds, true));
			Map<String, Long> before = stats.snapshot();
			quorumOfTwo(fleet, rounds, warmUp, propagation);
			CommandStats.Delta cycles = CommandStats.between(before, stats.snapshot());
			long n = rounds + warmUp;
			System.out.printf(Locale.ROOT,
					"  commands Redis executed per trip-and-close cycle (two trips, the fleet opens, one reset "
							+ "closes it): %.1f fleet-wide, %.2f per replica, %.1f scripts fleet-wide (%s)%n",
					(double) cycles.total() / n, (double) cycles.total() / n / replicas, (double) cycles.scripts() / n,
					cycles.per(n));
			commands.add(String.format(Locale.ROOT,
					"| per trip-and-close cycle, quorum 2 (per replica, not per second) | %.2f | %.2f | %s |",
					(double) cycles.total() / n / replicas, (double) cycles.scripts() / n / replicas,
					cycles.per((double) n * replicas)));
		}
		try (RedisServerHarness redis = RedisServerHarness.start();
				StampedFleet fleet = StampedFleet.start(redis, replicas, 2, true);
				CommandStats stats = new CommandStats(redis.port())) {
			commands.add(commands("idle, fleet window on", fleet, stats, seconds, false));
			commands.add(commands("under load, fleet window on", fleet, stats, seconds, true));
		}
		System.out.println();
		System.out.printf(Locale.ROOT, "| trip propagation, %d replicas, %d rounds | p50 | p90 | p99 | p99.9 | max |%n",
				replicas, rounds);
		System.out.println("|---|---|---|---|---|---|");
		propagation.forEach(System.out::println);
		System.out.println();
		System.out.printf(Locale.ROOT,
				"| Redis commands per replica and second (INFO commandstats deltas / %d replicas / %d s) "
						+ "| executed | scripts | by command |%n",
				replicas, seconds);
		System.out.println("|---|---|---|---|");
		commands.forEach(System.out::println);
	}

	/**
	 * Quorum 2: replica 0 trips, replica 1 completes the quorum; every other replica
	 * opens. Then replica 0's reset closes all. With 2 replicas there is no other replica
	 * to open: only the close is measured.
	 */
	private static void quorumOfTwo(StampedFleet fleet, int rounds, int warmUp, List<String> table) {
		int n = fleet.size();
		long[] toAll = new long[(n > 2) ? rounds : 0];
		long[] each = new long[rounds * (n - 2)];
		long[] closeAll = new long[rounds];
		for (int i = -warmUp; i < rounds; i++) {
			fleet.clearStamps();
			fail(fleet.breaker(0));
			// the first vote reaches Redis: the second trip completes the quorum
			LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
			long tripAt = System.nanoTime();
			fail(fleet.breaker(1));
			fleet.awaitOpen(2);
			fleet.awaitFollowing(0);
			long resetAt = System.nanoTime();
			fleet.breaker(0).reset();
			fleet.awaitClosed(1);
			if (i >= 0) {
				long last = 0;
				for (int k = 2; k < n; k++) {
					long micros = (fleet.openedAt(k) - tripAt) / 1_000;
					each[i * (n - 2) + k - 2] = micros;
					last = Math.max(last, micros);
				}
				if (n > 2) {
					toAll[i] = last;
				}
				closeAll[i] = (fleet.lastClosedAt(1) - resetAt) / 1_000;
			}
		}
		System.out.printf(
				"trip propagation, quorum 2: from the trip that completes the quorum, %d rounds after %d warm-up:%n",
				rounds, warmUp);
		table.add(report("quorum 2: replica 1's trip completes the quorum, until all " + (n - 2) + " others are open",
				toAll));
		table.add(report("quorum 2: the same, each other replica", each));
		table.add(report("quorum 2: replica 0 is reset, until all " + (n - 1) + " others are closed", closeAll));
	}

	/** Quorum 1: replica 0's trip opens every other replica; its reset closes them. */
	private static void quorumOfOne(StampedFleet fleet, int rounds, int warmUp, List<String> table) {
		int n = fleet.size();
		long[] toAll = new long[rounds];
		long[] each = new long[rounds * (n - 1)];
		long[] closeAll = new long[rounds];
		for (int i = -warmUp; i < rounds; i++) {
			fleet.clearStamps();
			long tripAt = System.nanoTime();
			fail(fleet.breaker(0));
			fleet.awaitOpen(1);
			long resetAt = System.nanoTime();
			fleet.breaker(0).reset();
			fleet.awaitClosed(1);
			if (i >= 0) {
				long last = 0;
				for (int k = 1; k < n; k++) {
					long micros = (fleet.openedAt(k) - tripAt) / 1_000;
					each[i * (n - 1) + k - 1] = micros;
					last = Math.max(last, micros);
				}
				toAll[i] = last;
				closeAll[i] = (fleet.lastClosedAt(1) - resetAt) / 1_000;
			}
		}
		System.out.printf("trip propagation, quorum 1: from replica 0's trip, %d rounds after %d warm-up:%n", rounds,
				warmUp);
		table.add(report("quorum 1: replica 0 trips, until all " + (n - 1) + " others are open", toAll));
		table.add(report("quorum 1: the same, each other replica", each));
		table.add(report("quorum 1: replica 0 is reset, until all " + (n - 1) + " others are closed", closeAll));
	}

	/**
	 * Counts what Redis executes for {@code seconds}, idle or with every core calling
	 * closed breakers; returns a table row.
	 */
	private static String commands(String what, StampedFleet fleet, CommandStats stats, int seconds, boolean load)
			throws InterruptedException {
		AtomicBoolean running = new AtomicBoolean(load);
		LongAdder calls = new LongAdder();
		List<Thread> threads = new ArrayList<>();
		if (load) {
			for (int t = 0; t < Runtime.getRuntime().availableProcessors(); t++) {
				int first = t;
				Thread thread = new Thread(() -> {
					int k = first;
					while (running.get()) {
						try {
							fleet.loadBreaker(k++ % fleet.size()).call(() -> "ok");
						}
						catch (Exception e) {
							throw new IllegalStateException(e);
						}
						calls.increment();
					}
				});
				thread.setDaemon(true);
				thread.start();
				threads.add(thread);
			}
		}
		TimeUnit.SECONDS.sleep(2);
		Map<String, Long> before = stats.snapshot();
		calls.reset();
		long start = System.nanoTime();
		TimeUnit.SECONDS.sleep(seconds);
		CommandStats.Delta delta = CommandStats.between(before, stats.snapshot());
		double elapsed = (System.nanoTime() - start) / 1e9;
		long callsMade = calls.sum();
		running.set(false);
		for (Thread thread : threads) {
			thread.join();
		}
		double per = elapsed * fleet.size();
		String label = what + (load
				? String.format(Locale.ROOT, " (%,.0f guarded calls/s across the fleet)", callsMade / elapsed) : "");
		System.out.printf(Locale.ROOT, "Redis commands per replica and second, %s: %.2f executed, %.2f scripts (%s)%n",
				label, delta.total() / per, delta.scripts() / per, delta.per(per));
		return String.format(Locale.ROOT, "| %s | %.2f | %.2f | %s |", label, delta.total() / per,
				delta.scripts() / per, delta.per(per));
	}

	private static void fail(Breaker breaker) {
		try {
			breaker.call(() -> {
				throw new IOException("down");
			});
		}
		catch (IOException expected) {
			// the trip
		}
		catch (Exception other) {
			throw new IllegalStateException(other);
		}
		if (breaker.state() != State.OPEN) {
			throw new IllegalStateException("the breaker did not trip: " + breaker.state());
		}
	}

	/**
	 * Prints the quantiles of {@code micros} and returns them as a table row
	 * (milliseconds).
	 */
	private static String report(String what, long[] micros) {
		if (micros.length == 0) {
			System.out.printf(Locale.ROOT, "  %-72s n/a: no replica to measure%n", what);
			return "| " + what + " | n/a | n/a | n/a | n/a | n/a |";
		}
		long[] sorted = micros.clone();
		Arrays.sort(sorted);
		System.out.printf(Locale.ROOT, "  %-72s p50 %6d us   p90 %6d us   p99 %6d us   p99.9 %6d us   max %6d us%n",
				what, at(sorted, 0.50), at(sorted, 0.90), at(sorted, 0.99), at(sorted, 0.999),
				sorted[sorted.length - 1]);
		return String.format(Locale.ROOT, "| %s | %.2f ms | %.2f ms | %.2f ms | %.2f ms | %.2f ms |", what,
				at(sorted, 0.50) / 1e3, at(sorted, 0.90) / 1e3, at(sorted, 0.99) / 1e3, at(sorted, 0.999) / 1e3,
				sorted[sorted.length - 1] / 1e3);
	}

	private static long at(long[] sorted, double quantile) {
		int index = (int) Math.ceil(quantile * sorted.length) - 1;
		return sorted[Math.max(0, Math.min(sorted.length - 1, index))];
	}

	private static int arg(String[] args, int index, int otherwise) {
		return args.length > index ? Integer.parseInt(args[index]) : otherwise;
	}

}
