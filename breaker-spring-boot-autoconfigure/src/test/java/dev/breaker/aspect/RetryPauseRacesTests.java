package dev.breaker.aspect;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;

import dev.breaker.annotation.CircuitGuarded;
import dev.breaker.autoconfigure.BreakerAutoConfiguration;
import dev.breaker.core.Breaker;
import dev.breaker.core.BreakerRegistry;
import dev.breaker.core.ManualTicker;
import dev.breaker.core.Outcome;
import dev.breaker.core.State;
import dev.breaker.core.Ticker;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationContext;

/**
 * The edges of a retry's pause, for the asynchronous return types: a caller who gives up
 * just as the next attempt asks for its permit, and a scheduler that refuses the pause (a
 * context shutting down closes the default one). Either way no permit is held for good (a
 * half-open probe would wait for a verdict that never comes, a stall rule would count the
 * call as stuck) and the caller gets what a plain call would give it.
 */
class RetryPauseRacesTests {

	private final ApplicationContextRunner eachAttempt = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, BreakerAutoConfiguration.class))
		.withBean(Remote.class)
		.withBean(CancelOnTheNextTick.class)
		.withBean(ManualDelays.class)
		.withPropertyValues("breaker.instances.remote.retry.intervals=50ms",
				"breaker.instances.remote.retry.record-each-attempt=true",
				"breaker.instances.remote.track-in-flight=true");

	/**
	 * Retries inside the first attempt's permit: a retry asks for no permit of its own,
	 * only its grant decides whether it starts.
	 */
	private final ApplicationContextRunner oncePerSequence = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, BreakerAutoConfiguration.class))
		.withBean(Remote.class)
		.withBean(ManualTicker.class)
		.withBean(ManualDelays.class)
		.withPropertyValues("breaker.instances.remote.retry.intervals=50ms",
				"breaker.instances.remote.retry.record-each-attempt=false",
				"breaker.instances.remote.track-in-flight=true");

	private final ApplicationContextRunner refusedPauses = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, BreakerAutoConfiguration.class))
		.withBean(Remote.class)
		.withBean(ManualTicker.class)
		.withBean(DelayScheduler.class, ClosedScheduler::new)
		.withPropertyValues("breaker.instances.remote.retry.intervals=50ms",
				"breaker.instances.remote.track-in-flight=true");

	@ParameterizedTest
	@EnumSource
	void aCallCancelledAsItsRetryAsksForAPermitHoldsNoPermitAndMakesNoFurtherAttempt(Caller caller) {
		assertGivingUpAsTheRetryAsksForAPermitEndsTheCall(caller::callAndGiveUp);
	}

	@ParameterizedTest
	@EnumSource
	void aCallWhoseCallerGivesUpAsItsFailedAttemptIsRecordedSpendsNoRetry(Caller caller) {
		assertGivingUpBeforeTheBudgetIsAskedSpendsNoRetry(caller::callAndGiveUp);
	}

	@ParameterizedTest
	@EnumSource
	void aCallWhoseCallerGivesUpDuringTheGrantedRetrysPauseGivesTheRetryBack(Caller caller) {
		assertGivingUpDuringThePauseGivesTheRetryBack(this.eachAttempt, caller);
	}

	@ParameterizedTest
	@EnumSource
	void aCallRecordedOnceWhoseCallerGivesUpDuringTheGrantedRetrysPauseGivesTheRetryBack(Caller caller) {
		assertGivingUpDuringThePauseGivesTheRetryBack(this.oncePerSequence, caller);
	}

	private static void assertGivingUpDuringThePauseGivesTheRetryBack(ApplicationContextRunner runner, Caller caller) {
		runner.run((context) -> {
			Remote remote = context.getBean(Remote.class);
			Runnable giveUp = caller.callAndGiveUp(remote);
			ManualDelays delays = context.getBean(ManualDelays.class);
			assertThat(delays.waiting()).as("the granted retry's pause, pending").isEqualTo(1);
			giveUp.run();
			delays.runPending();
			assertRetryGivenBackAfterOneAttempt(context, remote);
		});
	}

	@ParameterizedTest
	@EnumSource
	void aCallWhoseCallerGivesUpWhileTheBudgetGrantsItsRetryGivesTheRetryBack(Caller caller) {
		this.eachAttempt.run((context) -> {
			Remote remote = context.getBean(Remote.class);
			remote.holdFirst();
			Runnable giveUp = caller.callAndGiveUp(remote);
			CancelOnTheNextTick ticks = context.getBean(CancelOnTheNextTick.class);
			ticks.insideTheBudget(giveUp);
			remote.failFirst(new IOException("blip"));
			context.getBean(ManualDelays.class).runPending();
			assertThat(ticks.ranInsideTheBudget()).as("the caller gave up inside the budget").isTrue();
			assertRetryGivenBackAfterOneAttempt(context, remote);
		});
	}

	@ParameterizedTest
	@EnumSource
	void aRetryWhoseAttemptStartedKeepsItsTokenWhenItsCallerGivesUp(Caller caller) {
		assertAStartedRetryKeepsItsToken(this.eachAttempt, caller);
	}

	@ParameterizedTest
	@EnumSource
	void aRetryInsideTheFirstAttemptsPermitWhoseAttemptStartedKeepsItsTokenWhenItsCallerGivesUp(Caller caller) {
		assertAStartedRetryKeepsItsToken(this.oncePerSequence, caller);
	}

	private static void assertAStartedRetryKeepsItsToken(ApplicationContextRunner runner, Caller caller) {
		runner.run((context) -> {
			Remote remote = context.getBean(Remote.class);
			remote.holdSecond();
			Runnable giveUp = caller.callAndGiveUp(remote);
			context.getBean(ManualDelays.class).runPending();
			assertThat(remote.calls()).as("attempts").isEqualTo(2);
			giveUp.run();
			Breaker breaker = context.getBean(BreakerRegistry.class).breaker("remote");
			assertThat(breaker.snapshot().retryBudget().retries()).as("retries taken from the budget").isEqualTo(1);
			assertThat(breaker.snapshot().inFlight()).as("in flight after the cancel").isZero();
		});
	}

	@ParameterizedTest
	@EnumSource
	void aRetryWhoseAttemptTheBreakerRefusesGivesItsTokenBack(Caller caller) {
		this.eachAttempt.withPropertyValues("breaker.instances.remote.consecutive-failures=1").run((context) -> {
			Remote remote = context.getBean(Remote.class);
			caller.callAndGiveUp(remote);
			context.getBean(ManualDelays.class).runPending();
			Breaker breaker = context.getBean(BreakerRegistry.class).breaker("remote");
			assertThat(breaker.state()).isEqualTo(State.OPEN);
			assertRetryGivenBackAfterOneAttempt(context, remote);
		});
	}

	@Test
	void aPlainCallInterruptedInItsRetrysPauseGivesTheRetryBack() {
		this.eachAttempt.run((context) -> {
			Remote remote = context.getBean(Remote.class);
			Thread.currentThread().interrupt();
			try {
				assertThat(remote.plain()).startsWith("cached after");
			}
			finally {
				Thread.interrupted();
			}
			assertRetryGivenBackAfterOneAttempt(context, remote);
		});
	}

	/**
	 * The call made one attempt, and the retry the budget granted it, never made, is back
	 * in the budget: a budget drained by callers who gave up would refuse real retries.
	 */
	private static void assertRetryGivenBackAfterOneAttempt(ApplicationContext context, Remote remote) {
		Breaker breaker = context.getBean(BreakerRegistry.class).breaker("remote");
		assertThat(remote.calls()).as("attempts").isEqualTo(1);
		assertThat(breaker.snapshot().retryBudget().retries()).as("retries taken from the budget").isZero();
		assertThat(breaker.snapshot().inFlight()).as("in flight after the call").isZero();
	}

	@Test
	void aMonoWhosePauseTheSchedulerRefusesEndsWithItsFallbackAndHoldsNoPermit() {
		this.refusedPauses.run((context) -> {
			assertThat(context.getBean(Remote.class).mono().block(Duration.ofSeconds(5)))
				.isEqualTo("cached after blip");
			assertNoPermitHeldAfterOneFailure(context);
		});
	}

	/**
	 * A plain call's pause refused (a scheduler closed with its context refuses to sleep
	 * too): the call ends with its fallback, as when the pause is interrupted, its retry
	 * back in the budget and the permit of its sequence handed back.
	 */
	@Test
	void aPlainCallWhosePauseTheSchedulerRefusesEndsWithItsFallbackAndGivesTheRetryBack() {
		this.refusedPauses.run((context) -> {
			Remote remote = context.getBean(Remote.class);
			assertThat(remote.plain()).isEqualTo("cached after blip");
			assertNoPermitHeldAfterOneFailure(context);
			assertRetryGivenBackAfterOneAttempt(context, remote);
		});
	}

	@Test
	void aFluxWhosePauseTheSchedulerRefusesEndsWithItsFallbackAndHoldsNoPermit() {
		this.refusedPauses.run((context) -> {
			assertThat(context.getBean(Remote.class).flux().collectList().block(Duration.ofSeconds(5)))
				.containsExactly("cached after blip");
			assertNoPermitHeldAfterOneFailure(context);
		});
	}

	@Test
	void aCompletionStageWhosePauseTheSchedulerRefusesEndsWithItsFallbackAndHoldsNoPermit() {
		this.refusedPauses.run((context) -> {
			assertThat(context.getBean(Remote.class).stage()).isCompletedWithValue("cached after blip");
			assertNoPermitHeldAfterOneFailure(context);
		});
	}

	@Test
	void aCompletionStageWhoseTimeoutTheSchedulerRefusesRunsWithoutItAndHoldsNoPermit() {
		this.refusedPauses.withPropertyValues("breaker.instances.remote.timeout=1s").run((context) -> {
			assertThat(context.getBean(Remote.class).stage()).isCompletedWithValue("cached after blip");
			assertNoPermitHeldAfterOneFailure(context);
		});
	}

	@Test
	void aMonoWhoseTimeoutTheSchedulerRefusesRunsWithoutIt() {
		this.refusedPauses.withPropertyValues("breaker.instances.remote.timeout=1s").run((context) -> {
			assertThat(context.getBean(Remote.class).mono().block(Duration.ofSeconds(5)))
				.isEqualTo("cached after blip");
			assertNoPermitHeldAfterOneFailure(context);
		});
	}

	/**
	 * Starts a call whose first attempt fails ({@code call} answers how its caller gives
	 * up), gives up while the retry asks the breaker for its permit, and checks that the
	 * permit came back and the dependency was not called again.
	 */
	private void assertGivingUpAsTheRetryAsksForAPermitEndsTheCall(Function<Remote, Runnable> call) {
		this.eachAttempt.run((context) -> {
			Remote remote = context.getBean(Remote.class);
			context.getBean(CancelOnTheNextTick.class).then(call.apply(remote));
			context.getBean(ManualDelays.class).runPending();
			Breaker breaker = context.getBean(BreakerRegistry.class).breaker("remote");
			assertThat(breaker.snapshot().inFlight()).as("in flight after the cancel").isZero();
			assertThat(remote.calls()).as("attempts").isEqualTo(1);
		});
	}

	/**
	 * Starts a call whose first attempt fails later ({@code call} answers how its caller
	 * gives up), gives up while that failure is being recorded (after the attempt ended,
	 * before the retry budget is asked), and checks that no retry was taken from the
	 * budget, none was made, and no permit is held.
	 */
	private void assertGivingUpBeforeTheBudgetIsAskedSpendsNoRetry(Function<Remote, Runnable> call) {
		this.eachAttempt.run((context) -> {
			Remote remote = context.getBean(Remote.class);
			remote.holdFirst();
			Runnable giveUp = call.apply(remote);
			context.getBean(CancelOnTheNextTick.class).then(giveUp);
			remote.failFirst(new IOException("blip"));
			context.getBean(ManualDelays.class).runPending();
			Breaker breaker = context.getBean(BreakerRegistry.class).breaker("remote");
			assertThat(breaker.totals().retries()).as("retries taken from the budget").isZero();
			assertThat(remote.calls()).as("attempts").isEqualTo(1);
			assertThat(breaker.snapshot().inFlight()).as("in flight after the cancel").isZero();
			assertThat(breaker.totals().calls(Outcome.FAILURE)).as("the failed attempt, recorded").isEqualTo(1);
		});
	}

	private static void assertNoPermitHeldAfterOneFailure(ApplicationContext context) {
		Breaker breaker = context.getBean(BreakerRegistry.class).breaker("remote");
		assertThat(breaker.snapshot().inFlight()).as("in flight").isZero();
		assertThat(breaker.totals().calls(Outcome.FAILURE)).isEqualTo(1);
	}

	/**
	 * A ticker that runs a task the next time the breaker reads it (inside acquire()), or
	 * the next time the retry budget reads it (inside the breaker's tryRetry(), as it
	 * grants).
	 */
	static class CancelOnTheNextTick implements Ticker {

		private final AtomicReference<Runnable> next = new AtomicReference<>();

		private final AtomicReference<Runnable> inBudget = new AtomicReference<>();

		void then(Runnable task) {
			this.next.set(task);
		}

		void insideTheBudget(Runnable task) {
			this.inBudget.set(task);
		}

		/** Whether the task given to {@link #insideTheBudget} ran. */
		boolean ranInsideTheBudget() {
			return this.inBudget.get() == null;
		}

		@Override
		public long nanos() {
			Runnable task = this.next.getAndSet(null);
			if (task == null && this.inBudget.get() != null && askedByTheBudget()) {
				task = this.inBudget.getAndSet(null);
			}
			if (task != null) {
				task.run();
			}
			return 0;
		}

		private static boolean askedByTheBudget() {
			return StackWalker.getInstance()
				.walk((frames) -> frames.anyMatch((frame) -> frame.getClassName().equals(Breaker.class.getName())
						&& frame.getMethodName().endsWith("Retry")));
		}

	}

	/** How a test calls {@link Remote} and how its caller then gives up. */
	enum Caller {

		MONO, FLUX, COMPLETION_STAGE;

		Runnable callAndGiveUp(Remote remote) {
			return switch (this) {
				case MONO -> remote.mono().subscribe()::dispose;
				case FLUX -> remote.flux().subscribe()::dispose;
				case COMPLETION_STAGE -> {
					CompletableFuture<String> result = remote.stage();
					yield () -> result.cancel(true);
				}
			};
		}

	}

	/**
	 * Fails its first call (or, after {@link #holdFirst()}, ends it when the test says
	 * with {@link #failFirst}), answers "ok" after; falls back to a cached answer.
	 */
	static class Remote {

		private final AtomicLong calls = new AtomicLong();

		/** Whether a subscriber cancelled the publisher of a Mono or Flux call. */
		private final AtomicBoolean unsubscribed = new AtomicBoolean();

		private volatile CompletableFuture<String> first = CompletableFuture.failedFuture(new IOException("blip"));

		private volatile CompletableFuture<String> second = CompletableFuture.completedFuture("ok");

		long calls() {
			return this.calls.get();
		}

		/** The first call's answer waits for {@link #failFirst}. */
		public void holdFirst() {
			this.first = new CompletableFuture<>();
		}

		/**
		 * Whether the first call's answer was cancelled (its stage cancelled, or its Mono
		 * or Flux unsubscribed).
		 */
		public boolean firstCancelled() {
			return this.first.isCancelled() || this.unsubscribed.get();
		}

		public void failFirst(Throwable error) {
			this.first.completeExceptionally(error);
		}

		/** The second call's answer never comes (its caller gives up first). */
		public void holdSecond() {
			this.second = new CompletableFuture<>();
		}

		private CompletableFuture<String> next() {
			long call = this.calls.incrementAndGet();
			return (call == 1) ? this.first : (call == 2) ? this.second : CompletableFuture.completedFuture("ok");
		}

		@CircuitGuarded(name = "remote", fallbackMethod = "cachedPlain")
		public String plain() throws Exception {
			try {
				return next().get();
			}
			catch (ExecutionException ex) {
				throw (Exception) ex.getCause();
			}
		}

		@CircuitGuarded(name = "remote", fallbackMethod = "cached")
		public Mono<String> mono() {
			return Mono.fromFuture(next()).doOnCancel(() -> this.unsubscribed.set(true));
		}

		@CircuitGuarded(name = "remote", fallbackMethod = "cachedFlux")
		public Flux<String> flux() {
			return Mono.fromFuture(next()).flux().doOnCancel(() -> this.unsubscribed.set(true));
		}

		@CircuitGuarded(name = "remote", fallbackMethod = "cachedStage")
		public CompletableFuture<String> stage() {
			return next();
		}

		String cachedPlain(Throwable cause) {
			return "cached after " + cause.getMessage();
		}

		Mono<String> cached(Throwable cause) {
			return Mono.just("cached after " + cause.getMessage());
		}

		Flux<String> cachedFlux(Throwable cause) {
			return Flux.just("cached after " + cause.getMessage());
		}

		CompletableFuture<String> cachedStage(Throwable cause) {
			return CompletableFuture.completedFuture("cached after " + cause.getMessage());
		}

	}

}
