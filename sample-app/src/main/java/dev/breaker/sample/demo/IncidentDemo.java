package dev.breaker.sample.demo;

import java.io.PrintStream;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalLong;
import java.util.StringJoiner;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import dev.breaker.core.BreakerRegistry;
import dev.breaker.core.State;
import dev.breaker.core.Transition;
import dev.breaker.sample.SampleApplication;
import dev.breaker.sample.demo.LoadGenerator.Endpoint;
import dev.breaker.sample.demo.LoadGenerator.Result;
import dev.breaker.sample.demo.LoadGenerator.Sample;
import dev.breaker.sample.dependency.ChaosMode;
import dev.breaker.sample.dependency.Dependencies;
import dev.breaker.sample.dependency.DependencyServer;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The incident demo: starts the app, sends it about 200 requests a second from a load
 * generator on loopback, wedges the payments gateway, lets it recover, and prints what
 * happened second by second; then does it all again with {@code breaker.enabled=false}
 * and prints both side by side.
 */
public final class IncidentDemo {

	private static final int RATE = 200;

	private static final int RAMP = 4;

	private static final int WARMUP = 6;

	private static final int WEDGE_AT = WARMUP + 6;

	private static final int RECOVER_AT = WEDGE_AT + 10;

	private static final int END_AT = RECOVER_AT + 10;

	private static final Duration CLIENT_TIMEOUT = Duration.ofSeconds(5);

	private static final int MAX_IN_FLIGHT = 2_000;

	private final PrintStream out;

	private final String[] args;

	IncidentDemo(PrintStream out, String[] args) {
		this.out = out;
		this.args = args;
	}

	/**
	 * Runs the demo twice (breakers on, then off) and prints the summary; {@code args} go
	 * to the app.
	 */
	public static void main(String[] args) throws InterruptedException {
		new IncidentDemo(System.out, args).run();
	}

	void run() throws InterruptedException {
		this.out.printf("Incident demo: %d requests/s to the checkout app (3 in 10 POST /checkout, 6 GET /catalog,"
				+ " 1 GET /recommendations)%n", RATE);
		this.out.printf("script: %ds warm-up (load ramps up over %ds, not counted, then any breaker a cold JVM tripped"
				+ " is reset), healthy until %ds, payments gateway WEDGED at %ds (calls hang past the client's read"
				+ " timeout), recovered at %ds, end at %ds%n", WARMUP, RAMP, WEDGE_AT, WEDGE_AT, RECOVER_AT, END_AT);
		this.out
			.println("columns: requests sent and finished in the second; of those finished: answered ok, answered by a"
					+ " fallback, failed (error, time-out, not sent); their latencies in ms; request threads busy/max and"
					+ " requests waiting for one; calls rejected by breakers");
		this.out.println();
		List<RunResult> results = new ArrayList<>();
		results.add(runOnce(true));
		results.add(runOnce(false));
		new SummaryTable(this.out).print(results.get(0), results.get(1));
	}

	private RunResult runOnce(boolean breakersOn) throws InterruptedException {
		String label = breakersOn ? "breakers on" : "breakers off";
		try (ConfigurableApplicationContext app = start(breakersOn)) {
			WebServerApplicationContext web = (WebServerApplicationContext) app;
			int port = web.getWebServer().getPort();
			Dependencies dependencies = app.getBean(Dependencies.class);
			DependencyServer payments = dependencies.payments();
			BreakerWatch breakers = new BreakerWatch(app.getBeanProvider(BreakerRegistry.class).getIfAvailable());
			ServerThreads threads = new ServerThreads(web.getWebServer());
			Names names = new Names(dependencies);
			this.out.printf("=== %s (breaker.enabled=%s): app on port %d, %s, %s, %d request threads%n", label,
					breakersOn, port, payments, dependencies.recommendations(), threads.read().max());
			this.out.println("   t phase      sent done   ok   fb  err | checkout p50   p99 | catalog p50   p99 |"
					+ " threads wait | rejected | breakers");
			return drive(label, port, payments, breakers, threads, names);
		}
	}

