package dev.breaker.aspect;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicReference;

import dev.breaker.annotation.CircuitGuarded;
import dev.breaker.autoconfigure.BreakerAutoConfiguration;
import dev.breaker.core.Breaker;
import dev.breaker.core.BreakerRegistry;
import dev.breaker.core.Outcome;
import dev.breaker.core.OutcomeClassifier;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import reactor.core.publisher.Mono;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.NettyDataBuffer;
import org.springframework.core.io.buffer.NettyDataBufferFactory;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A Mono, Flux or CompletionStage call paused for a retry when its context closes: the
 * context's real scheduler drops the pause it took, and the call ends with its last
 * attempt (its fallback here), as when a closed scheduler refuses the pause up front,
 * rather than waiting for ever with its retry spent and, when the breaker is outside the
 * retries, the sequence's permit (perhaps a half-open probe) held. The pauses are an hour
 * long: only the close can end them.
 */
class PausesDroppedAtContextCloseTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, BreakerAutoConfiguration.class))
		.withBean(RetryPauseRacesTests.Remote.class)
		.withPropertyValues("breaker.instances.remote.retry.intervals=1h",
				"breaker.instances.remote.track-in-flight=true");

	@ParameterizedTest
	@EnumSource
	void aCallPausedForARetryWhenTheContextClosesEndsWithItsFallbackAndGivesTheRetryAndPermitBack(Caller caller) {
		this.runner.run((context) -> assertEndsAtClose(context, caller));
	}

	@ParameterizedTest
	@EnumSource
	void aCallPausedForARetryEachAttemptRecordedEndsWithItsFallbackWhenTheContextCloses(Caller caller) {
		this.runner.withPropertyValues("breaker.instances.remote.retry.record-each-attempt=true")
			.run((context) -> assertEndsAtClose(context, caller));
	}

	private static void assertEndsAtClose(AssertableApplicationContext context, Caller caller) {
		RetryPauseRacesTests.Remote remote = context.getBean(RetryPauseRacesTests.Remote.class);
		Breaker breaker = context.getBean(BreakerRegistry.class).breaker("remote");
		CompletableFuture<Object> result = caller.call(remote);
		assertThat(breaker.totals().retries()).as("retries granted").isEqualTo(1);
		assertThat(result).as("paused").isNotDone();
		context.close();
		assertThat(result).as("ended by the close").succeedsWithin(Duration.ofSeconds(10)).isEqualTo(caller.fallback());
		assertThat(remote.calls()).as("attempts").isEqualTo(1);
		assertThat(breaker.snapshot().retryBudget().retries()).as("retries taken from the budget").isZero();
		assertThat(breaker.snapshot().inFlight()).as("in flight").isZero();
		assertThat(breaker.totals().calls(Outcome.FAILURE)).as("failures recorded").isEqualTo(1);
	}

	/**
	 * A value retried that is a per-call response was freed as its pause was taken: a
	 * call whose pause is dropped cannot deliver it, and falls back instead, the value
	 * freed once.
	 */
	@ParameterizedTest
	@EnumSource(names = { "MONO", "COMPLETION_STAGE" })
	void aCallWhoseRetriedBufferWasFreedFallsBackWhenItsPauseIsDroppedAndFreesItOnce(Caller caller) {
		this.runner.withBean(Buffers.class)
			.withBean(OutcomeClassifier.class,
					() -> OutcomeClassifier.builder().failureResult((value) -> value instanceof DataBuffer).build())
			.withPropertyValues("breaker.instances.buffers.retry.intervals=1h")
			.run((context) -> {
				Buffers buffers = context.getBean(Buffers.class);
				CompletableFuture<Object> result = (caller == Caller.MONO) ? buffers.mono().toFuture()
						: buffers.stage();
				assertThat(result).as("paused").isNotDone();
				context.close();
				assertThat(result).as("ended by the close")
					.succeedsWithin(Duration.ofSeconds(10))
					.isEqualTo("fallback");
				assertThat(buffers.cause()).as("what the fallback got")
					.isInstanceOf(RejectedExecutionException.class)
					.hasMessageContaining("pause was dropped");
				assertThat(buffers.references()).as("references left: freed once").isEqualTo(1);
			});
	}

	enum Caller {

		MONO, FLUX, COMPLETION_STAGE;

		CompletableFuture<Object> call(RetryPauseRacesTests.Remote remote) {
			return switch (this) {
				case MONO -> remote.mono().<Object>map((value) -> value).toFuture();
				case FLUX -> remote.flux().collectList().<Object>map((values) -> values).toFuture();
				case COMPLETION_STAGE -> remote.stage().thenApply((value) -> value);
			};
		}

		Object fallback() {
			return (this == FLUX) ? List.of("cached after blip") : "cached after blip";
		}

	}

	/**
	 * Answers a data buffer (a failure to the classifier here) held twice, so that the
	 * test sees how often the aspect released it.
	 */
	static class Buffers {

		private final NettyDataBuffer buffer = new NettyDataBufferFactory(UnpooledByteBufAllocator.DEFAULT)
			.wrap(Unpooled.copiedBuffer("stale", StandardCharsets.UTF_8));

		private final AtomicReference<Throwable> cause = new AtomicReference<>();

		Buffers() {
			this.buffer.retain();
		}

		public Throwable cause() {
			return this.cause.get();
		}

		public int references() {
			return this.buffer.getNativeBuffer().refCnt();
		}

		@CircuitGuarded(name = "buffers", fallbackMethod = "fallbackMono")
		public Mono<Object> mono() {
			return Mono.just(this.buffer);
		}

		@CircuitGuarded(name = "buffers", fallbackMethod = "fallbackStage")
		public CompletableFuture<Object> stage() {
			return CompletableFuture.completedFuture(this.buffer);
		}

		Mono<Object> fallbackMono(Throwable cause) {
			this.cause.set(cause);
			return Mono.just("fallback");
		}

		CompletableFuture<Object> fallbackStage(Throwable cause) {
			this.cause.set(cause);
			return CompletableFuture.completedFuture("fallback");
		}

	}

}
