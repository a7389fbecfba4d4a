package dev.breaker.aspect;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Future;
import java.util.concurrent.TimeoutException;

import dev.breaker.core.Breaker;
import org.aopalliance.intercept.MethodInvocation;
import org.jspecify.annotations.Nullable;

/**
 * One guarded call of a method returning a {@link CompletionStage}: the outcome is
 * recorded when the stage completes, a timeout completes it with a
 * {@link TimeoutException}, retries are scheduled rather than slept ({@link Attempts}
 * decides each attempt's permit, record and retry, as for plain and Reactor calls). A
 * caller who cancels the returned future ends the call: the attempt's stage or the pause
 * is cancelled and no further attempt is made.
 */
final class StageCall {

	private final GuardedMethod method;

	private final MethodInvocation invocation;

	private final Attempts attempts;

	private final Duration timeout;

	private final CompletableFuture<Object> result = new CompletableFuture<>();

	/**
	 * The stage of the attempt in progress, cancelled when the caller gives up.
	 */
	private volatile @Nullable CompletionStage<?> current;

	/**
	 * The pause before the next attempt, cancelled when the caller gives up.
	 */
	private volatile @Nullable Future<?> pause;

	/**
	 * The call is delivering its result (a value, a fallback, an error): from here on the
	 * result is completed by the call, before it by the caller giving up.
	 */
	private volatile boolean delivering;

	StageCall(GuardedMethod method, MethodInvocation invocation, Breaker breaker) {
		this.method = method;
		this.invocation = invocation;
		this.attempts = new Attempts(method, breaker);
		this.timeout = method.policy().timeout();
	}

	CompletableFuture<Object> start() {
		this.result.whenComplete((value, error) -> {
			if (!this.delivering) {
				// cancelled, or completed by the caller (its own orTimeout): it gave up
				cancelled();
			}
		});
		attempt();
		return this.result;
	}

	/**
	 * The caller gave up: the attempt in progress (or the pause) is cancelled, the permit
	 * held is recorded as IGNORED, and no further attempt is made.
	 */
	private void cancelled() {
		Future<?> pause = this.pause;
		if (pause != null) {
			pause.cancel(false);
		}
		CompletionStage<?> stage = this.current;
		if (stage != null) {
			cancel(stage);
		}
		this.attempts.cancelled();
	}

	private void attempt() {
		if (callerGaveUp()) {
			this.attempts.cancelled();
			return;
		}
		if (!this.attempts.begin()) {
			if (!this.attempts.isCancelled()) {
				this.delivering = true;
				fallback(this.attempts.rejection());
			}
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
		if (callerGaveUp()) {
			cancel(stage);
		}
		CompletableFuture<Object> attempt = new CompletableFuture<>();
		Future<?> timer;
		try {
			timer = timer(attempt);
		}
		catch (VirtualMachineError fatal) {
			// on the caller's thread (the first attempt) or the scheduler's (a retry):
			// the call ends, then the error goes on to that thread
			cancel(stage);
			fatal(fatal);
			throw fatal;
		}
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
			if (error instanceof TimeoutException || error instanceof DroppedTimeout) {
				cancel(source);
			}
			finished(value, (error != null) ? Fallbacks.unwrap(error) : null);
		});
	}

	/**
	 * The attempt's timeout, or {@code null} without one. A scheduler that cannot take it
	 * while its context is live (saturated, or failing: warned) leaves the attempt
	 * without one rather than the call without an end; one that refuses it as the context
	 * closes, or takes it and drops it then, ends the attempt at once with
	 * {@link DroppedTimeout}, as a caller giving up would: nothing else would end it.
	 */
	private @Nullable Future<?> timer(CompletableFuture<Object> attempt) {
		Duration timeout = this.timeout;
		if (timeout == null) {
			return null;
		}
		String name = this.method.name();
		return this.attempts.schedule(this.method, GrantedRetry.Delay.TIMEOUT, timeout,
				() -> attempt.completeExceptionally(CallPolicy.timedOut(name, timeout)),
				() -> attempt.completeExceptionally(new DroppedTimeout(name, timeout)));
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
		if (callerGaveUp()) {
			// the caller gave up, the dependency did not fail: it counts neither way. The
			// value came from a stage the caller's cancel could not stop, which may be
			// shared (a cache's future): it is left to the stage's other holders
			this.attempts.cancelled();
			return;
		}
		Duration pause = this.attempts.after(value, error, true);
		if (pause != null) {
			Object retried = this.attempts.handOff();
			Future<?> scheduled;
			try {
				scheduled = this.attempts.schedule(this.method, GrantedRetry.Delay.PAUSE, pause, this::attempt,
						() -> dropped(retried != null, value, error));
			}
			catch (VirtualMachineError fatal) {
				// in a completion callback of the attempt's stage, where a throw reaches
				// nobody: the call's result carries it
				this.attempts.discard(retried);
				fatal(fatal);
				return;
			}
			if (scheduled == null) {
				// refused (a scheduler closed with its context) or failed (warned): the
				// call ends with this attempt, as a plain call whose pause was
				// interrupted (unless the caller gave up meanwhile: then nothing is
				// delivered, and the value is freed)
				if (this.attempts.stop()) {
					deliver(value, error);
				}
				else {
					this.attempts.discard(retried);
				}
				return;
			}
			this.pause = scheduled;
			this.attempts.discard(retried);
			if (callerGaveUp()) {
				cancelled();
			}
			return;
		}
		if (!this.attempts.gaveUp(value)) {
			deliver(value, error);
		}
	}

	/**
	 * The scheduler took the pause but dropped it (closed with its context before it
	 * ended): the call ends with this attempt, as when the pause is refused up front,
	 * unless the caller gave up meanwhile. A per-call response retried was freed when the
	 * pause was taken, so it cannot be delivered: the call ends with {@link DroppedPause}
	 * instead (its fallbacks, when the attempt's outcome falls back).
	 */
	private void dropped(boolean freed, Object value, Throwable error) {
		if (this.attempts.stop()) {
			if (freed) {
				deliver(null, new DroppedPause(this.method.name()));
			}
			else {
				deliver(value, error);
			}
		}
	}

	/**
	 * The scheduler threw {@code error} as a delay of this call was scheduled: the call
	 * ends with it at once ({@link Attempts#fatal}), rather than waiting for ever for a
	 * delay that never comes.
	 */
	private void fatal(VirtualMachineError error) {
		this.attempts.fatal(error);
		this.delivering = true;
		this.result.completeExceptionally(error);
	}

	/**
	 * Whether the caller no longer waits: it cancelled the result or completed it itself
	 * (a {@code CompletableFuture.orTimeout} on the future it was handed).
	 */
	private boolean callerGaveUp() {
		return this.result.isDone() && !this.delivering;
	}

	/** The last attempt's value, its counted failure's fallbacks, or its exception. */
	private void deliver(Object value, Throwable error) {
		this.delivering = true;
		if (error == null) {
			if (!this.result.complete(value)) {
				// the caller gave up just now: the value reaches nobody
				this.attempts.discard(value);
			}
		}
		else if (this.attempts.fallsBack()) {
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
