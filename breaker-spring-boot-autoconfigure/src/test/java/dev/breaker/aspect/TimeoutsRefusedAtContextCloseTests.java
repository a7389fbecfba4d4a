package dev.breaker.aspect;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import dev.breaker.annotation.CircuitGuarded;
import dev.breaker.autoconfigure.BreakerAutoConfiguration;
import dev.breaker.core.Breaker;
import dev.breaker.core.BreakerRegistry;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A Mono, Flux or CompletionStage call that starts once its context closed (a request
 * still in flight during the shutdown): the context's real scheduler, shut down, refuses
 * the attempt's timeout up front. The attempt ends at once, exactly as when the close
 * drops a pending timeout ({@link TimeoutsDroppedAtContextCloseTests}): the method's
 * stage cancelled (or its publisher unsubscribed), the permit handed back as IGNORED, no
 * fallback, and the caller told with the same RejectedExecutionException, rather than
 * running for ever without its timeout. A refusal of a closing context is no warning,
 * only a debug line.
 */
class TimeoutsRefusedAtContextCloseTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, BreakerAutoConfiguration.class))
		.withBean(Hanging.class)
		.withPropertyValues("breaker.instances.hanging.timeout=1h", "breaker.instances.hanging.track-in-flight=true");

	@ParameterizedTest
	@EnumSource
	void aTimeoutRefusedByTheClosedSchedulerEndsTheAttemptAsADroppedOneDoes(Caller caller) {
		this.runner.run((context) -> {
			Hanging hanging = context.getBean(Hanging.class);
			Breaker breaker = context.getBean(BreakerRegistry.class).breaker("hanging");
			assertThat(hanging.plain()).as("a call before the close").isEqualTo("ok");
			context.close();
			try (WarningsLogged logged = WarningsLogged.withDebug(DelayScheduler.class.getName())) {
				TimeoutsDroppedAtContextCloseTests.assertEndedAsADroppedTimeout(caller.call(hanging), breaker);
				assertThat(logged.messages()).as("warnings").isEmpty();
				assertThat(logged.debugs()).as("debug lines")
					.containsExactly("breaker 'hanging': attempt ended, the schedule of "
							+ SystemDelayScheduler.class.getName() + " refused it");
			}
			assertThat(hanging.cancelled()).as("the method's stage cancelled (or its publisher unsubscribed)").isTrue();
			assertThat(hanging.fallbacks()).as("fallbacks run").isZero();
		});
	}

	enum Caller {

		MONO, FLUX, COMPLETION_STAGE;

		CompletableFuture<Object> call(Hanging hanging) {
			return switch (this) {
				case MONO -> hanging.mono().<Object>map((value) -> value).toFuture();
				case FLUX -> hanging.flux().collectList().<Object>map((values) -> values).toFuture();
				case COMPLETION_STAGE -> hanging.stage().thenApply((value) -> value);
			};
		}

	}

	/** A dependency whose asynchronous answers never come. */
	static class Hanging {

		private final AtomicBoolean cancelled = new AtomicBoolean();

		private final AtomicInteger fallbacks = new AtomicInteger();

		boolean cancelled() {
			return this.cancelled.get();
		}

		int fallbacks() {
			return this.fallbacks.get();
		}

		private CompletableFuture<String> never() {
			CompletableFuture<String> answer = new CompletableFuture<>();
			answer.whenComplete((value, error) -> this.cancelled.set(answer.isCancelled()));
			return answer;
		}

		@CircuitGuarded(name = "hanging", fallbackMethod = "fallbackPlain")
		public String plain() {
			return "ok";
		}

		@CircuitGuarded(name = "hanging", fallbackMethod = "fallbackStage")
		public CompletableFuture<String> stage() {
			return never();
		}

		@CircuitGuarded(name = "hanging", fallbackMethod = "fallbackMono")
		public Mono<String> mono() {
			return Mono.<String>never().doOnCancel(() -> this.cancelled.set(true));
		}

		@CircuitGuarded(name = "hanging", fallbackMethod = "fallbackFlux")
		public Flux<String> flux() {
			return Flux.<String>never().doOnCancel(() -> this.cancelled.set(true));
		}

		String fallbackPlain() {
			this.fallbacks.incrementAndGet();
			return "fallback";
		}

		CompletableFuture<String> fallbackStage() {
			this.fallbacks.incrementAndGet();
			return CompletableFuture.completedFuture("fallback");
		}

		Mono<String> fallbackMono() {
			this.fallbacks.incrementAndGet();
			return Mono.just("fallback");
		}

		Flux<String> fallbackFlux() {
			this.fallbacks.incrementAndGet();
			return Flux.just("fallback");
		}

	}

}
