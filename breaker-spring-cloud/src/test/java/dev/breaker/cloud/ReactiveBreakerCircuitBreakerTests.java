package dev.breaker.cloud;

import java.time.Duration;

import dev.breaker.core.Breaker;
import dev.breaker.core.BreakerConfig;
import dev.breaker.core.Outcome;
import dev.breaker.core.State;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import static org.assertj.core.api.Assertions.assertThat;

class ReactiveBreakerCircuitBreakerTests {

	/**
	 * Longer than Reactor's timers count: {@code Duration.toNanos} overflows past 292
	 * years.
	 */
	private static final Duration BEYOND_NANOS = Duration.ofDays(200_000);

	@Test
	void aTimeoutTooLongToCountInNanosecondsIsNoTimeoutAndTheCallIsRecorded() {
		Breaker breaker = Breaker.of("slow", BreakerConfig.builder().halfOpenMaxProbes(1).build());
		ReactiveBreakerCircuitBreaker slow = new ReactiveBreakerCircuitBreaker(breaker, BEYOND_NANOS);
		assertThat(slow.run(Mono.just("paid"), (cause) -> Mono.just("fallback " + cause)).block()).isEqualTo("paid");
		assertThat(slow.run(Flux.just("a", "b"), (cause) -> Flux.just("fallback " + cause)).collectList().block())
			.containsExactly("a", "b");
		assertThat(breaker.totals().calls(Outcome.SUCCESS)).isEqualTo(2);
		assertThat(breaker.state()).isEqualTo(State.CLOSED);
	}

	@Test
	void aPipelineThatCannotBeBuiltFallsBackAndFreesItsPermit() {
		Breaker breaker = Breaker.of("broken", BreakerConfig.builder().trackInFlight(true).build());
		ReactiveBreakerCircuitBreaker broken = new ReactiveBreakerCircuitBreaker(breaker, Duration.ofSeconds(1));
		assertThat(broken.run((Mono<String>) null, (cause) -> Mono.just("fallback " + cause.getClass().getSimpleName()))
			.block()).isEqualTo("fallback NullPointerException");
		assertThat(broken.run((Flux<String>) null, (cause) -> Flux.just("fallback " + cause.getClass().getSimpleName()))
			.collectList()
			.block()).containsExactly("fallback NullPointerException");
		assertThat(breaker.snapshot().inFlight()).isZero();
		assertThat(breaker.totals().calls(Outcome.IGNORED)).isEqualTo(2);
	}

}
