package dev.breaker.sample.demo;

import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import dev.breaker.core.State;
import dev.breaker.core.Transition;
import dev.breaker.sample.demo.BreakerWatch.Seen;
import dev.breaker.sample.demo.LoadGenerator.Result;
import dev.breaker.sample.dependency.ChaosMode;
import dev.breaker.sample.dependency.DependencyServer;

/**
 * The fleet demo: an embedded Redis and three replicas of the checkout service in fleet
 * mode, all charging one payments gateway. It wedges the gateway, kills Redis for a few
 * seconds and starts it again, heals the gateway, and prints second by second each
 * replica's payments breaker and what its customers got; then the closing table.
 */
public final class FleetDemo {

	/**
	 * Requests a second each replica's customers send: the third replica is a quiet one.
	 */
	private static final int[] RATES = { 40, 40, 8 };

	private static final int RAMP = 4;

	private static final int WARMUP = 5;

	private static final int WEDGE_AT = WARMUP + 2;

	private static final int REDIS_DOWN_AT = WEDGE_AT + 3;

	private static final int REDIS_UP_AT = REDIS_DOWN_AT + 4;

	private static final int HEAL_AT = REDIS_UP_AT + 3;

	private static final int END_AT = HEAL_AT + 10;

	private final PrintStream out;

	private final String[] args;

	FleetDemo(PrintStream out, String[] args) {
		this.out = out;
		this.args = args;
	}

	/**
	 * Runs the fleet demo and prints its closing table; {@code args} go to every replica.
	 */
	public static void main(String[] args) throws InterruptedException {
		new FleetDemo(System.out, args).run();
	}

	FleetResult run() throws InterruptedException {
		try (EmbeddedRedis redis = EmbeddedRedis.start()) {
			List<FleetReplica> fleet = new ArrayList<>();
			try {
				startFleet(redis, fleet);
				return drive(redis, fleet);
			}
			finally {
				fleet.forEach(FleetReplica::close);
			}
		}
	}

	private void startFleet(EmbeddedRedis redis, List<FleetReplica> fleet) throws InterruptedException {
		long started = System.nanoTime();
		fleet.add(FleetReplica.start(1, RATES[0], redis, null, this.args));
		// The gateway the fleet charges: the first replica's, which the others call too.
		String gateway = fleet.get(0).dependencies().payments().baseUri().toString();
		ExecutorService starters = Executors.newFixedThreadPool(RATES.length - 1);
		try {
			List<Future<FleetReplica>> others = new ArrayList<>();
			for (int i = 2; i <= RATES.length; i++) {
				int number = i;
				others.add(starters
					.submit(() -> FleetReplica.start(number, RATES[number - 1], redis, gateway, this.args)));
			}
			ExecutionException failed = null;
			for (Future<FleetReplica> other : others) {
				try {
					// the caller closes those that started, whatever happens
					fleet.add(other.get());
				}
				catch (ExecutionException ex) {
					failed = ex;
				}
			}
			if (failed != null) {
				throw new IllegalStateException("a replica did not start", failed.getCause());
			}
		}
		finally {
			starters.shutdown();
		}
		this.out.printf(Locale.ROOT,
				"Fleet demo: %s; %d replicas of the checkout service in fleet mode (quorum %s),"
						+ " all charging one payments gateway (%s); started in %.1f s%n",
				redis, fleet.size(), fleet.get(0).quorum(), gateway, seconds(System.nanoTime() - started));
		for (FleetReplica replica : fleet) {
			this.out.printf("  %s on port %d: %d requests/s from its own customers (3 in 10 POST /checkout)%n",
					replica.name(), replica.port(), replica.rate());
		}
		this.out.printf(
				"script: %ds warm-up (breakers reset after it), gateway WEDGED at %ds, Redis KILLED at %ds and"
						+ " started again (empty, same port) at %ds, gateway HEALED at %ds, end at %ds%n",
				WARMUP, WEDGE_AT, REDIS_DOWN_AT, REDIS_UP_AT, HEAL_AT, END_AT);
		this.out.println("columns per replica: its payments breaker; of its customers' requests finished in the second:"
				+ " answered ok, answered by a fallback (payment queued), failed; whether its store sees Redis");
		this.out.println();
		StringBuilder header = new StringBuilder("   t phase      redis ");
		for (FleetReplica replica : fleet) {
			header.append(String.format(Locale.ROOT, "| %-27s ", replica.name() + " (" + replica.rate() + "/s)"));
		}
		this.out.println(header);
	}

