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
import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;
import org.aspectj.lang.ProceedingJoinPoint;
import org.aspectj.lang.annotation.Around;
import org.aspectj.lang.annotation.Aspect;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import org.springframework.aop.support.DefaultPointcutAdvisor;
import org.springframework.aop.support.annotation.AnnotationMatchingPointcut;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The interceptor allocates nothing on the closed path beyond what Spring AOP allocates
 * for any method interceptor (a guarded call costs no more bytes than a call through a
 * no-op interceptor), and a guarded call costs fewer bytes than a call through a no-op
 * AspectJ {@code @Around} aspect, which also pays for its join point. Runs with AspectJ
 * on the class path, for that aspect.
 */
@Tag("aspectj")
class AspectAllocationTests {

	private static final int WARM_UP = 200_000;

	private static final int CALLS = 200_000;

	/**
	 * Rounds, the least of each counts: until C2 has compiled Spring AOP's intercept
	 * path, its method-cache key (24 bytes) is not scalar-replaced yet, which a loaded
	 * machine can take more than five rounds to do.
	 */
	private static final int ROUNDS = 15;

	/**
	 * Slack per call for noise (a TLAB refill, a JIT deoptimisation): far below the 16
	 * bytes of the smallest object a per-call allocation would cost.
	 */
	private static final double SLACK_BYTES_PER_CALL = 2;

	/**
	 * What Spring AOP's CGLIB proxy allocates per call of {@code stock(long)} through a
	 * method interceptor, measured on JDK 17: its method invocation, the arguments array
	 * and the boxed argument. The no-op aspect pays 584 bytes for the same call.
	 */
	private static final double INTERCEPTED_CALL_BYTES = 120;

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, BreakerAutoConfiguration.class))
		.withUserConfiguration(Services.class)
		.withPropertyValues("breaker.instances.inventory.consecutive-failures=0",
				"breaker.instances.inventory.failure-rate-threshold=0");

	@Test
	void aGuardedCallAllocatesNoMoreThanANoOpInterceptorAndLessThanANoOpAspect() {
		this.runner.run((context) -> {
			Call guarded = context.getBean(Guarded.class)::stock;
			Call intercepted = context.getBean(Intercepted.class)::stock;
			Call aspect = context.getBean(Plain.class)::stock;
			measure(guarded, WARM_UP);
			measure(intercepted, WARM_UP);
			measure(aspect, WARM_UP);
			// The least of several rounds: a steady per-call allocation shows in every
			// round, while code the JIT has not yet optimised on a loaded machine shows
			// in some rounds only.
			double guardedBytes = Double.MAX_VALUE;
			double interceptorBytes = Double.MAX_VALUE;
			double aspectBytes = Double.MAX_VALUE;
			for (int round = 0; round < ROUNDS; round++) {
				guardedBytes = Math.min(guardedBytes, measure(guarded, CALLS));
				interceptorBytes = Math.min(interceptorBytes, measure(intercepted, CALLS));
				aspectBytes = Math.min(aspectBytes, measure(aspect, CALLS));
			}
			String measured = String.format("bytes per call: guarded %.1f, no-op interceptor %.1f, no-op aspect %.1f",
					guardedBytes, interceptorBytes, aspectBytes);
			System.out.println(measured);
			assertThat(guardedBytes).as(measured)
				.isLessThanOrEqualTo(interceptorBytes + SLACK_BYTES_PER_CALL)
				.isLessThanOrEqualTo(INTERCEPTED_CALL_BYTES + SLACK_BYTES_PER_CALL);
			// at least one object (16 bytes) fewer than the aspect: its join point
			assertThat(guardedBytes).as(measured).isLessThanOrEqualTo(aspectBytes - 16);
			assertThat(context.getBean(BreakerRegistry.class).breaker("inventory").totals().calls(Outcome.SUCCESS))
				.isEqualTo(WARM_UP + (long) ROUNDS * CALLS);
		});
	}

	private static double measure(Call call, int calls) {
		com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
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

	static class Intercepted {

		@Intercept
		public long stock(long sku) {
			return sku + 1;
		}

	}

	@Target(ElementType.METHOD)
	@Retention(RetentionPolicy.RUNTIME)
	@interface Intercept {

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

		/**
		 * The baseline of the proxy machinery itself: an advisor whose interceptor only
		 * proceeds.
		 */
		@Bean
		static DefaultPointcutAdvisor noOpAdvisor() {
			MethodInterceptor proceed = MethodInvocation::proceed;
			return new DefaultPointcutAdvisor(new AnnotationMatchingPointcut(null, Intercept.class), proceed);
		}

		@Bean
		Intercepted intercepted() {
			return new Intercepted();
		}

	}

}
