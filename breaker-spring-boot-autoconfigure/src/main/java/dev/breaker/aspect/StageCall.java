package dev.breaker.aspect;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeoutException;

import dev.breaker.core.Breaker;
import dev.breaker.core.Outcome;
import dev.breaker.core.Permit;
import dev.breaker.core.Rejections;
import org.aopalliance.intercept.MethodInvocation;

/**
 * One guarded call of a method returning a {@link CompletionStage}: the outcome is
 * recorded when the stage completes, a timeout completes it with a
 * {@link TimeoutException}, retries are scheduled rather than slept.
 */
final class StageCall {

	private final GuardedMethod method;

	private final MethodInvocation invocation;

	private final Breaker breaker;

	private final RetryPolicy retry;

	private final Duration timeout;

	private final CompletableFuture<Object> result = new CompletableFuture<>();

	private Permit permit;

	private long start;

	private int retries;

	StageCall(GuardedMethod method, MethodInvocation invocation, Breaker breaker) {
		this.method = method;
		this.invocation = invocation;
		this.breaker = breaker;
		this.retry = method.policy().retry();
		this.timeout = method.policy().timeout();
	}

	/**
	 * The stage of the attempt in progress, cancelled when the caller cancels the result.
	 */
	private volatile CompletionStage<?> current;

	CompletableFuture<Object> start() {
		if (!this.retry.recordEachAttempt() && !acquire()) {
			return this.result;
		}
		this.result.whenComplete((value, error) -> {
			CompletionStage<?> stage = this.current;
			if (this.result.isCancelled() && stage != null) {
				cancel(stage);
			}
		});
		attempt();
		return this.result;
	}

	private boolean acquire() {
		this.permit = this.breaker.acquire();
		if (!this.permit.granted()) {
			fallback(Rejections.of(this.permit));
			return false;
		}
		this.start = this.breaker.nanos();
		return true;
	}

	private void attempt() {
		if (this.retry.recordEachAttempt() && !acquire()) {
			return;
		}
		CompletionStage<?> stage;
		try {
			stage = (CompletionStage<?>) GuardedMethod.attempt(this.invocation);
		}
		catch (Throwable ex) {
			stage = CompletableFuture.failedFuture(ex);
		}
		if (stage == null) {
			stage = CompletableFuture.completedFuture(null);
		}
		this.current = stage;
		if (this.result.isCancelled()) {
			cancel(stage);
		}
		CompletableFuture<Object> attempt = new CompletableFuture<>();
		Future<?> timer = (this.timeout != null)
				? this.method.delays()
					.schedule(this.timeout,
							() -> attempt.completeExceptionally(CallPolicy.timedOut(this.method.name(), this.timeout)))
				: null;
		CompletionStage<?> source = stage;
		stage.whenComplete((value, error) -> {
			if (error != null) {
				attempt.completeExceptionally(error);
			}
			else {
				attempt.complete(value);
			}
		});
		attempt.whenComplete((value, error) -> {
			if (timer != null) {
				timer.cancel(false);
			}
			if (error instanceof TimeoutException) {
				cancel(source);
			}
			finished(value, (error != null) ? Fallbacks.unwrap(error) : null);
		});
	}

	private static void cancel(CompletionStage<?> stage) {
		try {
			stage.toCompletableFuture().cancel(true);
		}
		catch (UnsupportedOperationException ex) {
			// a stage that cannot be cancelled runs to its end, no longer awaited
		}
	}

	private void finished(Object value, Throwable error) {
		if (this.result.isCancelled()) {
			// the caller gave up, the dependency did not fail: it counts neither way
			this.breaker.release(this.permit, Outcome.IGNORED, this.breaker.nanos() - this.start);
			return;
		}
		Outcome outcome = this.breaker.classify(value, error);
		// inside the retries, the attempt is recorded before the budget is asked for the
		// next one (as for plain and Reactor calls): it is one of the calls the budget is
		// a share of
		boolean eachAttempt = this.retry.recordEachAttempt();
		if (eachAttempt) {
			this.breaker.release(this.permit, outcome, this.breaker.nanos() - this.start);
		}
		boolean again = GuardedMethod.retryAgain(this.breaker, this.retry, this.retries, outcome);
		if (!eachAttempt && !again) {
			this.breaker.release(this.permit, outcome, this.breaker.nanos() - this.start);
		}
		if (again) {
			Duration pause = this.retry.pause(this.retries++, ThreadLocalRandom.current().nextDouble());
			this.method.delays().schedule(pause, this::attempt);
			return;
		}
		if (error == null) {
			this.result.complete(value);
		}
		else if (GuardedMethod.counted(outcome)) {
			fallback(error);
		}
		else {
			this.result.completeExceptionally(error);
		}
	}

	private void fallback(Throwable cause) {
		try {
			this.method.fallback(this.invocation, cause, this.results);
		}
		catch (Throwable unexpected) {
			// the stage results never throw; kept so that a bug here still ends the call
			this.result.completeExceptionally(unexpected);
		}
	}

	/**
	 * The tiers' results for a CompletionStage call: a tier succeeds when it returns a
	 * value, or a stage that completes normally; the call's future completes with the
	 * first success or the last failure.
	 */
	private final Fallbacks.Results<CompletableFuture<Object>> results = new Fallbacks.Results<>() {

		@Override
		public CompletableFuture<Object> returned(Object value, Fallbacks.Outcome<CompletableFuture<Object>> tier) {
			if (!(value instanceof CompletionStage<?> stage)) {
				tier.succeeded();
				StageCall.this.result.complete(value);
				return StageCall.this.result;
			}
			stage.whenComplete((v, ex) -> {
				if (ex == null) {
					tier.succeeded();
					StageCall.this.result.complete(v);
				}
				else {
					try {
						tier.failed(Fallbacks.unwrap(ex));
					}
					catch (Throwable unexpected) {
						StageCall.this.result.completeExceptionally(unexpected);
					}
				}
			});
			return StageCall.this.result;
		}

		@Override
		public CompletableFuture<Object> exhausted(Throwable last) {
			StageCall.this.result.completeExceptionally(Fallbacks.unwrap(last));
			return StageCall.this.result;
		}

	};

}