	private FleetResult drive(EmbeddedRedis redis, List<FleetReplica> fleet) throws InterruptedException {
		DependencyServer gateway = fleet.get(0).dependencies().payments();
		int n = fleet.size();
		long start = System.nanoTime();
		FleetTimeline timeline = new FleetTimeline(fleet, gateway, start);
		for (FleetReplica replica : fleet) {
			replica.startLoad(Duration.ofSeconds(RAMP), Duration.ofSeconds(END_AT));
		}
		for (int second = 1; second <= END_AT; second++) {
			LockSupport.parkNanos(start + TimeUnit.SECONDS.toNanos(second) - System.nanoTime());
			StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "%4d %-10s %-5s ", second, phase(second),
					redis.running() ? "up" : "DOWN"));
			for (int i = 0; i < n; i++) {
				FleetReplica replica = fleet.get(i);
				PhaseStats thisSecond = new PhaseStats();
				replica.drain().forEach(thisSecond::add);
				boolean storeUp = replica.store().up();
				timeline.store(i, storeUp);
				State payments = replica.payments();
				line.append(String.format(Locale.ROOT, "| %-9s %4d %4d %3d %-4s ", (payments != null) ? payments : "-",
						thisSecond.count(Result.OK), thisSecond.count(Result.FALLBACK), thisSecond.failed(),
						storeUp ? "up" : "DOWN"));
			}
			printTransitions(start, fleet);
			this.out.println(line);
			long back = timeline.everyStoreBack();
			if (back >= 0) {
				this.out.printf(Locale.ROOT, "  >> %5.2fs every replica's store sees Redis again%n", seconds(back));
			}
			if (second == WARMUP) {
				resetTripped(start, fleet, "during the warm-up");
			}
			if (second == WEDGE_AT) {
				resetTripped(start, fleet, "before the wedge (a pause of the loaded JVM looks like a stall)");
				timeline.wedging();
				gateway.chaos(gateway.chaos().withMode(ChaosMode.WEDGED));
				this.out.printf(Locale.ROOT,
						"  >> %5.2fs payments gateway WEDGED (charges hang past the 1 s read" + " timeout)%n",
						seconds(timeline.wedged()));
			}
			if (second == REDIS_DOWN_AT) {
				redis.kill();
				this.out.printf(Locale.ROOT, "  >> %5.2fs Redis KILLED%n", seconds(timeline.redisDown()));
			}
			if (second == REDIS_UP_AT) {
				redis.restart();
				this.out.printf(Locale.ROOT, "  >> %5.2fs Redis started again, empty, on port %d%n",
						seconds(timeline.redisUp()), redis.port());
			}
			if (second == HEAL_AT) {
				timeline.healing();
				gateway.chaos(gateway.chaos().withMode(ChaosMode.HEALTHY));
				this.out.printf(Locale.ROOT, "  >> %5.2fs payments gateway HEALED%n", seconds(timeline.healed()));
			}
		}
		for (FleetReplica replica : fleet) {
			replica.stopLoad();
		}
		printTransitions(start, fleet);
		this.out.println();
		FleetResult result = timeline.result(WARMUP);
		new FleetSummaryTable(this.out).print(result);
		return result;
	}

	/**
	 * An operator's reset of every breaker that is not closed, so that the wedge meets
	 * closed breakers.
	 */
	private void resetTripped(long start, List<FleetReplica> fleet, String when) {
		int reset = 0;
		for (FleetReplica replica : fleet) {
			reset += replica.breakers().resetAll();
		}
		printTransitions(start, fleet);
		if (reset > 0) {
			this.out.printf(Locale.ROOT, "  >> %5.2fs %d breakers tripped %s are reset%n",
					seconds(System.nanoTime() - start), reset, when);
		}
	}

	/**
	 * Prints the transitions since the last call of the payments breakers and of the
	 * per-host breakers of the gateway (shown as {@code http:gateway}), all replicas' in
	 * the order they happened.
	 */
	private void printTransitions(long start, List<FleetReplica> fleet) {
		String gatewayHost = "http:" + fleet.get(0).dependencies().payments().baseUri().getAuthority();
		List<Map.Entry<Seen, String>> seen = new ArrayList<>();
		for (FleetReplica replica : fleet) {
			for (Seen one : replica.breakers().drainTransitions()) {
				String breaker = one.transition().breaker();
				if (breaker.equals("payments") || breaker.equals(gatewayHost)) {
					seen.add(Map.entry(one, replica.name()));
				}
			}
		}
		seen.sort(Comparator.comparingLong((entry) -> entry.getKey().nanos()));
		for (Map.Entry<Seen, String> entry : seen) {
			Transition transition = entry.getKey().transition();
			this.out.printf(Locale.ROOT, "  >> %5.2fs %s: %s %s -> %s (%s)%n", seconds(entry.getKey().nanos() - start),
					entry.getValue(), transition.breaker().equals("payments") ? "payments" : "http:gateway",
					transition.from(), transition.to(), transition.reason().replace(gatewayHost, "http:gateway"));
		}
	}

	private static String phase(int second) {
		if (second <= WARMUP) {
			return "warm-up";
		}
		if (second <= WEDGE_AT) {
			return "healthy";
		}
		if (second <= HEAL_AT) {
			return "WEDGED";
		}
		return "healed";
	}

	private static double seconds(long nanos) {
		return nanos / 1e9;
	}

}
