package dev.breaker.sample.demo;

import java.io.PrintStream;
import java.util.Locale;

import dev.breaker.sample.demo.LoadGenerator.Endpoint;
import dev.breaker.sample.demo.LoadGenerator.Result;

/**
 * The demo's last word: both runs side by side, and the targets the run with breakers met
 * or missed.
 */
final class SummaryTable {

	private final PrintStream out;

	SummaryTable(PrintStream out) {
		this.out = out;
	}

	void print(RunResult on, RunResult off) {
		this.out.println("=== summary (requests counted in the phase they were sent in)");
		row("", on.label(), off.label());
		row("wedge -> payments breaker OPEN", duration(on.wedgeToTripMillis()), duration(off.wedgeToTripMillis()));
		row("recovery -> payments breaker CLOSED", duration(on.recoveryToClosedMillis()),
				duration(off.recoveryToClosedMillis()));
		row("/catalog p50 / p99, healthy", millis(on.healthy(), Endpoint.CATALOG),
				millis(off.healthy(), Endpoint.CATALOG));
		row("/catalog p50 / p99, payments wedged", millis(on.wedged(), Endpoint.CATALOG),
				millis(off.wedged(), Endpoint.CATALOG));
		row("/checkout p50 / p99, healthy", millis(on.healthy(), Endpoint.CHECKOUT),
				millis(off.healthy(), Endpoint.CHECKOUT));
		row("/checkout p50 / p99, payments wedged", millis(on.wedged(), Endpoint.CHECKOUT),
				millis(off.wedged(), Endpoint.CHECKOUT));
		row("checkouts answered, payments wedged", answered(on.wedged(), Endpoint.CHECKOUT),
				answered(off.wedged(), Endpoint.CHECKOUT));
		row("  paid / payment queued / failed", split(on.wedged()), split(off.wedged()));
		row("/catalog answered, payments wedged", answered(on.wedged(), Endpoint.CATALOG),
				answered(off.wedged(), Endpoint.CATALOG));
		row("checkouts answered, whole run", answeredAll(on), answeredAll(off));
		row("most request threads busy (wedged)", on.maxBusyThreads() + "/" + on.maxThreads(),
				off.maxBusyThreads() + "/" + off.maxThreads());
		row("most requests waiting for a thread", String.valueOf(on.maxWaiting()), String.valueOf(off.maxWaiting()));
		this.out.println();
		targets(on);
	}

	private void targets(RunResult on) {
		double healthy = on.healthy().latencies(Endpoint.CATALOG).percentileMillis(99);
		double wedged = on.wedged().latencies(Endpoint.CATALOG).percentileMillis(99);
		double answered = on.wedged().answeredPercent(Endpoint.CHECKOUT);
		this.out.println("targets for the run with breakers:");
		target("payments breaker trips within 1 s of the wedge",
				on.wedgeToTripMillis() >= 0 && on.wedgeToTripMillis() <= 1000, duration(on.wedgeToTripMillis()));
		target("/catalog p99 while wedged within 1.5x its healthy p99", healthy > 0 && wedged <= 1.5 * healthy,
				String.format(Locale.ROOT, "%.1f ms vs %.1f ms (%.2fx)", wedged, healthy, wedged / healthy));
		target(">= 99% of checkouts answered while wedged", answered >= 99.0,
				String.format(Locale.ROOT, "%.2f %%", answered));
	}

	private void target(String what, boolean met, String measured) {
		this.out.printf("  [%s] %s: %s%n", met ? "met   " : "missed", what, measured);
	}

	private void row(String what, String on, String off) {
		this.out.printf("%-38s %18s %18s%n", what, on, off);
	}

	private static String duration(long millis) {
		return (millis < 0) ? "-" : String.format(Locale.ROOT, "%.2f s", millis / 1000.0);
	}

	private static String millis(PhaseStats stats, Endpoint endpoint) {
		Latencies latencies = stats.latencies(endpoint);
		if (latencies.count() == 0) {
			return "-";
		}
		return String.format(Locale.ROOT, "%.1f / %.0f ms", latencies.percentileMillis(50),
				latencies.percentileMillis(99));
	}

	private static String answered(PhaseStats stats, Endpoint endpoint) {
		double percent = stats.answeredPercent(endpoint);
		return (percent < 0) ? "-" : String.format(Locale.ROOT, "%.2f %% of %d", percent, stats.total(endpoint));
	}

	private static String split(PhaseStats stats) {
		int failed = stats.count(Endpoint.CHECKOUT, Result.ERROR) + stats.count(Endpoint.CHECKOUT, Result.TIMEOUT)
				+ stats.count(Endpoint.CHECKOUT, Result.NOT_SENT);
		return stats.count(Endpoint.CHECKOUT, Result.OK) + " / " + stats.count(Endpoint.CHECKOUT, Result.FALLBACK)
				+ " / " + failed;
	}

	private static String answeredAll(RunResult run) {
		int answered = 0;
		int total = 0;
		for (PhaseStats phase : new PhaseStats[] { run.healthy(), run.wedged(), run.recovered() }) {
			answered += phase.count(Endpoint.CHECKOUT, Result.OK) + phase.count(Endpoint.CHECKOUT, Result.FALLBACK);
			total += phase.total(Endpoint.CHECKOUT);
		}
		return (total == 0) ? "-" : String.format(Locale.ROOT, "%.2f %% of %d", 100.0 * answered / total, total);
	}

}