	private ConfigurableApplicationContext start(boolean breakersOn) {
		return startApp(List.of("--breaker.enabled=" + breakersOn), this.args);
	}

	/**
	 * Starts the app quietly on a free port with the demo's {@code settings}, then the
	 * user's {@code args}: command-line arguments, so that they win over application.yml,
	 * the user's last.
	 */
	static ConfigurableApplicationContext startApp(List<String> settings, String[] args) {
		List<String> all = new ArrayList<>(List.of("--server.port=0", "--server.shutdown=immediate",
				"--spring.main.banner-mode=off", "--logging.level.root=WARN", "--logging.level.dev.breaker=ERROR"));
		all.addAll(settings);
		all.addAll(List.of(args));
		return new SpringApplicationBuilder(SampleApplication.class).run(all.toArray(String[]::new));
	}

	private RunResult drive(String label, int port, DependencyServer payments, BreakerWatch breakers,
			ServerThreads threads, Names names) throws InterruptedException {
		PhaseStats healthy = new PhaseStats();
		PhaseStats wedged = new PhaseStats();
		PhaseStats recovered = new PhaseStats();
		long wedgeAt = 0;
		long recoverAt = 0;
		int maxBusy = 0;
		int maxWaiting = 0;
		long lastRejected = breakers.rejected();
		long lastSent = 0;
		State stateAtWedge = null;
		try (LoadGenerator load = new LoadGenerator(URI.create("http://127.0.0.1:" + port), RATE,
				Duration.ofSeconds(RAMP), Duration.ofSeconds(END_AT), CLIENT_TIMEOUT, MAX_IN_FLIGHT)) {
			long start = System.nanoTime();
			load.start();
			for (int second = 1; second <= END_AT; second++) {
				LockSupport.parkNanos(start + TimeUnit.SECONDS.toNanos(second) - System.nanoTime());
				PhaseStats thisSecond = new PhaseStats();
				for (Sample sample : load.drain()) {
					thisSecond.add(sample);
					long sentAt = sample.sentNanos() - start;
					if (sentAt >= TimeUnit.SECONDS.toNanos(RECOVER_AT)) {
						recovered.add(sample);
					}
					else if (sentAt >= TimeUnit.SECONDS.toNanos(WEDGE_AT)) {
						wedged.add(sample);
					}
					else if (sentAt >= TimeUnit.SECONDS.toNanos(WARMUP)) {
						healthy.add(sample);
					}
				}
				ServerThreads.Reading pool = threads.read();
				if (second > WEDGE_AT && second <= RECOVER_AT) {
					maxBusy = Math.max(maxBusy, pool.busy());
					maxWaiting = Math.max(maxWaiting, pool.waiting());
				}
				long rejected = breakers.rejected();
				long sent = load.sent();
				printTransitions(start, breakers, names);
				printSecond(second, sent - lastSent, thisSecond, pool, rejected - lastRejected, breakers, names);
				lastRejected = rejected;
				lastSent = sent;
				if (second == WARMUP && breakers.resetAll() > 0) {
					printTransitions(start, breakers, names);
					this.out.printf("  >> %5.2fs breakers tripped during the warm-up are reset%n",
							seconds(System.nanoTime() - start));
				}
				if (second == WEDGE_AT) {
					stateAtWedge = breakers.state("payments");
					payments.chaos(payments.chaos().withMode(ChaosMode.WEDGED));
					wedgeAt = System.nanoTime();
					this.out.printf("  >> %5.2fs payments gateway WEDGED%n", seconds(wedgeAt - start));
				}
				if (second == RECOVER_AT) {
					payments.chaos(payments.chaos().withMode(ChaosMode.HEALTHY));
					recoverAt = System.nanoTime();
					this.out.printf("  >> %5.2fs payments gateway HEALTHY again%n", seconds(recoverAt - start));
				}
			}
			load.stop();
			for (Sample sample : load.drain()) {
				long sentAt = sample.sentNanos() - start;
				(sentAt >= TimeUnit.SECONDS.toNanos(RECOVER_AT) ? recovered
						: sentAt >= TimeUnit.SECONDS.toNanos(WEDGE_AT) ? wedged : healthy)
					.add(sample);
			}
			printTransitions(start, breakers, names);
		}
		this.out.println();
		// The trip counts only from a closed breaker: one still open from an earlier blip
		// did not detect this wedge.
		long wedgeToTrip = (stateAtWedge == State.CLOSED)
				? since(wedgeAt, breakers.first("payments", State.CLOSED, State.OPEN, wedgeAt)) : -1;
		long recoveryToClosed = since(recoverAt, breakers.first("payments", State.HALF_OPEN, State.CLOSED, recoverAt));
		return new RunResult(label, wedgeToTrip, recoveryToClosed, healthy, wedged, recovered, maxBusy,
				threads.read().max(), maxWaiting);
	}

