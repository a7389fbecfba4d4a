package dev.breaker.benchmarks.aspect;

import dev.breaker.annotation.CircuitGuarded;
import dev.breaker.benchmarks.Dependency;
import io.github.resilience4j.circuitbreaker.annotation.CircuitBreaker;

/**
 * The same client of the {@link Dependency} five times: plain, behind a no-op aspect, a
 * no-op interceptor, and each library's annotation.
 */
public final class Clients {

	private Clients() {
	}

	/** No annotation: Spring hands out the bean itself, not a proxy. */
	public static class Plain {

		private final Dependency dependency = new Dependency();

		public String call() {
			return dependency.call();
		}

	}

	/** Behind {@link PassthroughAspect}. */
	public static class Passthrough {

		private final Dependency dependency = new Dependency();

		@dev.breaker.benchmarks.aspect.Passthrough
		public String call() {
			return dependency.call();
		}

	}

	/** Behind the no-op interceptor advisor. */
	public static class Intercepted {

		private final Dependency dependency = new Dependency();

		@dev.breaker.benchmarks.aspect.Intercepted
		public String call() {
			return dependency.call();
		}

	}

	/** Behind {@code @CircuitGuarded} (its advisor and interceptor). */
	public static class Guarded {

		private final Dependency dependency = new Dependency();

		@CircuitGuarded(name = AspectCall.BREAKER)
		public String call() {
			return dependency.call();
		}

	}

	/** Behind Resilience4j's {@code @CircuitBreaker}. */
	public static class Resilience4j {

		private final Dependency dependency = new Dependency();

		@CircuitBreaker(name = AspectCall.BREAKER)
		public String call() {
			return dependency.call();
		}

	}

}
