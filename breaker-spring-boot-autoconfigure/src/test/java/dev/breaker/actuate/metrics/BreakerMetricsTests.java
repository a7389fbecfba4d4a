package dev.breaker.actuate.metrics;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;
import java.util.function.ToDoubleFunction;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import dev.breaker.actuate.BreakerTree;
import dev.breaker.core.Breaker;
import dev.breaker.core.BreakerConfig;
import dev.breaker.core.BreakerOpenException;
import dev.breaker.core.BreakerRegistry;
import dev.breaker.core.BreakerRegistry.Children;
import dev.breaker.core.ManualTicker;
import dev.breaker.core.Outcome;
import dev.breaker.core.Permit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatNoException;

class BreakerMetricsTests {

	private final ManualTicker ticker = new ManualTicker();

	private final BreakerConfig config = BreakerConfig.builder()
		.consecutiveFailures(3)
		.openWait(Duration.ofSeconds(30))
		.openWaitJitter(0)
		.halfOpenSuccessesToClose(1)
		.ticker(this.ticker)
		.build();

	private final BreakerRegistry breakers = BreakerRegistry.builder()
		.defaults(this.config)
		.config("wedged", this.config.toBuilder().stallCalls(5).build())
		.children("recommendations", new Children(2, Duration.ofMinutes(10), false))
		.children("http", new Children(10, Duration.ofMinutes(10), false))
		.build();

	private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

	@Test
	void bindsBreakersCreatedBeforeAndAfterBinding() {
		this.breakers.breaker("payments");
		new BreakerMetrics(this.breakers, new BreakerTree(this.breakers), false).bindTo(this.registry);
		this.breakers.breaker("search");

		assertThat(this.registry.find("breaker.state").tag("state", "CLOSED").gauges())
			.extracting((gauge) -> gauge.getId().getTag("name"))
			.containsExactlyInAnyOrder("payments", "search");
	}

	@Test
	void stateGaugeIsOneForTheCurrentStateOnly() throws Exception {
		new BreakerMetrics(this.breakers, new BreakerTree(this.breakers), false).bindTo(this.registry);
		Breaker payments = this.breakers.breaker("payments");
		failTimes(payments, 3);

		assertThat(stateGauge("payments", "OPEN")).isEqualTo(1);
		assertThat(stateGauge("payments", "CLOSED")).isZero();
		assertThat(stateGauge("payments", "HALF_OPEN")).isZero();
	}

	@Test
	void callCountersFollowTheEngineTotals() throws Exception {
		new BreakerMetrics(this.breakers, new BreakerTree(this.breakers), false).bindTo(this.registry);
		Breaker payments = this.breakers.breaker("payments");
		payments.call(() -> "ok");
		payments.call(() -> "ok");
		failTimes(payments, 3);
		assertThatExceptionOfType(BreakerOpenException.class).isThrownBy(() -> payments.call(() -> "rejected"));

		assertThat(counter("breaker.calls", "payments", "outcome", "success")).isEqualTo(2);
		assertThat(counter("breaker.calls", "payments", "outcome", "failure")).isEqualTo(3);
		assertThat(counter("breaker.calls", "payments", "outcome", "timeout")).isZero();
		assertThat(this.registry.get("breaker.rejected.calls").tag("name", "payments").functionCounter().count())
			.isEqualTo(1);
		assertThat(this.registry.get("breaker.trips").tag("name", "payments").functionCounter().count()).isEqualTo(1);
	}

	@Test
	void retryCountersFollowTheBudget() {
		new BreakerMetrics(this.breakers, new BreakerTree(this.breakers), false).bindTo(this.registry);
		Breaker payments = this.breakers.breaker("payments");
		for (int i = 0; i < 101; i++) {
			payments.tryRetry(false);
		}

		assertThat(counter("breaker.retries", "payments", "result", "retried")).isEqualTo(100);
		assertThat(counter("breaker.retries", "payments", "result", "budget_exhausted")).isEqualTo(1);
	}

	@Test
	void countsEachTransitionByFromAndTo() throws Exception {
		new BreakerMetrics(this.breakers, new BreakerTree(this.breakers), false).bindTo(this.registry);
		Breaker payments = this.breakers.breaker("payments");
		failTimes(payments, 3);
		this.ticker.advance(Duration.ofSeconds(30));
		payments.call(() -> "probe");

		assertThat(transitions("payments", "CLOSED", "OPEN")).isEqualTo(1);
		assertThat(transitions("payments", "OPEN", "HALF_OPEN")).isEqualTo(1);
		assertThat(transitions("payments", "HALF_OPEN", "CLOSED")).isEqualTo(1);
		assertThat(transitions("payments", "HALF_OPEN", "OPEN")).isZero();
	}

	@Test
	void usualTransitionsExistBeforeTheFirstOneSoThatIncreaseSeesIt() {
		new BreakerMetrics(this.breakers, new BreakerTree(this.breakers), false).bindTo(this.registry);
		this.breakers.breaker("payments");

		assertThat(transitions("payments", "CLOSED", "OPEN")).isZero();
		assertThat(transitions("payments", "HALF_OPEN", "OPEN")).isZero();
	}

