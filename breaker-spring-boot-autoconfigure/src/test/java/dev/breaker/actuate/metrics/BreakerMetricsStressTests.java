package dev.breaker.actuate.metrics;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import dev.breaker.actuate.BreakerTree;
import dev.breaker.core.Breaker;
import dev.breaker.core.BreakerConfig;
import dev.breaker.core.BreakerRegistry;
import dev.breaker.core.BreakerRegistry.Children;
import dev.breaker.core.ManualTicker;
import dev.breaker.core.State;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The metrics' claims under races: no thread waits for another through Micrometer's lock,
 * only live children have meters and their gauges read them, and a transition made while
 * its breaker's meters are registered is counted once. {@code -Dbreaker.stress=long} runs
 * ten times the rounds.
 */
class BreakerMetricsStressTests {

	private static final int SCALE = "long".equals(System.getProperty("breaker.stress")) ? 10 : 1;

	@Test
	void tenantsChurnedByCallersOverridesAndRegistryCallbacksLeaveMetersOnTheLiveChildrenOnly() throws Exception {
		BreakerRegistry breakers = BreakerRegistry.builder()
			.defaults(BreakerConfig.builder().ticker(new ManualTicker()).build())
			.children("tenants", new Children(4, Duration.ofMinutes(10), false))
			.build();
		SimpleMeterRegistry registry = new SimpleMeterRegistry();
		AtomicInteger added = new AtomicInteger();
		// user code under Micrometer's lock: an application meter's listener creates
		// (and so evicts) tenants (a listener doing so for breaker meters too would
		// create tenants without end, each one's meters creating more)
		registry.config().onMeterAdded((meter) -> {
			if ("app.requests".equals(meter.getId().getName())) {
				breakers.breaker("tenants", "k" + (added.incrementAndGet() % 40));
			}
		});
		registry.config().meterFilter(new MeterFilter() {
			@Override
			public Meter.Id map(Meter.Id id) {
				if ("breaker.transitions".equals(id.getName()) && "FORCED_OPEN".equals(id.getTag("to"))) {
					breakers.breaker("tenants", "k" + (id.hashCode() & 31));
				}
				return id;
			}
		});
		new BreakerMetrics(breakers, new BreakerTree(breakers), true).bindTo(registry);
		Thread[] threads = new Thread[4];
		for (int t = 0; t < threads.length; t++) {
			int seed = t;
			threads[t] = new Thread(() -> {
				Random random = new Random(seed);
				for (int i = 0; i < 5_000 * SCALE; i++) {
					Breaker tenant = breakers.breaker("tenants", "k" + random.nextInt(40));
					switch (random.nextInt(8)) {
						case 0 -> tenant.forceOpen();
						case 1 -> tenant.reset();
						case 2 -> registry.counter("app.requests", "i", Integer.toString(random.nextInt(500)));
						default -> {
						}
					}
				}
			}, "churn-" + t);
			threads[t].setDaemon(true);
			threads[t].start();
		}
		for (Thread thread : threads) {
			thread.join(120_000);
		}

		assertThat(ManagementFactory.getThreadMXBean().findDeadlockedThreads()).as("deadlocked threads").isNull();
		assertThat(threads).filteredOn(Thread::isAlive).as("threads still running").isEmpty();
		Set<String> withMeters = new TreeSet<>();
		registry.getMeters().forEach((meter) -> {
			String tenant = meter.getId().getTag("tenant");
			if (tenant != null && !tenant.isEmpty()) {
				withMeters.add(tenant);
			}
		});
		Set<String> live = new TreeSet<>();
		breakers.children("tenants").forEach((child) -> live.add(child.key()));
		assertThat(withMeters).as("tenants with meters").isEqualTo(live);
		for (Breaker child : breakers.children("tenants")) {
			for (State state : State.values()) {
				assertThat(registry.find("breaker.state").tags("tenant", child.key(), "state", state.name()).gauges())
					.as("%s's %s gauge", child.key(), state)
					.singleElement()
					.extracting((gauge) -> gauge.value())
					.isEqualTo((child.state() == state) ? 1.0 : 0.0);
			}
		}
	}

	@Test
	void transitionsMadeWhileTheMetersAreBeingRegisteredAreCountedOnceEach() throws Exception {
		BreakerRegistry breakers = BreakerRegistry.builder()
			.defaults(BreakerConfig.builder().ticker(new ManualTicker()).build())
			.build();
		SimpleMeterRegistry registry = new SimpleMeterRegistry();
		int rounds = 300 * SCALE;
		CountDownLatch[] registering = new CountDownLatch[rounds];
		for (int i = 0; i < rounds; i++) {
			registering[i] = new CountDownLatch(1);
		}
		registry.config().meterFilter(new MeterFilter() {
			@Override
			public Meter.Id map(Meter.Id id) {
				String name = id.getTag("name");
				if (name != null && name.startsWith("b-") && "breaker.state".equals(id.getName())) {
					registering[Integer.parseInt(name.substring(2))].countDown();
				}
				return id;
			}
		});
		new BreakerMetrics(breakers, new BreakerTree(breakers), false).bindTo(registry);
		for (int i = 0; i < rounds; i++) {
			String name = "b-" + i;
			CountDownLatch started = registering[i];
			Thread overriding = new Thread(() -> {
				try {
					started.await(30, TimeUnit.SECONDS);
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
				}
				Breaker breaker = breakers.find(name).orElseThrow();
				breaker.forceOpen();
				breaker.reset();
				breaker.forceOpen();
				breaker.reset();
			});
			overriding.start();
			breakers.breaker(name);
			overriding.join(30_000);
			assertThat(overriding.isAlive()).as("round %d: overriding thread stuck", i).isFalse();

			assertThat(transitions(registry, name, "CLOSED", "FORCED_OPEN")).as("round %d: CLOSED -> FORCED_OPEN", i)
				.isEqualTo(2);
			assertThat(transitions(registry, name, "FORCED_OPEN", "CLOSED")).as("round %d: FORCED_OPEN -> CLOSED", i)
				.isEqualTo(2);
			assertThat(registry.get("breaker.open").tag("name", name).timer().count()).as("round %d: open episodes", i)
				.isEqualTo(2);
		}
	}

	private static double transitions(SimpleMeterRegistry registry, String name, String from, String to) {
		return registry.find("breaker.transitions")
			.tags("name", name, "from", from, "to", to)
			.counters()
			.stream()
			.mapToDouble(Counter::count)
			.sum();
	}

}
