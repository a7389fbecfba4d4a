package dev.breaker.sample.demo;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import dev.breaker.core.BreakerConfig;
import dev.breaker.core.BreakerRegistry;
import dev.breaker.core.State;
import dev.breaker.core.Transition;
import dev.breaker.redis.SharedStoreStatus;
import dev.breaker.sample.demo.BreakerWatch.Seen;
import dev.breaker.sample.demo.LoadGenerator.Endpoint;
import dev.breaker.sample.demo.LoadGenerator.Sample;
import dev.breaker.sample.dependency.Dependencies;

import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * One replica of the checkout service in the fleet demo: its context, its customers and
 * what they got.
 */
final class FleetReplica implements AutoCloseable {

	/**
	 * A gateway for a fleet: every charge is taken as it arrives (none waits for a
	 * worker).
	 */
	private static final int GATEWAY_THREADS = 256;

	private static final Duration CLIENT_TIMEOUT = Duration.ofSeconds(5);

	private static final int MAX_IN_FLIGHT = 2_000;

	private final String name;

	private final int rate;

	private final ConfigurableApplicationContext app;

	private final BreakerWatch breakers;

	private final SharedStoreStatus store;

	private final List<Sample> samples = new ArrayList<>();

	private LoadGenerator load;

	FleetReplica(String name, int rate, ConfigurableApplicationContext app) {
		this.name = name;
		this.rate = rate;
		this.app = app;
		this.breakers = new BreakerWatch(app.getBean(BreakerRegistry.class));
		this.store = app.getBean(SharedStoreStatus.class);
	}

	/**
	 * Starts replica {@code checkout-<number>} in fleet mode on {@code redis}, charging
	 * {@code gateway} (null: its own), with the user's {@code args} last.
	 */
	static FleetReplica start(int number, int rate, EmbeddedRedis redis, String gateway, String[] args) {
		String name = "checkout-" + number;
		List<String> settings = new ArrayList<>(List.of("--spring.data.redis.host=127.0.0.1",
				"--spring.data.redis.port=" + redis.port(), "--breaker.shared.redis.enabled=true",
				"--breaker.shared.redis.replica-id=" + name, "--logging.level.io.lettuce=ERROR",
				// a gateway for a fleet: it takes every charge as it arrives (none waits
				// for a worker), so the
				// requests it counts after the heal are the probes sent after it
				"--sample.dependencies.payments.threads=" + GATEWAY_THREADS));
		if (gateway != null) {
			settings.add("--sample.dependencies.payments.url=" + gateway);
		}
		return new FleetReplica(name, rate, IncidentDemo.startApp(settings, args));
	}

	String name() {
		return this.name;
	}

	int rate() {
		return this.rate;
	}

	int port() {
		return ((WebServerApplicationContext) this.app).getWebServer().getPort();
	}

	Dependencies dependencies() {
		return this.app.getBean(Dependencies.class);
	}

	BreakerWatch breakers() {
		return this.breakers;
	}

	SharedStoreStatus store() {
		return this.store;
	}

	/**
	 * Runs {@code listener} on the thread of every transition of this replica's payments
	 * breaker.
	 */
	void onPaymentsTransition(Consumer<Transition> listener) {
		this.app.getBean(BreakerRegistry.class).onTransition((transition) -> {
			if (transition.breaker().equals("payments")) {
				listener.accept(transition);
			}
		});
	}

	/** How many replicas must trip a circuit before it opens fleet-wide. */
	String quorum() {
		return this.app.getEnvironment().getProperty("breaker.shared.redis.quorum", "2");
	}

	BreakerConfig paymentsConfig() {
		return this.app.getBean(BreakerRegistry.class).breaker("payments").config();
	}

	/** The payments breaker's state, {@code null} before its first call. */
	State payments() {
		return this.breakers.state("payments");
	}

	/**
	 * Starts this replica's customers: {@link #rate()} requests a second, for
	 * {@code duration}.
	 */
	void startLoad(Duration ramp, Duration duration) {
		this.load = new LoadGenerator(URI.create("http://127.0.0.1:" + port()), this.rate, ramp, duration,
				CLIENT_TIMEOUT, MAX_IN_FLIGHT);
		this.load.start();
	}

	/**
	 * The requests finished since the last call; every one is also kept for the closing
	 * table.
	 */
	List<Sample> drain() {
		List<Sample> drained = this.load.drain();
		this.samples.addAll(drained);
		return drained;
	}

	/** Stops sending, waits for the answers in flight and keeps them. */
	void stopLoad() throws InterruptedException {
		this.load.stop();
		drain();
	}

	/** Every request this replica's customers sent, once finished. */
	List<Sample> samples() {
		return this.samples;
	}

	/**
	 * What this replica measured, once the run is over (the instants are the demo's
	 * {@link System#nanoTime()}).
	 */
	FleetResult.Replica result(long countFrom, long wedgeAt, boolean closedAtWedge, long healAt, long probesWhileWedged,
			long probesAfterHeal, long downAt, long outageEnd, boolean seenDown) {
		// The trip counts only from a closed breaker: one still open from an earlier blip
		// did not see this wedge.
		Optional<Seen> trip = closedAtWedge ? this.breakers.firstSeen("payments", null, State.OPEN, wedgeAt)
				: Optional.empty();
		Optional<Seen> closed = this.breakers.firstSeen("payments", null, State.CLOSED, healAt);
		int checkouts = 0;
		int answered = 0;
		int sentWhileDown = 0;
		int failedWhileDown = 0;
		for (Sample sample : this.samples) {
			if (sample.sentNanos() < countFrom) {
				continue; // the warm-up does not count
			}
			if (sample.endpoint() == Endpoint.CHECKOUT) {
				checkouts++;
				answered += sample.answered() ? 1 : 0;
			}
			if (sample.sentNanos() >= downAt && sample.sentNanos() <= outageEnd) {
				sentWhileDown++;
				failedWhileDown += sample.answered() ? 0 : 1;
			}
		}
		return new FleetResult.Replica(this.name, this.rate, since(wedgeAt, trip),
				trip.map(FleetReplica::cause).orElse("-"), since(healAt, closed), probesWhileWedged, probesAfterHeal,
				checkouts, answered, sentWhileDown, failedWhileDown, seenDown, this.store.errors());
	}

	private static String cause(Seen seen) {
		String reason = seen.transition().reason();
		if (!seen.transition().remote()) {
			return "own rules";
		}
		// "peer checkout-2: <why it tripped>": who opened it here
		int colon = reason.indexOf(':');
		return (colon > 0) ? reason.substring(0, colon) : "a peer";
	}

	private static long since(long from, Optional<Seen> to) {
		return (from == 0 || to.isEmpty()) ? -1 : TimeUnit.NANOSECONDS.toMillis(to.get().nanos() - from);
	}

	@Override
	public void close() {
		if (this.load != null) {
			this.load.close();
		}
		this.app.close();
	}

}
