package dev.breaker.aspect;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.lang.management.ManagementFactory;

import dev.breaker.annotation.CircuitGuarded;
import dev.breaker.autoconfigure.BreakerAutoConfiguration;
import dev.breaker.core.BreakerRegistry;
import dev.breaker.core.Outcome;
import org.aspectj.lang.ProceedingJoinPoint;
import org.aspectj.lang.annotation.Around;
import org.aspectj.lang.annotation.Aspect;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The advice allocates nothing on the closed path beyond what Spring AOP allocates for any around
 * advice: a guarded call costs no more bytes than a call through a no-op around aspect.
 */
@Tag("aspectj")
class AspectAllocationTests {

	private static final int WARM_UP = 200_000;

	private static final int CALLS = 200_000;

	private static final int ROUNDS = 5;

	/**
	 * Slack per call for noise (a TLAB refill, a JIT deoptimisation): far below the 16 bytes of the
	 * smallest object a per-call allocation would cost.
	 */
	private static final double SLACK_BYTES_PER_CALL = 2;

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, BreakerAutoConfiguration.class))
		.withUserConfiguration(Services.class)
		.withPropertyValues("breaker.instances.inventory.consecutive-failures=0",
				"breaker.instances.inventory.failure-rate-threshold=0");

	@Test
	void aGuardedCallAllocatesNoMoreThanACallThroughANoOpAspect() {
		this.runner.run((context) -> {
			Guarded guarded = context.getBean(Guarded.class);
			Plain plain = context.getBean(Plain.class);
			measure(guarded::stock, WARM_UP);
			measure(plain::stock, WARM_UP);
			// The least of several rounds: a steady per-call allocation shows in every round, while
			// code the JIT has not yet optimised on a loaded machine shows in some rounds only.
			double guardedBytes = Double.MAX_VALUE;
			double plainBytes = Double.MAX_VALUE;
			for (int round = 0; round < ROUNDS; round++) {
				guardedBytes = Math.min(guardedBytes, measure(guarded::stock, CALLS));
				plainBytes = Math.min(plainBytes, measure(plain::stock, CALLS));
			}
			assertThat(guardedBytes).as("bytes per guarded call (no-op aspect: %.1f)", plainBytes)
				.isLessThanOrEqualTo(plainBytes + SLACK_BYTES_PER_CALL);
			assertThat(context.getBean(BreakerRegistry.class).breaker("inventory").totals().calls(Outcome.SUCCESS))
				.isEqualTo(WARM_UP + (long) ROUNDS * CALLS);
		});
	}

	private static double measure(Call call, int calls) {
		com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory
			.getThreadMXBean();
		long thread = Thread.currentThread().getId();
		long sink = 0;
		long before = threads.getThreadAllocatedBytes(thread);
		for (int i = 0; i < calls; i++) {
			sink += call.stock(i);
		}
		long after = threads.getThreadAllocatedBytes(thread);
		assertThat(sink).isPositive();
		return (double) (after - before) / calls;
	}

	@FunctionalInterface
	interface Call {

		long stock(long sku);

	}

	@Target(ElementType.METHOD)
	@Retention(RetentionPolicy.RUNTIME)
	@interface Observed {

	}

	/** The baseline: an around advice that only proceeds. */
	@Aspect
	static class NoOpAspect {

		@Around("@annotation(dev.breaker.aspect.AspectAllocationTests.Observed)")
		Object around(ProceedingJoinPoint pjp) throws Throwable {
			return pjp.proceed();
		}

	}

	static class Guarded {

		@CircuitGuarded(name = "inventory")
		public long stock(long sku) {
			return sku + 1;
		}

	}

	static class Plain {

		@Observed
		public long stock(long sku) {
			return sku + 1;
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class Services {

		@Bean
		NoOpAspect noOpAspect() {
			return new NoOpAspect();
		}

		@Bean
		Guarded guarded() {
			return new Guarded();
		}

		@Bean
		Plain plain() {
			return new Plain();
		}

	}

}