	@Test
	void recordsTheTimeFromTripUntilClosedAsOneOpenEpisode() throws Exception {
		new BreakerMetrics(this.breakers, new BreakerTree(this.breakers), false).bindTo(this.registry);
		Breaker payments = this.breakers.breaker("payments");
		failTimes(payments, 3);
		this.ticker.advance(Duration.ofSeconds(20));
		assertThat(this.registry.get("breaker.open.episode").tag("name", "payments").gauge().value()).isEqualTo(20);

		this.ticker.advance(Duration.ofSeconds(25));
		payments.call(() -> "probe");

		var episodes = this.registry.get("breaker.open").tag("name", "payments").timer();
		assertThat(episodes.count()).isEqualTo(1);
		assertThat(episodes.totalTime(TimeUnit.SECONDS)).isEqualTo(45);
		assertThat(this.registry.get("breaker.open.episode").tag("name", "payments").gauge().value()).isZero();
	}

	@Test
	void exportsThresholdsAndOpenWaitForDashboardsAndAlerts() {
		new BreakerMetrics(this.breakers, new BreakerTree(this.breakers), false).bindTo(this.registry);
		this.breakers.breaker("payments");

		assertThat(gauge("breaker.failure.rate.threshold", "payments")).isEqualTo(this.config.failureRateThreshold());
		assertThat(gauge("breaker.slow.call.rate.threshold", "payments"))
			.isEqualTo(this.config.slowCallRateThreshold());
		assertThat(gauge("breaker.open.wait", "payments")).isEqualTo(30);
	}

	@Test
	void inFlightGaugeCountsCallsNotYetFinishedWhenTheStallRuleIsOn() {
		new BreakerMetrics(this.breakers, new BreakerTree(this.breakers), false).bindTo(this.registry);
		Breaker wedged = this.breakers.breaker("wedged");
		Permit permit = wedged.acquire();

		assertThat(gauge("breaker.in.flight.calls", "wedged")).isEqualTo(1);
		wedged.release(permit, Outcome.SUCCESS, 0);
		assertThat(gauge("breaker.in.flight.calls", "wedged")).isZero();
	}

	@Test
	void tenantChildrenGetNoMetersByDefault() {
		new BreakerMetrics(this.breakers, new BreakerTree(this.breakers), false).bindTo(this.registry);
		this.breakers.breaker("recommendations");
		this.breakers.breaker("recommendations", "user-42");

		assertThat(this.registry.find("breaker.state").tag("state", "CLOSED").gauges())
			.extracting((gauge) -> gauge.getId().getTag("name"))
			.containsExactly("recommendations");
	}

	@Test
	void tenantChildrenAreTaggedWithTheirParentAndTenantWhenAsked() throws Exception {
		new BreakerMetrics(this.breakers, new BreakerTree(this.breakers), true).bindTo(this.registry);
		this.breakers.breaker("recommendations");
		this.breakers.breaker("recommendations", "user-42").call(() -> "ok");

		assertThat(this.registry.get("breaker.calls")
			.tags("name", "recommendations", "tenant", "user-42", "outcome", "success")
			.functionCounter()
			.count()).isEqualTo(1);
		assertThat(this.registry.get("breaker.calls")
			.tags("name", "recommendations", "tenant", "", "outcome", "success")
			.functionCounter()
			.count()).isZero();
	}

	@Test
	void perHostChildrenAreBreakersWithTheirOwnName() throws Exception {
		new BreakerMetrics(this.breakers, new BreakerTree(this.breakers), false).bindTo(this.registry);
		this.breakers.breaker("http", "api.acme.com").call(() -> "ok");

		assertThat(counter("breaker.calls", "http:api.acme.com", "outcome", "success")).isEqualTo(1);
	}

	@Test
	void perHostChildrenGetMetersOnlyWhenTheirHostIsNamed() throws Exception {
		new BreakerMetrics(this.breakers, new BreakerTree(this.breakers),
				new MeteredBreakers(false, false, Set.of("http:api.acme.com")))
			.bindTo(this.registry);
		this.breakers.breaker("http", "api.acme.com").call(() -> "ok");
		this.breakers.breaker("http", "from-a-user-url.example").call(() -> "ok");

		assertThat(this.registry.find("breaker.state").tag("state", "CLOSED").gauges())
			.extracting((gauge) -> gauge.getId().getTag("name"))
			.containsExactly("http:api.acme.com");
	}

	@Test
	void everyPerHostChildGetsMetersWithHostTags() throws Exception {
		new BreakerMetrics(this.breakers, new BreakerTree(this.breakers), new MeteredBreakers(false, true, Set.of()))
			.bindTo(this.registry);
		this.breakers.breaker("http", "api.acme.com").call(() -> "ok");
		this.breakers.breaker("http", "from-a-user-url.example").call(() -> "ok");

		assertThat(this.registry.find("breaker.state").tag("state", "CLOSED").gauges())
			.extracting((gauge) -> gauge.getId().getTag("name"))
			.containsExactlyInAnyOrder("http:api.acme.com", "http:from-a-user-url.example");
	}

