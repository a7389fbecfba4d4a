package dev.breaker.observation;

import java.lang.management.ManagementFactory;
import java.time.Duration;

import io.micrometer.observation.ObservationRegistry;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import dev.breaker.annotation.CircuitGuarded;
import dev.breaker.autoconfigure.BreakerAutoConfiguration;
import dev.breaker.autoconfigure.observation.BreakerObservationAutoConfiguration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * With an {@link ObservationRegistry} in the application, a guarded call outside any
 * observation allocates no more than without one (what Spring AOP's proxy allocates for
 * any intercepted call, as {@code AspectAllocationTests} bounds it): looking for the
 * current observation costs nothing.
 */
class TracedCallAllocationTests {

	private static final int WARM_UP = 200_000;

	private static final int CALLS = 200_000;

	/**
	 * Rounds go on for up to this long, the least of them counts: until C2 has compiled
	 * Spring AOP's intercept path, its method-cache key (24 bytes, a lookup only) is not
	 * yet scalar-replaced, and on a loaded machine the compile queue can hold it back for
	 * seconds (a count of rounds ran out first there). The bound does not move; only how
	 * long the JIT may take does, and a passing run stops at its first round under the
	 * bound.
	 */
	private static final Duration JIT_BUDGET = Duration.ofSeconds(30);

	/** Slack per call for noise, far below the 16 bytes of the smallest object. */
	private static final double SLACK_BYTES_PER_CALL = 2;

	/**
	 * What Spring AOP's CGLIB proxy allocates per call of {@code stock(long)} through a
	 * method interceptor on JDK 17 (its method invocation, the arguments array, the boxed
	 * argument), the bound of a guarded call without an observation registry in
	 * {@code AspectAllocationTests}.
	 */
	private static final double INTERCEPTED_CALL_BYTES = 120;

	@Test
	void aGuardedCallOutsideAnyObservationAllocatesNoMoreThanANoOpInterceptor() {
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, BreakerAutoConfiguration.class,
					BreakerObservationAutoConfiguration.class))
			.withUserConfiguration(Services.class)
			.withBean(ObservationRegistry.class, ObservationRegistry::create)
			.withPropertyValues("breaker.instances.inventory.consecutive-failures=0",
					"breaker.instances.inventory.failure-rate-threshold=0")
			.run((context) -> {
				assertThat(context).hasSingleBean(BreakerObservations.class);
				Guarded guarded = context.getBean(Guarded.class);
				guarded(guarded, WARM_UP);
				double guardedBytes = Double.MAX_VALUE;
				long giveUp = System.nanoTime() + JIT_BUDGET.toNanos();
				while (guardedBytes > INTERCEPTED_CALL_BYTES + SLACK_BYTES_PER_CALL && System.nanoTime() - giveUp < 0) {
					guardedBytes = Math.min(guardedBytes, guarded(guarded, CALLS));
				}
				String measured = String.format("bytes per guarded call with an observation registry: %.1f",
						guardedBytes);
				System.out.println(measured);
				assertThat(guardedBytes).as(measured)
					.isLessThanOrEqualTo(INTERCEPTED_CALL_BYTES + SLACK_BYTES_PER_CALL);
			});
	}

	private static double guarded(Guarded bean, int calls) {
		long before = allocated();
		long sink = 0;
		for (int i = 0; i < calls; i++) {
			sink += bean.stock(i);
		}
		assertThat(sink).isPositive();
		return (double) (allocated() - before) / calls;
	}

	@SuppressWarnings("deprecation") // Thread.threadId() exists only from Java 19
	private static long allocated() {
		return ((com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean())
			.getThreadAllocatedBytes(Thread.currentThread().getId());
	}

	public static class Guarded {

		@CircuitGuarded(name = "inventory")
		public long stock(long sku) {
			return sku + 1;
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class Services {

		@Bean
		Guarded guarded() {
			return new Guarded();
		}

	}

}
