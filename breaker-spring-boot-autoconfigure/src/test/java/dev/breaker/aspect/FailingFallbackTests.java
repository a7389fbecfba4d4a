package dev.breaker.aspect;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;

import dev.breaker.annotation.CircuitGuarded;
import dev.breaker.autoconfigure.BreakerAutoConfiguration;
import dev.breaker.core.Breaker;
import dev.breaker.core.BreakerOpenException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

import org.assertj.core.api.InstanceOfAssertFactories;

import static dev.breaker.aspect.ManualTime.breaker;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A fallback that itself fails: its caller gets the fallback's exception, which carries
 * the failure the fallback was called for (the call's exception, the breaker's rejection,
 * the timeout) as a suppressed exception, so that the original failure is not lost; for
 * every return type. Never the exception itself (a fallback that rethrows its cause), nor
 * one already in its chain, nor twice.
 */
class FailingFallbackTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, BreakerAutoConfiguration.class))
		.withUserConfiguration(Services.class)
		.withPropertyValues("breaker.instances.broken.timeout=1s", "breaker.instances.broken.consecutive-failures=0");

	@ParameterizedTest
	@EnumSource
	void aFallbackThatFailsCarriesTheCallsFailureAsSuppressed(Kind kind) {
		this.runner.run((context) -> {
			Broken broken = context.getBean(Broken.class);
			IOException down = new IOException("down");
			broken.script().then(down);
			assertThat(failure(kind.call(broken))).isInstanceOf(IllegalStateException.class)
				.hasMessage("fallback broken")
				.hasSuppressedException(down);
			IOException again = new IOException("down again");
			broken.script().then(again);
			assertThat(failure(kind.call(broken)).getSuppressed()).as("what the next call's fallback carries")
				.containsExactly(again);
		});
	}

	@ParameterizedTest
	@EnumSource
	void aFallbackThatFailsOnARejectionCarriesTheRejectionAsSuppressed(Kind kind) {
		this.runner.run((context) -> {
			Broken broken = context.getBean(Broken.class);
			Breaker breaker = breaker(context, "broken");
			breaker.forceOpen();
			Throwable failure = failure(kind.call(broken));
			assertThat(failure).hasMessage("fallback broken");
			assertThat(failure.getSuppressed()).singleElement()
				.isInstanceOf(BreakerOpenException.class)
				.isSameAs(breaker.rejection());
		});
	}

	@ParameterizedTest
	@EnumSource(names = { "COMPLETION_STAGE", "MONO", "FLUX" })
	void aFallbackThatFailsAfterATimeoutCarriesTheTimeoutAsSuppressed(Kind kind) {
		this.runner.run((context) -> {
			Broken broken = context.getBean(Broken.class);
			broken.script().then(Broken.HANG);
			CompletableFuture<Object> result = kind.call(broken);
			assertThat(result).as("hanging").isNotDone();
			context.getBean(ManualDelays.class).runPending();
			assertThat(failure(result).getSuppressed()).singleElement(InstanceOfAssertFactories.THROWABLE)
				.isInstanceOf(TimeoutException.class)
				.hasMessage("breaker 'broken': did not complete within PT1S");
		});
	}

	@ParameterizedTest
	@EnumSource
	void aFallbackThatRethrowsItsCauseGivesItUnchangedWithoutSuppressingItself(Kind kind) {
		this.runner.run((context) -> {
			Broken broken = context.getBean(Broken.class);
			broken.fallbackThrows((cause) -> (cause instanceof RuntimeException unchecked) ? unchecked
					: new UncheckedIOException((IOException) cause));
			IllegalArgumentException down = new IllegalArgumentException("down");
			broken.script().then(down);
			Throwable failure = failure(kind.call(broken));
			assertThat(failure).isSameAs(down);
			assertThat(failure.getSuppressed()).isEmpty();
		});
	}

	@ParameterizedTest
	@EnumSource
	void aFallbackThatWrapsItsCauseKeepsItAsTheCauseOnly(Kind kind) {
		this.runner.run((context) -> {
			Broken broken = context.getBean(Broken.class);
			broken.fallbackThrows((cause) -> new IllegalStateException("wrapped", cause));
			IOException down = new IOException("down");
			broken.script().then(down);
			Throwable failure = failure(kind.call(broken));
			assertThat(failure).hasMessage("wrapped").hasCause(down);
			assertThat(failure.getSuppressed()).isEmpty();
		});
	}

	/**
	 * A fallback that throws one exception it keeps, for a breaker that rejects every
	 * call with its one preallocated rejection: the rejection is carried once, however
	 * many calls the fallback failed.
	 */
	@ParameterizedTest
	@EnumSource
	void aFallbackThatThrowsOneKeptExceptionCarriesTheSameFailureOnlyOnce(Kind kind) {
		this.runner.run((context) -> {
			Broken broken = context.getBean(Broken.class);
			IllegalStateException kept = new IllegalStateException("fallback broken for good");
			broken.fallbackThrows((cause) -> kept);
			breaker(context, "broken").forceOpen();
			assertThat(failure(kind.call(broken))).isSameAs(kept);
			assertThat(failure(kind.call(broken))).isSameAs(kept);
			assertThat(kept.getSuppressed()).singleElement().isInstanceOf(BreakerOpenException.class);
		});
	}

	/**
	 * A fallback that throws one exception it keeps, for calls that each fail with a
	 * fresh exception: the kept exception carries the first few failures, not one more
	 * per call (it would grow for as long as the dependency is down).
	 */
	@ParameterizedTest
	@EnumSource
	void aFallbackThatThrowsOneKeptExceptionForFreshFailuresCarriesABoundedFew(Kind kind) {
		this.runner.run((context) -> {
			Broken broken = context.getBean(Broken.class);
			IllegalStateException kept = new IllegalStateException("fallback broken for good");
			broken.fallbackThrows((cause) -> kept);
			for (int i = 0; i < 100; i++) {
				IOException down = new IOException("down " + i);
				broken.script().then(down);
				assertThat(failure(kind.call(broken))).isSameAs(kept);
			}
			assertThat(kept.getSuppressed()).extracting(Throwable::getMessage)
				.containsExactly("down 0", "down 1", "down 2", "down 3")
				.hasSize(Fallbacks.MOST_SUPPRESSED);
		});
	}

	private static Throwable failure(CompletableFuture<Object> result) {
		assertThat(result).as("failed").isCompletedExceptionally();
		return Fallbacks.unwrap(result.handle((value, error) -> error).join());
	}

	enum Kind {

		PLAIN, COMPLETION_STAGE, MONO, FLUX;

		CompletableFuture<Object> call(Broken broken) {
			return switch (this) {
				case PLAIN -> {
					try {
						yield CompletableFuture.completedFuture(broken.plain());
					}
					catch (Throwable ex) {
						yield CompletableFuture.failedFuture(ex);
					}
				}
				case COMPLETION_STAGE -> broken.stage().thenApply((value) -> value);
				case MONO -> broken.mono().<Object>map((value) -> value).toFuture();
				case FLUX -> broken.flux().collectList().<Object>map((values) -> values).toFuture();
			};
		}

	}

	@Configuration(proxyBeanMethods = false)
	@Import(ManualTime.class)
	static class Services {

		@Bean
		Broken broken() {
			return new Broken();
		}

	}

	/**
	 * A dependency that fails as its script says, whose fallbacks fail too: the plain one
	 * by throwing, the others with a failed stage or publisher.
	 */
	static class Broken {

		/** A script step: the answer never comes (an asynchronous call times out). */
		static final String HANG = "hang";

		private final Script script = new Script();

		/** What each fallback fails with, given the failure it was called for. */
		private volatile Function<Throwable, RuntimeException> fallbackThrows = (cause) -> new IllegalStateException(
				"fallback broken");

		Script script() {
			return this.script;
		}

		void fallbackThrows(Function<Throwable, RuntimeException> thrown) {
			this.fallbackThrows = thrown;
		}

		private CompletableFuture<String> next() {
			try {
				Object step = this.script.next();
				return (step == HANG) ? new CompletableFuture<>() : CompletableFuture.completedFuture((String) step);
			}
			catch (Exception ex) {
				return CompletableFuture.failedFuture(ex);
			}
		}

		@CircuitGuarded(name = "broken", fallbackMethod = "failingPlain")
		public String plain() throws Exception {
			return (String) this.script.next();
		}

		@CircuitGuarded(name = "broken", fallbackMethod = "failingStage")
		public CompletableFuture<String> stage() {
			return next();
		}

		@CircuitGuarded(name = "broken", fallbackMethod = "failingMono")
		public Mono<String> mono() {
			return Mono.defer(() -> Mono.fromFuture(next()));
		}

		@CircuitGuarded(name = "broken", fallbackMethod = "failingFlux")
		public Flux<String> flux() {
			return Flux.defer(() -> Mono.fromFuture(next()).flux());
		}

		String failingPlain(Throwable cause) {
			throw this.fallbackThrows.apply(cause);
		}

		CompletableFuture<String> failingStage(Throwable cause) {
			return CompletableFuture.failedFuture(this.fallbackThrows.apply(cause));
		}

		Mono<String> failingMono(Throwable cause) {
			return Mono.error(this.fallbackThrows.apply(cause));
		}

		Flux<String> failingFlux(Throwable cause) {
			return Flux.error(this.fallbackThrows.apply(cause));
		}

	}

}