	@Test
	void anEvictedChildLosesItsMeters() {
		new BreakerMetrics(this.breakers, new BreakerTree(this.breakers), true).bindTo(this.registry);
		this.breakers.breaker("recommendations", "user-1");
		this.breakers.breaker("recommendations", "user-2");
		this.breakers.breaker("recommendations", "user-3");

		assertThat(this.registry.find("breaker.state").tag("state", "CLOSED").gauges())
			.extracting((gauge) -> gauge.getId().getTag("tenant"))
			.hasSize(2)
			.doesNotContain("user-1");
		assertThat(this.registry.find("breaker.calls").tag("tenant", "user-1").meters()).isEmpty();
	}

	@Test
	void aTripOfAnEvictedChildIsNotCountedOnTheChildThatReplacedIt() throws Exception {
		new BreakerMetrics(this.breakers, new BreakerTree(this.breakers), true).bindTo(this.registry);
		Breaker evicted = this.breakers.breaker("recommendations", "user-1");
		this.breakers.breaker("recommendations", "user-2");
		this.breakers.breaker("recommendations", "user-3");
		Breaker current = this.breakers.breaker("recommendations", "user-1");
		assertThat(current).isNotSameAs(evicted);

		// calls that took the breaker before its eviction finish on it
		failTimes(evicted, 3);
		this.ticker.advance(Duration.ofSeconds(20));

		assertThat(current.state()).hasToString("CLOSED");
		assertThat(this.registry.get("breaker.transitions")
			.tags("name", "recommendations", "tenant", "user-1", "from", "CLOSED", "to", "OPEN")
			.counter()
			.count()).as("trips counted on the current user-1").isZero();
		assertThat(this.registry.get("breaker.open.episode")
			.tags("name", "recommendations", "tenant", "user-1")
			.gauge()
			.value()).as("open episode of the current user-1").isZero();
	}

	@Test
	void aChildReCreatedWhileItsEvictedPredecessorsMetersAreBeingRemovedKeepsItsOwnMeters() throws Exception {
		AtomicReference<@Nullable Thread> recreator = new AtomicReference<>();
		SimpleMeterRegistry removing = new SimpleMeterRegistry() {
			@Override
			public Meter remove(Meter meter) {
				if ("user-1".equals(meter.getId().getTag("tenant")) && recreator.get() == null) {
					// another caller asks for user-1 again while its evicted breaker's
					// meters are being removed
					Thread thread = new Thread(
							() -> BreakerMetricsTests.this.breakers.breaker("recommendations", "user-1"));
					recreator.set(thread);
					thread.start();
					awaitDoneOrBlocked(thread);
				}
				return super.remove(meter);
			}
		};
		new BreakerMetrics(this.breakers, new BreakerTree(this.breakers), true).bindTo(removing);
		Breaker evicted = this.breakers.breaker("recommendations", "user-1");
		this.breakers.breaker("recommendations", "user-2");
		this.breakers.breaker("recommendations", "user-3");
		Thread thread = recreator.get();
		assertThat(thread).isNotNull();
		thread.join(30_000);
		assertThat(thread.isAlive()).isFalse();

		Breaker current = this.breakers.find("recommendations:user-1").orElseThrow();
		assertThat(current).isNotSameAs(evicted);
		assertThat(removing.find("breaker.state")
			.tags("name", "recommendations", "tenant", "user-1", "state", "CLOSED")
			.gauges()).as("the state gauge of the re-created user-1").hasSize(1);
		assertThat(removing.find("breaker.calls").tags("tenant", "user-1").functionCounters())
			.as("the call counters of the re-created user-1")
			.hasSize(Outcome.values().length);
		current.call(() -> "ok");
		assertThat(removing.get("breaker.calls")
			.tags("name", "recommendations", "tenant", "user-1", "outcome", "success")
			.functionCounter()
			.count()).isEqualTo(1);
	}

	@Test
	void aChildEvictedBeforeItsCreationIsHeardGetsNoMetersThatOutliveIt() {
		// listeners run in the order they were added: this one, on the creating
		// thread, stands for the callers that churn through the group before the
		// binding hears of user-2's creation, and evict user-2
		this.breakers.onCreated((created) -> {
			if ("user-2".equals(created.key())) {
				this.breakers.breaker("recommendations", "user-3");
				this.breakers.breaker("recommendations", "user-4");
			}
		});
		new BreakerMetrics(this.breakers, new BreakerTree(this.breakers), true).bindTo(this.registry);
		this.breakers.breaker("recommendations", "user-1");
		Breaker evicted = this.breakers.breaker("recommendations", "user-2");
		assertThat(this.breakers.find(evicted.name())).isEmpty();

		assertThat(this.registry.find("breaker.state").tag("state", "CLOSED").gauges())
			.extracting((gauge) -> gauge.getId().getTag("tenant"))
			.containsExactlyInAnyOrder("user-3", "user-4");
		assertThat(this.registry.find("breaker.calls").tag("tenant", "user-2").meters()).isEmpty();
	}