	private void printSecond(int second, long sent, PhaseStats stats, ServerThreads.Reading pool, long rejected,
			BreakerWatch breakers, Names names) {
		this.out.printf(Locale.ROOT, "%4d %-10s %4d %4d %4d %4d %4d | %12s %5s | %11s %5s | %4d/%-2d %4d | %8s | %s%n",
				second, phase(second), sent, stats.total(), stats.count(Result.OK), stats.count(Result.FALLBACK),
				stats.failed(), stats.latencies(Endpoint.CHECKOUT).format(50, 8),
				stats.latencies(Endpoint.CHECKOUT).format(99, 5), stats.latencies(Endpoint.CATALOG).format(50, 7),
				stats.latencies(Endpoint.CATALOG).format(99, 5), pool.busy(), pool.max(), pool.waiting(),
				breakers.enabled() ? String.valueOf(rejected) : "-", states(breakers, names));
	}

	private static String states(BreakerWatch breakers, Names names) {
		if (!breakers.enabled()) {
			return "(none: breaker.enabled=false)";
		}
		StringJoiner states = new StringJoiner(", ");
		breakers.states().forEach((name, state) -> {
			String shown = names.shorten(name) + " " + state;
			int children = breakers.childrenNotClosed(name);
			states.add(children > 0 ? shown + " (" + children + " tenants not closed)" : shown);
		});
		return states.toString();
	}

	private void printTransitions(long start, BreakerWatch breakers, Names names) {
		for (BreakerWatch.Seen seen : breakers.drainTransitions()) {
			Transition transition = seen.transition();
			this.out.printf(Locale.ROOT, "  >> %5.2fs %s %s -> %s (%s)%n", seconds(seen.nanos() - start),
					names.shorten(transition.breaker()), transition.from(), transition.to(), transition.reason());
		}
	}

	private static String phase(int second) {
		if (second <= WARMUP) {
			return "warm-up";
		}
		if (second <= WEDGE_AT) {
			return "healthy";
		}
		return (second <= RECOVER_AT) ? "WEDGED" : "recovered";
	}

	private static long since(long from, OptionalLong to) {
		return (from == 0 || to.isEmpty()) ? -1 : TimeUnit.NANOSECONDS.toMillis(to.getAsLong() - from);
	}

	private static double seconds(long nanos) {
		return nanos / 1e9;
	}

	/**
	 * Shows per-host breaker names with the dependency's name instead of its loopback
	 * address.
	 */
	private static final class Names {

		private final Map<String, String> hosts = new LinkedHashMap<>();

		Names(Dependencies dependencies) {
			for (DependencyServer server : dependencies.all()) {
				this.hosts.put(server.baseUri().getAuthority(), server.name());
			}
		}

		String shorten(String breaker) {
			String shown = breaker;
			for (Map.Entry<String, String> host : this.hosts.entrySet()) {
				shown = shown.replace(host.getKey(), host.getValue());
			}
			return shown;
		}

	}

}
