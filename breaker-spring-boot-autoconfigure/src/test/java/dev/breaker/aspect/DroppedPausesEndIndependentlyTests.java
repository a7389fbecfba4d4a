package dev.breaker.aspect;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import dev.breaker.annotation.CircuitGuarded;
import dev.breaker.autoconfigure.BreakerAutoConfiguration;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The calls whose pauses a context's close drops end each on its own: one whose fallback
 * (or subscriber) blocks holds only itself, never the other dropped calls. Here each
 * fallback waits until both have started (a rendezvous), which only calls ended
 * independently can reach; ended one after the other, the first waits for a second that
 * never starts.
 */
class DroppedPausesEndIndependentlyTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, BreakerAutoConfiguration.class))
		.withBean(Waiting.class)
		.withPropertyValues("breaker.instances.waiting.retry.intervals=1h");

	@Test
	void aDroppedCallWhoseFallbackBlocksDoesNotHoldTheOtherDroppedCalls() {
		this.runner.run((context) -> {
			Waiting waiting = context.getBean(Waiting.class);
			CompletableFuture<String> a = waiting.a();
			CompletableFuture<String> b = waiting.b();
			assertThat(a).as("a paused").isNotDone();
			assertThat(b).as("b paused").isNotDone();
			context.close();
			assertThat(a).as("a ended by the close").succeedsWithin(Duration.ofSeconds(10)).isEqualTo("fallback");
			assertThat(b).as("b ended by the close").succeedsWithin(Duration.ofSeconds(10)).isEqualTo("fallback");
		});
	}

	static class Waiting {

		private final CountDownLatch both = new CountDownLatch(2);

		@CircuitGuarded(name = "waiting", fallbackMethod = "fallback")
		public CompletableFuture<String> a() {
			return CompletableFuture.failedFuture(new IOException("down"));
		}

		@CircuitGuarded(name = "waiting", fallbackMethod = "fallback")
		public CompletableFuture<String> b() {
			return CompletableFuture.failedFuture(new IOException("down"));
		}

		CompletableFuture<String> fallback(Throwable cause) throws InterruptedException {
			this.both.countDown();
			// a fallback that waits on something (a lock, a cache, another call)
			this.both.await(30, TimeUnit.SECONDS);
			return CompletableFuture.completedFuture("fallback");
		}

	}

}