	@Test
	void aChildEvictedAndReCreatedBeforeItsFirstCreationIsHeardKeepsTheReplacementsMeters() throws Exception {
		AtomicBoolean churned = new AtomicBoolean();
		this.breakers.onCreated((created) -> {
			if ("user-2".equals(created.key()) && !churned.getAndSet(true)) {
				this.breakers.breaker("recommendations", "user-3");
				this.breakers.breaker("recommendations", "user-4");
				this.breakers.breaker("recommendations", "user-2");
			}
		});
		new BreakerMetrics(this.breakers, new BreakerTree(this.breakers), true).bindTo(this.registry);
		this.breakers.breaker("recommendations", "user-1");
		Breaker evicted = this.breakers.breaker("recommendations", "user-2");
		Breaker current = this.breakers.find("recommendations:user-2").orElseThrow();
		assertThat(current).isNotSameAs(evicted);
		current.call(() -> "ok");

		assertThat(this.registry.find("breaker.state").tag("state", "CLOSED").gauges())
			.extracting((gauge) -> gauge.getId().getTag("tenant"))
			.containsExactlyInAnyOrder("user-4", "user-2");
		assertThat(this.registry.get("breaker.calls")
			.tags("name", "recommendations", "tenant", "user-2", "outcome", "success")
			.functionCounter()
			.count()).isEqualTo(1);
	}

	/**
	 * The child is evicted by another thread while its creation's meters are half
	 * registered: its removal must not take only the meters registered so far, leaving
	 * the rest (strong gauges on the dead breaker) for its re-created namesake to read.
	 */
	@Test
	void aChildEvictedWhileItsMetersAreBeingRegisteredLeavesNoMetersBehind() throws Exception {
		CountDownLatch registering = new CountDownLatch(1);
		CountDownLatch goOn = new CountDownLatch(1);
		SimpleMeterRegistry slow = blockingOnce((id) -> "user-1".equals(id.getTag("tenant")), registering, goOn);
		new BreakerMetrics(this.breakers, new BreakerTree(this.breakers), true).bindTo(slow);
		evictUser1While(() -> this.breakers.breaker("recommendations", "user-1"), registering, goOn);

		assertThat(this.breakers.find("recommendations:user-1")).isEmpty();
		assertThat(slow.getMeters()).filteredOn((meter) -> "user-1".equals(meter.getId().getTag("tenant")))
			.as("meters of the evicted user-1")
			.isEmpty();
		Breaker again = this.breakers.breaker("recommendations", "user-1");
		again.call(() -> "ok");
		assertThat(slow.get("breaker.calls").tags("tenant", "user-1", "outcome", "success").functionCounter().count())
			.as("the re-created user-1's calls")
			.isEqualTo(1);
	}

	@Test
	void underAChurningTenantGroupOnlyTheLiveChildrenHaveMeters() throws Exception {
		BreakerRegistry churning = BreakerRegistry.builder()
			.defaults(BreakerConfig.builder().ticker(new ManualTicker()).build())
			.children("tenants", new Children(4, Duration.ofMinutes(10), false))
			.build();
		SimpleMeterRegistry registry = new SimpleMeterRegistry();
		new BreakerMetrics(churning, new BreakerTree(churning), true).bindTo(registry);
		Thread[] threads = new Thread[4];
		for (int t = 0; t < threads.length; t++) {
			int seed = t;
			threads[t] = new Thread(() -> {
				java.util.Random random = new java.util.Random(seed);
				for (int i = 0; i < 20_000; i++) {
					churning.breaker("tenants", "k" + random.nextInt(1_000));
				}
			});
			threads[t].start();
		}
		for (Thread thread : threads) {
			thread.join(60_000);
		}
		java.util.Set<String> withMeters = new java.util.TreeSet<>();
		registry.getMeters().forEach((meter) -> {
			String tenant = meter.getId().getTag("tenant");
			if (tenant != null && !tenant.isEmpty()) {
				withMeters.add(tenant);
			}
		});
		java.util.Set<String> live = new java.util.TreeSet<>();
		churning.children("tenants").forEach((child) -> live.add(child.key()));
		assertThat(withMeters).as("tenants with meters").isEqualTo(live);
	}

	/**
	 * A transition heard just before the child's removal registers its unusual counter
	 * (to HALF_OPEN, made on first use; not FORCED_OPEN, which pins the child) while the
	 * removal runs: the counter must not outlive the child.
	 */
	@Test
	void aTransitionRacingTheChildsRemovalLeavesNoTransitionCounterBehind() throws Exception {
		CountDownLatch registering = new CountDownLatch(1);
		CountDownLatch goOn = new CountDownLatch(1);
		SimpleMeterRegistry slow = blockingOnce((id) -> "user-1".equals(id.getTag("tenant"))
				&& "CLOSED".equals(id.getTag("from")) && "HALF_OPEN".equals(id.getTag("to")), registering, goOn);
		new BreakerMetrics(this.breakers, new BreakerTree(this.breakers), true).bindTo(slow);
		Breaker user1 = this.breakers.breaker("recommendations", "user-1");
		evictUser1While(user1::halfOpen, registering, goOn);

		assertThat(this.breakers.find("recommendations:user-1")).isEmpty();
		assertThat(slow.getMeters()).filteredOn((meter) -> "user-1".equals(meter.getId().getTag("tenant")))
			.extracting((meter) -> meter.getId().getName())
			.as("meters of the evicted user-1")
			.isEmpty();
	}

