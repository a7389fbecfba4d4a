package dev.breaker.benchmarks.aspect;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

import org.junit.jupiter.api.Test;
import org.openjdk.jmh.infra.Blackhole;

/**
 * The aspect benchmark starts its Boot context, every client goes through its aspect, and
 * the breakers stay closed.
 */
class AspectCallTests {

	private static final int CALLS = 10_000;

	private final Blackhole blackhole = new Blackhole(
			"Today's password is swordfish. I understand instantiating Blackholes directly is dangerous.");

	@Test
	void everyClientCallsThroughItsAspectAndTheBreakersStayClosed() {
		AspectCall benchmark = new AspectCall();
		benchmark.startContext();
		try {
			for (int i = 0; i < CALLS; i++) {
				benchmark.plainBean(blackhole);
				benchmark.noopAspect(blackhole);
				benchmark.noopInterceptor(blackhole);
				benchmark.circuitGuarded(blackhole);
				benchmark.r4jCircuitBreaker(blackhole);
			}
			assertThatCode(() -> benchmark.requireBreakersClosed(true, true)).doesNotThrowAnyException();
		}
		finally {
			benchmark.stopContext();
		}
	}

	@Test
	void tearDownFailsWhenTheMeasuredBreakerWasNeverCalled() {
		AspectCall benchmark = new AspectCall();
		benchmark.startContext();
		try {
			benchmark.circuitGuarded(blackhole);

			assertThatCode(() -> benchmark.requireBreakersClosed(true, false)).doesNotThrowAnyException();
			assertThatIllegalStateException().isThrownBy(() -> benchmark.requireBreakersClosed(true, true))
				.withMessage("Resilience4j breaker 'bench' is missing after 0 successes");
		}
		finally {
			benchmark.stopContext();
		}
	}

}
