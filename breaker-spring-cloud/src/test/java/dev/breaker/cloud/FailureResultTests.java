package dev.breaker.cloud;

import java.time.Duration;

import dev.breaker.core.Breaker;
import dev.breaker.core.BreakerConfig;
import dev.breaker.core.ManualTicker;
import dev.breaker.core.OutcomeClassifier;
import dev.breaker.core.State;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A value the classifier counts as a failure ({@code failureResult}) is judged alike by
 * the blocking and the reactive circuit breaker: recorded as a FAILURE and delivered.
 */
class FailureResultTests {

	private static final String DECLINED = "DECLINED_BY_GATEWAY";

	private static Breaker breaker(String name) {
		return Breaker.of(name,
				BreakerConfig.builder()
					.ticker(new ManualTicker())
					.consecutiveFailures(3)
					.openWait(Duration.ofMinutes(1))
					.classifier(OutcomeClassifier.builder().failureResult(DECLINED::equals).build())
					.build());
	}

	@Test
	void theBlockingCircuitBreakerCountsAFailureResult() {
		Breaker breaker = breaker("payments");
		BreakerCircuitBreaker circuitBreaker = new BreakerCircuitBreaker(breaker);
		for (int i = 0; i < 3; i++) {
			assertThat(circuitBreaker.run(() -> DECLINED, (error) -> "fallback")).isEqualTo(DECLINED);
		}
		assertThat(breaker.state()).as("after 3 failure results").isEqualTo(State.OPEN);
	}

	@Test
	void theReactiveCircuitBreakerCountsAFailureResultOfAMono() {
		Breaker breaker = breaker("payments");
		ReactiveBreakerCircuitBreaker circuitBreaker = new ReactiveBreakerCircuitBreaker(breaker, null);
		for (int i = 0; i < 3; i++) {
			assertThat(circuitBreaker.run(Mono.just(DECLINED), (error) -> Mono.just("fallback")).block())
				.as("the value, as the blocking circuit breaker returns it")
				.isEqualTo(DECLINED);
		}
		assertThat(breaker.state())
			.as("Mono, after 3 failure results (%s failures recorded)", breaker.snapshot().failures())
			.isEqualTo(State.OPEN);
	}

	@Test
	void anEmptyMonoIsASuccess() {
		Breaker breaker = breaker("payments");
		ReactiveBreakerCircuitBreaker circuitBreaker = new ReactiveBreakerCircuitBreaker(breaker, null);
		circuitBreaker.run(Mono.<String>empty(), (error) -> Mono.just("fallback")).block();
		assertThat(breaker.snapshot().calls()).isEqualTo(1);
		assertThat(breaker.snapshot().failures()).isZero();
	}

	@Test
	void aFluxIsJudgedByHowItEndsNotByItsElementsAsAGuardedMethodsFluxIs() {
		Breaker breaker = breaker("payments");
		ReactiveBreakerCircuitBreaker circuitBreaker = new ReactiveBreakerCircuitBreaker(breaker, null);
		for (int i = 0; i < 3; i++) {
			assertThat(circuitBreaker.run(Flux.just(DECLINED), (error) -> Flux.just("fallback")).collectList().block())
				.containsExactly(DECLINED);
		}
		assertThat(breaker.state()).isEqualTo(State.CLOSED);
		assertThat(breaker.snapshot().failures()).isZero();
	}

}
