package dev.breaker.sample.demo;

import java.io.PrintStream;
import java.util.Locale;
import java.util.function.Function;

/**
 * The fleet demo's last word: per replica, then fleet-wide, and the targets met or
 * missed.
 */
final class FleetSummaryTable {

	private final PrintStream out;

	FleetSummaryTable(PrintStream out) {
		this.out = out;
	}

	void print(FleetResult result) {
		this.out.println("=== fleet summary (requests counted from the end of the warm-up)");
		StringBuilder header = new StringBuilder(String.format(Locale.ROOT, "%-46s", ""));
		result.replicas().forEach((replica) -> header.append(String.format(Locale.ROOT, " %22s", replica.name())));
		this.out.println(header);
		row(result, "customers' requests per second", (replica) -> String.valueOf(replica.rate()));
		row(result, "wedge -> payments OPEN on the replica", (replica) -> duration(replica.tripMillis()));
		row(result, "  opened by", FleetResult.Replica::tripCause);
		row(result, "heal -> payments CLOSED on the replica", (replica) -> duration(replica.closedMillis()));
		row(result, "half-open probes while the gateway was wedged",
				(replica) -> String.valueOf(replica.probesWhileWedged()));
		row(result, "half-open probes after the heal", (replica) -> String.valueOf(replica.probesAfterHeal()));
		row(result, "checkouts answered (paid or queued)", (replica) -> answered(replica));
		row(result, "requests while Redis was down / failed",
				(replica) -> replica.sentWhileRedisDown() + " / " + replica.failedWhileRedisDown());
		row(result, "store saw Redis down / errors counted",
				(replica) -> (replica.storeSeenDown() ? "yes" : "no") + " / " + replica.storeErrors());
		this.out.println();
		this.out.printf(Locale.ROOT, "Redis down %.2f s; every replica's store up again %s after the restart%n",
				result.redisDownMillis() / 1000.0, duration(result.storeBackMillis()));
		this.out
			.printf(Locale.ROOT, "probes that reached the recovering gateway fleet-wide (counted by the gateway, from"
					+ " the heal to the first close): %s in %d half-open round(s); per round the fleet shares %d probe slots"
					+ " and closes on %d successes%n",
					(result.recoveryProbes() < 0) ? "-" : String.valueOf(result.recoveryProbes()),
					result.recoveryRounds(), result.probeSlots(), result.successesToClose());
		this.out.printf(Locale.ROOT, "half-open probes the breakers counted, all replicas: %d while the gateway was"
				+ " wedged, %d after the heal%n", result.probesWhileWedged(), result.probesAfterHeal());
		this.out.printf(Locale.ROOT, "calls failed because of Redis: %d (every request that failed while Redis was"
				+ " down or not yet seen back counts)%n", result.failedWhileRedisDown());
		this.out.println();
		targets(result);
	}

	private void targets(FleetResult result) {
		long slowest = result.replicas().stream().mapToLong(FleetResult.Replica::tripMillis).max().orElse(-1);
		boolean everyReplica = result.replicas().stream().allMatch((replica) -> replica.tripMillis() >= 0);
		boolean closedEverywhere = result.replicas().stream().allMatch((replica) -> replica.closedMillis() >= 0);
		this.out.println("targets:");
		target("the trip reaches every replica", everyReplica,
				everyReplica ? "last one after " + duration(slowest) : "not every replica opened");
		target("probes reaching the recovering gateway within the fleet's bound (rounds x (successes to close"
				+ " + failures to reopen + slots - 2))",
				result.recoveryProbes() >= 0 && result.recoveryProbes() <= result.probeBound(),
				result.recoveryProbes() + " <= " + result.recoveryRounds() + " x " + result.probesPerRound());
		target("payments closes on every replica after the heal", closedEverywhere, closedEverywhere ? "yes" : "no");
		target("0 calls failed because of Redis", result.failedWhileRedisDown() == 0,
				String.valueOf(result.failedWhileRedisDown()));
	}

	private void target(String what, boolean met, String measured) {
		this.out.printf("  [%s] %s: %s%n", met ? "met   " : "missed", what, measured);
	}

	private void row(FleetResult result, String what, Function<FleetResult.Replica, String> value) {
		StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "%-46s", what));
		result.replicas().forEach((replica) -> line.append(String.format(Locale.ROOT, " %22s", value.apply(replica))));
		this.out.println(line);
	}

	private static String answered(FleetResult.Replica replica) {
		return (replica.checkouts() == 0) ? "-" : String.format(Locale.ROOT, "%.2f %% of %d",
				100.0 * replica.checkoutsAnswered() / replica.checkouts(), replica.checkouts());
	}

	private static String duration(long millis) {
		return (millis < 0) ? "-" : String.format(Locale.ROOT, "%.2f s", millis / 1000.0);
	}

}
