package dev.breaker.actuate.metrics;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

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
import dev.breaker.core.Outcome;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * A registration job that fails with an Error (user code run by Micrometer: a meter
 * filter missing a class, say): no other breaker's job is stranded, and the failed
 * breaker is left with no meters and no transition listener.
 */
class BreakerMetricsJobFailureTests {

	private final ManualTicker ticker = new ManualTicker();

	private final BreakerRegistry breakers = BreakerRegistry.builder()
		.defaults(BreakerConfig.builder().ticker(this.ticker).consecutiveFailures(1).build())
		.children("recommendations", new Children(100, Duration.ofMinutes(10), false))
		.build();

	private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

	@Test
	void anErrorInOneRegistrationLeavesNoOtherTenantWithoutMeters() {
		failOnFirstMeterOf("user-1", () -> new NoClassDefFoundError("io/acme/MissingTagClass"));
		bind();
		catchThrowable(() -> this.breakers.breaker("recommendations", "user-1"));

		assertThat(this.registry.find("breaker.state").tag("tenant", "user-2").gauges()).as("user-2's state gauges")
			.hasSize(5);
	}

	@Test
	void aVirtualMachineErrorInOneRegistrationReachesTheCallerAfterTheOtherTenantsJobsRan() {
		failOnFirstMeterOf("user-1", () -> new OutOfMemoryError("Metaspace"));
		bind();
		Throwable thrown = catchThrowable(() -> this.breakers.breaker("recommendations", "user-1"));

		assertThat(thrown).as("what the caller of user-1 got").isInstanceOf(OutOfMemoryError.class);
		assertThat(this.registry.find("breaker.state").tag("tenant", "user-2").gauges()).as("user-2's state gauges")
			.hasSize(5);
	}

	@Test
	void aBreakerWhoseRegistrationFailedWithAnErrorKeepsNoMetersAndNoListener() {
		failOnFirstMeterOf("user-1", () -> new NoClassDefFoundError("io/acme/MissingTagClass"));
		bind();
		Breaker user1 = created("user-1");
		user1.release(user1.acquire(), Outcome.FAILURE, 0);

		assertThat(this.registry.getMeters()).as("meters of user-1 after it tripped")
			.filteredOn((meter) -> "user-1".equals(meter.getId().getTag("tenant")))
			.extracting((meter) -> meter.getId().getName())
			.isEmpty();
	}

	private Breaker created(String tenant) {
		try {
			return this.breakers.breaker("recommendations", tenant);
		}
		catch (Error ex) {
			// the registry tells the caller nothing of a listener's Error but a VM error
			return this.breakers.breaker("recommendations", tenant);
		}
	}

	/**
	 * On the first meter of {@code tenant}, another thread creates user-2 (and returns:
	 * this thread runs the jobs), then the filter throws.
	 */
	private void failOnFirstMeterOf(String tenant, Supplier<Error> error) {
		AtomicBoolean once = new AtomicBoolean();
		this.registry.config().meterFilter(new MeterFilter() {
			@Override
			public Meter.Id map(Meter.Id id) {
				if (tenant.equals(id.getTag("tenant")) && !once.getAndSet(true)) {
					Thread other = new Thread(
							() -> BreakerMetricsJobFailureTests.this.breakers.breaker("recommendations", "user-2"),
							"caller of user-2");
					other.start();
					try {
						other.join(30_000);
					}
					catch (InterruptedException ex) {
						Thread.currentThread().interrupt();
					}
					throw error.get();
				}
				return id;
			}
		});
	}

	private void bind() {
		new BreakerMetrics(this.breakers, new BreakerTree(this.breakers), true).bindTo(this.registry);
	}

}