	/**
	 * A transition made while the breaker's meters are being registered (here, by the
	 * registry's own filter, on the registering thread) is counted and starts the open
	 * episode.
	 */
	@Test
	void aTransitionWhileTheMetersAreBeingRegisteredIsCounted() {
		AtomicBoolean once = new AtomicBoolean();
		this.registry.config().meterFilter(new MeterFilter() {
			@Override
			public Meter.Id map(Meter.Id id) {
				if ("payments".equals(id.getTag("name")) && "breaker.state".equals(id.getName())
						&& !once.getAndSet(true)) {
					BreakerMetricsTests.this.breakers.find("payments").orElseThrow().forceOpen();
				}
				return id;
			}
		});
		new BreakerMetrics(this.breakers, new BreakerTree(this.breakers), false).bindTo(this.registry);
		Breaker payments = this.breakers.breaker("payments");
		assertThat(payments.state()).hasToString("FORCED_OPEN");
		this.ticker.advance(Duration.ofSeconds(10));

		assertThat(this.registry.find("breaker.transitions")
			.tags("name", "payments", "from", "CLOSED", "to", "FORCED_OPEN")
			.counters()).extracting(Counter::count).as("CLOSED -> FORCED_OPEN transitions").containsExactly(1.0);
		assertThat(gauge("breaker.open.episode", "payments")).as("the open episode's seconds").isEqualTo(10);
	}

	/**
	 * Another thread forces the breaker open while its meters are being registered: the
	 * transition waits for the registration rather than recording on meters not made yet
	 * (a NullPointerException, logged, and the episode lost), and is counted.
	 */
	@Test
	void aTransitionOnAnotherThreadWhileTheMetersAreBeingRegisteredIsCounted() throws Exception {
		CountDownLatch registering = new CountDownLatch(1);
		CountDownLatch goOn = new CountDownLatch(1);
		SimpleMeterRegistry slow = blockingOnce(
				(id) -> "payments".equals(id.getTag("name")) && "breaker.state".equals(id.getName()), registering,
				goOn);
		new BreakerMetrics(this.breakers, new BreakerTree(this.breakers), false).bindTo(slow);
		Thread creating = new Thread(() -> this.breakers.breaker("payments"));
		creating.start();
		assertThat(registering.await(30, TimeUnit.SECONDS)).isTrue();
		Thread forcing = new Thread(() -> this.breakers.find("payments").orElseThrow().forceOpen());
		forcing.start();
		awaitDoneOrBlocked(forcing);
		goOn.countDown();
		creating.join(30_000);
		forcing.join(30_000);
		assertThat(creating.isAlive() || forcing.isAlive()).isFalse();
		this.ticker.advance(Duration.ofSeconds(10));

		assertThat(slow.find("breaker.transitions")
			.tags("name", "payments", "from", "CLOSED", "to", "FORCED_OPEN")
			.counters()).extracting(Counter::count).as("CLOSED -> FORCED_OPEN transitions").containsExactly(1.0);
		assertThat(slow.get("breaker.open.episode").tag("name", "payments").gauge().value())
			.as("the open episode's seconds")
			.isEqualTo(10);
		this.breakers.find("payments").orElseThrow().reset();
		assertThat(slow.get("breaker.open").tag("name", "payments").timer().count()).as("open episodes recorded")
			.isEqualTo(1);
	}

	/**
	 * The child is evicted on its own registering thread, by the registry's filter (user
	 * code) as it registers the child's first meter: no meter registered after the
	 * removal may stay behind, gauges holding the dead breaker least of all.
	 */
	@Test
	void aChildEvictedOnItsRegisteringThreadLeavesNoMetersBehind() {
		AtomicBoolean once = new AtomicBoolean();
		this.registry.config().meterFilter(new MeterFilter() {
			@Override
			public Meter.Id map(Meter.Id id) {
				if ("user-1".equals(id.getTag("tenant")) && !once.getAndSet(true)) {
					BreakerMetricsTests.this.breakers.breaker("recommendations", "user-2");
					BreakerMetricsTests.this.breakers.breaker("recommendations", "user-3");
				}
				return id;
			}
		});
		new BreakerMetrics(this.breakers, new BreakerTree(this.breakers), true).bindTo(this.registry);
		this.breakers.breaker("recommendations", "user-1");

		assertThat(this.breakers.find("recommendations:user-1")).as("user-1 in the registry").isEmpty();
		assertThat(this.registry.getMeters()).filteredOn((meter) -> "user-1".equals(meter.getId().getTag("tenant")))
			.extracting((meter) -> meter.getId().getName())
			.as("meters of the evicted user-1")
			.isEmpty();
		assertThat(this.registry.find("breaker.calls").tag("tenant", "user-3").functionCounters())
			.as("the live user-3's call counters")
			.hasSize(Outcome.values().length);
	}

