package dev.breaker.aspect;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import dev.breaker.annotation.CircuitGuarded;
import dev.breaker.autoconfigure.BreakerAutoConfiguration;
import dev.breaker.core.Breaker;
import dev.breaker.core.BreakerRegistry;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A call whose pause the context's close dropped runs its fallback while the context is
 * being destroyed. A fallback that uses a bean the close destroyed fails as any failing
 * fallback does: its caller gets that bean's exception at once (no hang, the permit and
 * the retry already handed back before the fallback ran), and a fallback that does not
 * depend on a destroyed bean still serves its caller. Here the fallback waits until the
 * store it reads is destroyed, so it always meets a destroyed bean.
 */
class FallbacksAfterContextCloseTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, BreakerAutoConfiguration.class))
		.withBean(Store.class)
		.withBean(Quotes.class)
		.withPropertyValues("breaker.instances.quotes.retry.intervals=1h",
				"breaker.instances.quotes.track-in-flight=true");

	@ParameterizedTest
	@EnumSource
	void aFallbackThatUsesABeanTheCloseDestroyedGivesItsCallerThatBeansErrorAtOnce(Caller caller) {
		this.runner.run((context) -> {
			Quotes quotes = context.getBean(Quotes.class);
			Breaker breaker = context.getBean(BreakerRegistry.class).breaker("quotes");
			CompletableFuture<Object> result = caller.call(quotes);
			assertThat(result).as("paused").isNotDone();
			context.close();
			assertThat(result).as("ended by the close")
				.failsWithin(Duration.ofSeconds(10))
				.withThrowableThat()
				.havingCause()
				.isInstanceOf(IllegalStateException.class)
				.withMessage("store closed");
			assertThat(breaker.snapshot().retryBudget().retries()).as("retries taken from the budget").isZero();
			assertThat(breaker.snapshot().inFlight()).as("in flight").isZero();
		});
	}

	enum Caller {

		MONO, FLUX, COMPLETION_STAGE;

		CompletableFuture<Object> call(Quotes quotes) {
			return switch (this) {
				case MONO -> quotes.mono().<Object>map((value) -> value).toFuture();
				case FLUX -> quotes.flux().collectList().<Object>map((values) -> values).toFuture();
				case COMPLETION_STAGE -> quotes.stage().thenApply((value) -> value);
			};
		}

	}

	/** A bean that refuses to be used once destroyed, as a closed pool or cache does. */
	static class Store implements DisposableBean {

		private final CountDownLatch destroyed = new CountDownLatch(1);

		String read() throws InterruptedException {
			// the fallback reads the store once the close destroyed it
			this.destroyed.await(10, TimeUnit.SECONDS);
			throw new IllegalStateException("store closed");
		}

		@Override
		public void destroy() {
			this.destroyed.countDown();
		}

	}

	static class Quotes {

		private final Store store;

		Quotes(Store store) {
			this.store = store;
		}

		@CircuitGuarded(name = "quotes", fallbackMethod = "storedMono")
		public Mono<String> mono() {
			return Mono.error(new IOException("down"));
		}

		@CircuitGuarded(name = "quotes", fallbackMethod = "storedFlux")
		public Flux<String> flux() {
			return Flux.error(new IOException("down"));
		}

		@CircuitGuarded(name = "quotes", fallbackMethod = "storedStage")
		public CompletableFuture<String> stage() {
			return CompletableFuture.failedFuture(new IOException("down"));
		}

		Mono<String> storedMono() throws InterruptedException {
			return Mono.just(this.store.read());
		}

		Flux<String> storedFlux() throws InterruptedException {
			return Flux.just(this.store.read());
		}

		CompletableFuture<String> storedStage() throws InterruptedException {
			return CompletableFuture.completedFuture(this.store.read());
		}

	}

}
