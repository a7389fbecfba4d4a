package dev.breaker.aspect;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;

import dev.breaker.annotation.CircuitGuarded;

import dev.breaker.autoconfigure.BreakerAutoConfiguration;
import dev.breaker.core.Breaker;
import dev.breaker.core.BreakerRegistry;
import dev.breaker.core.Outcome;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import reactor.core.publisher.Flux;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A Mono, Flux or CompletionStage call whose attempt hangs when its context closes: the
 * context's real scheduler drops the attempt's pending timeout, and the attempt ends at
 * once rather than hanging for ever with its permit (perhaps a half-open probe) held. It
 * ends as the caller giving up does: the method's stage (or subscription) cancelled, the
 * permit handed back as IGNORED (the dependency did not fail: a shutdown trips no
 * breaker), no retry and no fallback; the caller gets a RejectedExecutionException saying
 * the timeout was dropped. The timeouts are an hour long: only the close can end them.
 */
class TimeoutsDroppedAtContextCloseTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, BreakerAutoConfiguration.class))
		.withBean(RetryPauseRacesTests.Remote.class)
		.withPropertyValues("breaker.instances.remote.timeout=1h", "breaker.instances.remote.retry.intervals=1ms",
				"breaker.instances.remote.track-in-flight=true");

	@ParameterizedTest
	@EnumSource
	void anAttemptHangingWhenTheContextClosesEndsAtOnceWithItsPermitHandedBack(
			PausesDroppedAtContextCloseTests.Caller caller) {
		this.runner.run((context) -> assertEndsAtClose(context, caller));
	}

	@ParameterizedTest
	@EnumSource
	void anAttemptHangingWhenTheContextClosesEachAttemptRecordedEndsAtOnce(
			PausesDroppedAtContextCloseTests.Caller caller) {
		this.runner.withPropertyValues("breaker.instances.remote.retry.record-each-attempt=true")
			.run((context) -> assertEndsAtClose(context, caller));
	}

	/**
	 * A Flux that streams: it emitted elements, then hangs when the context closes. It
	 * ends the same way, its elements delivered, its source unsubscribed.
	 */
	@Test
	void aFluxThatEmittedAndHangsWhenTheContextClosesEndsAtOnceUnsubscribed() {
		this.runner.withBean(Ticks.class)
			.withPropertyValues("breaker.instances.ticks.timeout=1h", "breaker.instances.ticks.track-in-flight=true")
			.run((context) -> {
				Ticks ticks = context.getBean(Ticks.class);
				Breaker breaker = context.getBean(BreakerRegistry.class).breaker("ticks");
				List<String> received = new CopyOnWriteArrayList<>();
				CompletableFuture<Void> result = ticks.stream().doOnNext(received::add).then().toFuture();
				assertThat(received).as("emitted before the close").containsExactly("tick");
				assertThat(result).as("hanging").isNotDone();
				context.close();
				assertEndedAsADroppedTimeout(result, breaker);
				assertThat(ticks.unsubscribed()).as("the stream unsubscribed").isTrue();
			});
	}

	private static void assertEndsAtClose(AssertableApplicationContext context,
			PausesDroppedAtContextCloseTests.Caller caller) {
		RetryPauseRacesTests.Remote remote = context.getBean(RetryPauseRacesTests.Remote.class);
		remote.holdFirst();
		Breaker breaker = context.getBean(BreakerRegistry.class).breaker("remote");
		CompletableFuture<Object> result = caller.call(remote);
		assertThat(result).as("hanging").isNotDone();
		assertThat(breaker.snapshot().inFlight()).as("in flight before the close").isOne();
		context.close();
		assertEndedAsADroppedTimeout(result, breaker);
		assertThat(remote.firstCancelled()).as("the method's stage cancelled (or its Mono or Flux unsubscribed)")
			.isTrue();
		assertThat(remote.calls()).as("attempts").isEqualTo(1);
		assertThat(breaker.totals().retries()).as("retries granted").isZero();
	}

	/**
	 * The call ended at once as one whose (hour-long) timeout the close dropped: with
	 * that RejectedExecutionException, its permit handed back as IGNORED, no timeout
	 * recorded.
	 */
	static void assertEndedAsADroppedTimeout(CompletableFuture<?> result, Breaker breaker) {
		assertThat(result).as("ended by the close")
			.failsWithin(Duration.ofSeconds(10))
			.withThrowableThat()
			.havingCause()
			.isInstanceOf(RejectedExecutionException.class)
			.withMessage("breaker '" + breaker.name()
					+ "': attempt ended, its timeout (PT1H) was dropped by a closed scheduler");
		assertThat(breaker.snapshot().inFlight()).as("in flight").isZero();
		assertThat(breaker.totals().calls(Outcome.IGNORED)).as("ignored recorded").isEqualTo(1);
		assertThat(breaker.totals().calls(Outcome.TIMEOUT)).as("timeouts recorded").isZero();
	}

	/** A stream that emits one element, then nothing until it is cancelled. */
	static class Ticks {

		private final AtomicBoolean unsubscribed = new AtomicBoolean();

		boolean unsubscribed() {
			return this.unsubscribed.get();
		}

		@CircuitGuarded(name = "ticks", fallbackMethod = "none")
		public Flux<String> stream() {
			return Flux.concat(Flux.just("tick"), Flux.<String>never()).doOnCancel(() -> this.unsubscribed.set(true));
		}

		Flux<String> none() {
			return Flux.empty();
		}

	}

}