	/**
	 * A transition's first-use counter is being registered when the registry's filter
	 * (user code) creates a tenant, while another thread evicts the same child: the two
	 * paths must not wait for each other's lock.
	 */
	@Test
	void aRegistryCallbackDuringAFirstUseCounterDoesNotDeadlockWithAnEviction() throws Exception {
		CountDownLatch inFilter = new CountDownLatch(1);
		AtomicReference<@Nullable Thread> evictorRef = new AtomicReference<>();
		AtomicBoolean once = new AtomicBoolean();
		this.registry.config().meterFilter(new MeterFilter() {
			@Override
			public Meter.Id map(Meter.Id id) {
				if ("user-1".equals(id.getTag("tenant")) && "CLOSED".equals(id.getTag("from"))
						&& "HALF_OPEN".equals(id.getTag("to")) && !once.getAndSet(true)) {
					inFilter.countDown();
					long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
					while (evictorRef.get() == null && System.nanoTime() - deadline < 0) {
						Thread.onSpinWait();
					}
					Thread evictor = evictorRef.get();
					if (evictor != null) {
						awaitDoneOrBlocked(evictor);
					}
					BreakerMetricsTests.this.breakers.breaker("recommendations", "user-9");
				}
				return id;
			}
		});
		new BreakerMetrics(this.breakers, new BreakerTree(this.breakers), true).bindTo(this.registry);
		Breaker user1 = this.breakers.breaker("recommendations", "user-1");
		assertThat(inFilter.getCount()).as("the filter held a registration before the forcer ran").isOne();
		Thread forcer = new Thread(user1::halfOpen, "forcer");
		forcer.setDaemon(true);
		forcer.start();
		assertThat(inFilter.await(30, TimeUnit.SECONDS)).isTrue();
		Thread evictor = new Thread(() -> {
			this.breakers.breaker("recommendations", "user-2");
			this.breakers.breaker("recommendations", "user-3");
		}, "evictor");
		evictor.setDaemon(true);
		evictor.start();
		evictorRef.set(evictor);
		forcer.join(30_000);
		evictor.join(30_000);

		assertThat(java.lang.management.ManagementFactory.getThreadMXBean().findMonitorDeadlockedThreads())
			.as("monitor-deadlocked threads")
			.isNull();
		assertThat(forcer.isAlive() || evictor.isAlive()).as("forcer or evictor stuck").isFalse();
		assertThat(this.registry.getMeters()).filteredOn((meter) -> "user-1".equals(meter.getId().getTag("tenant")))
			.extracting((meter) -> meter.getId().getName())
			.as("meters of the evicted user-1")
			.isEmpty();
	}

	/**
	 * Micrometer runs meter-added listeners under its own lock. One of them (user code)
	 * creates a tenant while another thread is registering a tenant's meters and waits
	 * for that lock: neither may wait for the other.
	 */
	@Test
	void aRegistryCallbackCreatingATenantWhileAnotherThreadRegistersMetersDoesNotDeadlock() throws Exception {
		CountDownLatch inListener = new CountDownLatch(1);
		AtomicReference<@Nullable Thread> creatingRef = new AtomicReference<>();
		AtomicBoolean once = new AtomicBoolean();
		this.registry.config().meterFilter(new MeterFilter() {
			@Override
			public Meter.Id map(Meter.Id id) {
				// user-1's first meter is registered once the other thread holds
				// Micrometer's lock
				if ("user-1".equals(id.getTag("tenant")) && !once.getAndSet(true)) {
					await(inListener);
				}
				return id;
			}
		});
		this.registry.config().onMeterAdded((meter) -> {
			if ("app.requests".equals(meter.getId().getName())) {
				inListener.countDown();
				awaitBlocked(creatingRef.get());
				this.breakers.breaker("recommendations", "user-2");
			}
		});
		new BreakerMetrics(this.breakers, new BreakerTree(this.breakers), true).bindTo(this.registry);
		Thread creating = daemon("creating user-1", () -> this.breakers.breaker("recommendations", "user-1"));
		creatingRef.set(creating);
		creating.start();
		Thread counting = daemon("registering an app meter", () -> this.registry.counter("app.requests"));
		counting.start();
		counting.join(20_000);
		creating.join(20_000);

		assertThat(java.lang.management.ManagementFactory.getThreadMXBean().findDeadlockedThreads())
			.as("deadlocked threads")
			.isNull();
		assertThat(creating.isAlive() || counting.isAlive()).as("a thread stuck").isFalse();
		assertThat(this.registry.find("breaker.state").tag("state", "CLOSED").gauges())
			.extracting((gauge) -> gauge.getId().getTag("tenant"))
			.containsExactlyInAnyOrder("user-1", "user-2");
	}

