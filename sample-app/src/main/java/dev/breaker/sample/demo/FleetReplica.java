package dev.breaker.sample.demo;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

import dev.breaker.core.BreakerConfig;
import dev.breaker.core.BreakerRegistry;
import dev.breaker.core.State;
import dev.breaker.core.Transition;
import dev.breaker.redis.SharedStoreStatus;
import dev.breaker.sample.demo.LoadGenerator.Sample;
import dev.breaker.sample.dependency.Dependencies;

import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

/** One replica of the checkout service in the fleet demo: its context, its customers and what they got. */
final class FleetReplica implements AutoCloseable {

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

	/** Runs {@code listener} on the thread of every transition of this replica's payments breaker. */
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

	/** Starts this replica's customers: {@link #rate()} requests a second, for {@code duration}. */
	void startLoad(Duration ramp, Duration duration) {
		this.load = new LoadGenerator(URI.create("http://127.0.0.1:" + port()), this.rate, ramp, duration,
				CLIENT_TIMEOUT, MAX_IN_FLIGHT);
		this.load.start();
	}

	/** The requests finished since the last call; every one is also kept for the closing table. */
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

	@Override
	public void close() {
		if (this.load != null) {
			this.load.close();
		}
		this.app.close();
	}

}