	/**
	 * A meter-added listener (user code, under Micrometer's lock) waits for another
	 * caller whose call creates a tenant: that caller is not held up by the registration
	 * the listener is part of.
	 */
	@Test
	void aMeterAddedListenerWaitingForACallerThatCreatesATenantHoldsNeitherUp() {
		AtomicBoolean once = new AtomicBoolean();
		AtomicBoolean otherDone = new AtomicBoolean();
		this.registry.config().onMeterAdded((meter) -> {
			if ("user-1".equals(meter.getId().getTag("tenant")) && !once.getAndSet(true)) {
				Thread caller = daemon("a caller of user-2", () -> this.breakers.breaker("recommendations", "user-2"));
				caller.start();
				try {
					caller.join(10_000);
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
				}
				otherDone.set(!caller.isAlive());
			}
		});
		new BreakerMetrics(this.breakers, new BreakerTree(this.breakers), true).bindTo(this.registry);
		this.breakers.breaker("recommendations", "user-1");

		assertThat(otherDone).as("the other caller done while the listener waited").isTrue();
		assertThat(this.registry.find("breaker.state").tag("state", "CLOSED").gauges())
			.extracting((gauge) -> gauge.getId().getTag("tenant"))
			.containsExactlyInAnyOrder("user-1", "user-2");
	}

	/**
	 * A meter-added listener (user code) evicts the child whose meter is being added and
	 * re-creates it: the namesake's gauges read the namesake, not the dead breaker.
	 */
	@Test
	void aNamesakeReCreatedInsideAMeterAddedListenerHasGaugesOfItsOwn() {
		AtomicBoolean once = new AtomicBoolean();
		this.registry.config().onMeterAdded((meter) -> {
			if ("user-1".equals(meter.getId().getTag("tenant")) && "breaker.state".equals(meter.getId().getName())
					&& "FORCED_OPEN".equals(meter.getId().getTag("state")) && !once.getAndSet(true)) {
				this.breakers.breaker("recommendations", "user-2");
				this.breakers.breaker("recommendations", "user-3");
				this.breakers.breaker("recommendations", "user-1");
			}
		});
		new BreakerMetrics(this.breakers, new BreakerTree(this.breakers), true).bindTo(this.registry);
		Breaker first = this.breakers.breaker("recommendations", "user-1");
		Breaker namesake = this.breakers.find("recommendations:user-1").orElseThrow();
		assertThat(namesake).isNotSameAs(first);
		namesake.forceOpen();

		assertThat(this.registry.find("breaker.state")
			.tags("name", "recommendations", "tenant", "user-1", "state", "FORCED_OPEN")
			.gauges()).extracting(Gauge::value).as("the namesake's FORCED_OPEN gauge").containsExactly(1.0);
		assertThat(this.registry.find("breaker.state").tag("state", "CLOSED").gauges())
			.extracting((gauge) -> gauge.getId().getTag("tenant"))
			.containsExactlyInAnyOrder("user-3", "user-1");
	}

	/**
	 * The registry refuses a breaker's meters: nothing of the failed registration stays,
	 * its transition listener on the breaker included.
	 */
	@Test
	void aRegistrationTheRegistryRefusesLeavesNoTransitionListenerOnTheBreaker() throws Exception {
		Breaker payments = this.breakers.breaker("payments");
		int before = transitionListeners(payments);
		MeterRegistry failing = new SimpleMeterRegistry() {
			@Override
			protected <T> Gauge newGauge(Meter.Id id, @Nullable T obj, ToDoubleFunction<T> valueFunction) {
				throw new IllegalStateException("registry is broken");
			}
		};
		new BreakerMetrics(this.breakers, new BreakerTree(this.breakers), false).bindTo(failing);

		assertThat(failing.getMeters()).as("meters of payments").isEmpty();
		assertThat(transitionListeners(payments)).as("transition listeners of payments").isEqualTo(before);
		assertThat(payments.call(() -> "ok")).isEqualTo("ok");
		assertThatNoException().isThrownBy(() -> failTimes(payments, 3));
		assertThat(payments.state()).hasToString("OPEN");
	}

	/** How many transition listeners the breaker has (the engine shows no count). */
	private static int transitionListeners(Breaker breaker) throws ReflectiveOperationException {
		java.lang.reflect.Field log = Breaker.class.getDeclaredField("log");
		log.setAccessible(true);
		Object transitions = log.get(breaker);
		java.lang.reflect.Field listeners = transitions.getClass().getDeclaredField("listeners");
		listeners.setAccessible(true);
		return ((java.util.List<?>) listeners.get(transitions)).size();
	}

	private static Thread daemon(String name, Runnable action) {
		Thread thread = new Thread(action, name);
		thread.setDaemon(true);
		return thread;
	}

	private static void await(CountDownLatch latch) {
		try {
			latch.await(30, TimeUnit.SECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	/** Waits (at most 30 s) until {@code thread} is blocked on a monitor, or done. */
	private static void awaitBlocked(@Nullable Thread thread) {
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
		while (thread != null && thread.isAlive() && thread.getState() != Thread.State.BLOCKED
				&& System.nanoTime() - deadline < 0) {
			Thread.onSpinWait();
		}
	}

	/**
	 * A registry whose first registration of a meter matching {@code blocking} says so on
	 * {@code registering}, then waits for {@code goOn}.
	 */
	private static SimpleMeterRegistry blockingOnce(Predicate<Meter.Id> blocking, CountDownLatch registering,
			CountDownLatch goOn) {
		AtomicBoolean once = new AtomicBoolean();
		SimpleMeterRegistry slow = new SimpleMeterRegistry();
		slow.config().meterFilter(new MeterFilter() {
			@Override
			public Meter.Id map(Meter.Id id) {
				if (blocking.test(id) && !once.getAndSet(true)) {
					registering.countDown();
					try {
						goOn.await(30, TimeUnit.SECONDS);
					}
					catch (InterruptedException ex) {
						Thread.currentThread().interrupt();
					}
				}
				return id;
			}
		});
		return slow;
	}

	/**
	 * Runs {@code action} on a thread of its own and, while it is held in a registration
	 * (see {@link #blockingOnce}), evicts user-1 from another thread; then lets both
	 * finish.
	 */
	private void evictUser1While(Runnable action, CountDownLatch registering, CountDownLatch goOn)
			throws InterruptedException {
		assertThat(registering.getCount()).as("a registration held before the action ran (the filter matches too much)")
			.isOne();
		Thread acting = new Thread(action);
		acting.start();
		assertThat(registering.await(30, TimeUnit.SECONDS)).isTrue();
		Thread evictor = new Thread(() -> {
			this.breakers.breaker("recommendations", "user-2");
			this.breakers.breaker("recommendations", "user-3");
		});
		evictor.start();
		awaitDoneOrBlocked(evictor);
		goOn.countDown();
		acting.join(30_000);
		evictor.join(30_000);
		assertThat(acting.isAlive() || evictor.isAlive()).isFalse();
	}

	private static void awaitDoneOrBlocked(Thread thread) {
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
		while (thread.isAlive() && thread.getState() != Thread.State.BLOCKED
				&& thread.getState() != Thread.State.WAITING && System.nanoTime() - deadline < 0) {
			Thread.onSpinWait();
		}
	}

	@Test
	void aFailingRegistryNeverBreaksACall() throws Exception {
		MeterRegistry failing = new SimpleMeterRegistry() {
			@Override
			protected Counter newCounter(Meter.Id id) {
				throw new IllegalStateException("registry is broken");
			}
		};
		new BreakerMetrics(this.breakers, new BreakerTree(this.breakers), false).bindTo(failing);
		Breaker payments = this.breakers.breaker("payments");

		assertThat(payments.call(() -> "ok")).isEqualTo("ok");
		assertThatNoException().isThrownBy(() -> failTimes(payments, 3));
		assertThat(payments.state()).hasToString("OPEN");
	}

	private void failTimes(Breaker breaker, int times) throws Exception {
		for (int i = 0; i < times; i++) {
			assertThatExceptionOfType(IllegalStateException.class).isThrownBy(() -> breaker.call(() -> {
				throw new IllegalStateException("down");
			}));
		}
	}

	private double stateGauge(String name, String state) {
		return this.registry.get("breaker.state").tags("name", name, "state", state).gauge().value();
	}

	private double gauge(String meter, String name) {
		return this.registry.get(meter).tag("name", name).gauge().value();
	}

	private double counter(String meter, String name, String tag, String value) {
		return this.registry.get(meter).tags("name", name, tag, value).functionCounter().count();
	}

	private double transitions(String name, String from, String to) {
		return this.registry.get("breaker.transitions").tags("name", name, "from", from, "to", to).counter().count();
	}

	@ParameterizedTest
	@ValueSource(longs = { Long.MIN_VALUE, Long.MAX_VALUE - 10_000_000_000L, -5_000_000_000L })
	void recordsTheOpenEpisodeWhereverTheTickerStands(long tripAt) throws Exception {
		ManualTicker ticker = new ManualTicker();
		ticker.set(tripAt);
		BreakerRegistry breakers = BreakerRegistry.builder()
			.defaults(BreakerConfig.builder()
				.consecutiveFailures(3)
				.openWait(Duration.ofSeconds(30))
				.openWaitJitter(0)
				.halfOpenSuccessesToClose(1)
				.ticker(ticker)
				.build())
			.build();
		SimpleMeterRegistry registry = new SimpleMeterRegistry();
		new BreakerMetrics(breakers, new BreakerTree(breakers), false).bindTo(registry);
		Breaker payments = breakers.breaker("payments");
		for (int i = 0; i < 3; i++) {
			Permit permit = payments.acquire();
			payments.release(permit, Outcome.FAILURE, 0);
		}
		ticker.advance(Duration.ofSeconds(20));
		assertThat(registry.get("breaker.open.episode").tag("name", "payments").gauge().value())
			.as("open episode seconds so far")
			.isEqualTo(20);
		ticker.advance(Duration.ofSeconds(25));
		payments.call(() -> "probe");
		io.micrometer.core.instrument.Timer episodes = registry.get("breaker.open").tag("name", "payments").timer();
		assertThat(episodes.count()).as("open episodes recorded").isEqualTo(1);
		assertThat(episodes.totalTime(TimeUnit.SECONDS)).isEqualTo(45);
	}

}
