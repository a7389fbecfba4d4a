package dev.breaker.aspect;

import java.time.Duration;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import dev.breaker.core.Outcome;
import org.aopalliance.intercept.MethodInvocation;
import org.jspecify.annotations.Nullable;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Guarded calls of methods returning {@link Mono} or {@link Flux}: nothing happens until
 * subscription; the outcome is recorded when the publisher terminates (a cancellation is
 * recorded as IGNORED, so a probe permit is never held forever). {@link Attempts} decides
 * each attempt's permit, record and retry, as for plain and CompletionStage calls. Loaded
 * only when Reactor is present.
 */
final class ReactorCalls {

	private ReactorCalls() {
	}

	static Mono<Object> mono(GuardedMethod method, MethodInvocation invocation) {
		return Mono.defer(() -> {
			Attempts attempts = new Attempts(method, method.breakerFor(invocation));
			return monoAttempt(method, invocation, attempts).doOnCancel(attempts::cancelled);
		});
	}

	/**
	 * One attempt of a Mono call and, while {@link Attempts} grants a retry, a pause and
	 * the next one. Its value (or empty completion) is what a plain method returns: it is
	 * classified, and may be retried, before it is delivered.
	 */
	private static Mono<Object> monoAttempt(GuardedMethod method, MethodInvocation invocation, Attempts attempts) {
		return Mono.defer(() -> {
			if (!attempts.begin()) {
				return attempts.isCancelled() ? Mono.empty()
						: Mono.fromDirect(fallback(method, invocation, attempts.rejection()));
			}
			return withTimeout(method, attempts, source(invocation)).singleOrEmpty().materialize().flatMap((signal) -> {
				Object value = signal.get();
				Throwable error = signal.getThrowable();
				Duration pause = attempts.after(value, error, true);
				if (pause == null) {
					// nothing for a subscriber that cancelled as the attempt was recorded
					return attempts.gaveUp(value) ? Mono.empty()
							: monoResult(method, invocation, attempts, value, error);
				}
				Object retried = attempts.handOff();
				return pause(method, attempts, GrantedRetry.Delay.PAUSE, pause, () -> attempts.discard(retried))
					.flatMap((paused) -> {
						if (paused == Paused.REFUSED) {
							// a scheduler closed with its context refused the pause (or
							// one failed, warned): the call ends with this attempt, as an
							// interrupted plain call (nothing, freed once, for a
							// subscriber that cancelled)
							if (!attempts.stop()) {
								attempts.discard(retried);
								return Mono.empty();
							}
							return attempts.gaveUp(value) ? Mono.empty()
									: monoResult(method, invocation, attempts, value, error);
						}
						if (paused == Paused.DROPPED) {
							// taken, then dropped by a scheduler closed with its context:
							// the call ends with this attempt too, but a per-call
							// response retried was freed as the pause was taken
							if (!attempts.stop()) {
								return Mono.empty();
							}
							return (retried != null)
									? monoResult(method, invocation, attempts, null, new DroppedPause(method.name()))
									: monoResult(method, invocation, attempts, value, error);
						}
						return monoAttempt(method, invocation, attempts);
					});
			});
		});
	}

	/** The last attempt's value, its counted failure's fallbacks, or its error. */
	private static Mono<Object> monoResult(GuardedMethod method, MethodInvocation invocation, Attempts attempts,
			@Nullable Object value, @Nullable Throwable error) {
		if (error == null) {
			return Mono.justOrEmpty(value);
		}
		return attempts.fallsBack() ? Mono.fromDirect(fallback(method, invocation, error)) : Mono.error(error);
	}

	static Flux<Object> flux(GuardedMethod method, MethodInvocation invocation) {
		return Flux.defer(() -> {
			Attempts attempts = new Attempts(method, method.breakerFor(invocation));
			return fluxAttempt(method, invocation, attempts).doOnCancel(attempts::cancelled);
		});
	}

	/**
	 * One attempt of a Flux call and, after an error before any element (while
	 * {@link Attempts} grants a retry), a pause and the next one; the last attempt's
	 * counted failure goes to the fallbacks. Its elements are delivered as they come, so
	 * a Flux that completes is a success, and one that emitted is never retried.
	 */
	private static Flux<Object> fluxAttempt(GuardedMethod method, MethodInvocation invocation, Attempts attempts) {
		return Flux.defer(() -> {
			if (!attempts.begin()) {
				return attempts.isCancelled() ? Flux.empty() : fallback(method, invocation, attempts.rejection());
			}
			AtomicBoolean emitted = new AtomicBoolean();
			return withTimeout(method, attempts, source(invocation)).doOnNext((value) -> emitted.set(true))
				.doOnComplete(() -> attempts.after(Outcome.SUCCESS, false))
				.onErrorResume((error) -> {
					Duration pause = attempts.after(null, error, !emitted.get());
					if (attempts.gaveUp(null)) {
						return Flux.empty();
					}
					if (pause == null) {
						return attempts.fallsBack() ? fallback(method, invocation, error) : Flux.error(error);
					}
					// a Flux's failed attempt has no value to free
					return pause(method, attempts, GrantedRetry.Delay.PAUSE, pause, NOTHING).flatMapMany((paused) -> {
						if (paused != Paused.ENDED) {
							// the scheduler refused the pause (or failed, warned), or
							// dropped it (closed with its context): this attempt ends it
							if (!attempts.stop()) {
								return Flux.empty();
							}
							return attempts.fallsBack() ? fallback(method, invocation, error) : Flux.error(error);
						}
						return fluxAttempt(method, invocation, attempts);
					});
				});
		});
	}

	@SuppressWarnings("unchecked")
	private static Flux<Object> source(MethodInvocation invocation) {
		Object publisher;
		try {
			publisher = GuardedMethod.attempt(invocation);
		}
		catch (Throwable ex) {
			return Flux.error(ex);
		}
		return (publisher != null) ? Flux.from((Publisher<Object>) publisher) : Flux.empty();
	}

	/**
	 * The attempt's publisher, failed with a
	 * {@link java.util.concurrent.TimeoutException} when it has not terminated in time. A
	 * scheduler that cannot take the timeout while its context is live (saturated, or
	 * failing: warned) leaves the attempt without one, as for a CompletionStage, rather
	 * than failing it; one that refuses it as the context closes, or takes it and then
	 * drops it (closed with its context while the attempt is pending) ends the attempt at
	 * once with {@link DroppedTimeout}: nothing else would end an attempt that hangs.
	 *
	 * <p>
	 * However the attempt ends early, its publisher is unsubscribed: the expiry ends it
	 * by emitting (which cancels the source), then the error follows. An expiry that
	 * failed would not cancel it ({@code takeUntilOther} passes an error of its other
	 * publisher on and leaves the source subscribed, a Flux streaming for ever). The
	 * source's end and the expiry race for {@code ended}: whichever comes first is how
	 * the attempt ends, so a source that ends just as its timeout fires keeps its own
	 * end.
	 */
	private static Flux<Object> withTimeout(GuardedMethod method, Attempts attempts, Flux<Object> source) {
		Duration timeout = method.policy().timeout();
		if (timeout == null) {
			return source;
		}
		AtomicReference<@Nullable Object> ended = new AtomicReference<>();
		Mono<Throwable> expiry = pause(method, attempts, GrantedRetry.Delay.TIMEOUT, timeout, NOTHING)
			.<Throwable>flatMap((paused) -> switch (paused) {
				case ENDED -> Mono.just(CallPolicy.timedOut(method.name(), timeout));
				case DROPPED -> Mono.just(new DroppedTimeout(method.name(), timeout));
				case REFUSED -> Mono.never();
			})
			.onErrorResume(Mono::just)
			.filter((expired) -> ended.compareAndSet(null, expired))
			.switchIfEmpty(Mono.never());
		return source.doOnTerminate(() -> ended.compareAndSet(null, SOURCE_ENDED))
			.takeUntilOther(expiry)
			.concatWith(
					Flux.defer(() -> (ended.get() instanceof Throwable expired) ? Flux.error(expired) : Flux.empty()));
	}

	/** What {@link #withTimeout} keeps when the source ended before its timeout. */
	private static final Object SOURCE_ENDED = new Object();

	private static final Runnable NOTHING = () -> {
	};

	/** How a delay on the interceptor's scheduler ended ({@link #pause}). */
	private enum Paused {

		/** It passed. */
		ENDED,

		/** The scheduler took it, then dropped it (closed with its context). */
		DROPPED,

		/** The scheduler could not take it (closed, or failing: warned). */
		REFUSED

	}

	/**
	 * A delay (the pause before a retry, a timeout) on the interceptor's scheduler, so
	 * tests control it: emits how it ended; {@code scheduled} runs once the scheduler
	 * took it, on the subscribing thread.
	 */
	private static Mono<Paused> pause(GuardedMethod method, Attempts attempts, GrantedRetry.Delay what, Duration delay,
			Runnable scheduled) {
		return Mono.create((sink) -> {
			Future<?> task;
			try {
				task = attempts.schedule(method, what, delay, () -> sink.success(Paused.ENDED),
						() -> sink.success(Paused.DROPPED));
			}
			catch (VirtualMachineError fatal) {
				// the call ends with it at once: its subscriber gets it (thrown from
				// here, it would reach only Reactor's onErrorDropped)
				attempts.fatal(fatal);
				sink.error(fatal);
				return;
			}
			if (task == null) {
				sink.success(Paused.REFUSED);
				return;
			}
			sink.onCancel(() -> task.cancel(false));
			scheduled.run();
		});
	}

	/** The fallback tiers as a publisher: the first that completes wins. */
	private static Flux<Object> fallback(GuardedMethod method, MethodInvocation invocation, Throwable cause) {
		try {
			return method.fallback(invocation, cause, PUBLISHER);
		}
		catch (Throwable unexpected) {
			// the publisher results never throw
			return Flux.error(unexpected);
		}
	}

	/**
	 * The tiers' results for a Mono or Flux call: a tier succeeds when its value (or
	 * publisher) completes; an error moves on to the next tier.
	 */
	private static final Fallbacks.Results<Flux<Object>> PUBLISHER = new Fallbacks.Results<>() {

		@Override
		@SuppressWarnings("unchecked")
		public Flux<Object> returned(Object value, Fallbacks.Outcome<Flux<Object>> tier) {
			Flux<Object> result = (value instanceof Publisher<?> publisher) ? Flux.from((Publisher<Object>) publisher)
					: Mono.justOrEmpty(value).flux();
			return result.doOnComplete(tier::succeeded).onErrorResume((error) -> {
				try {
					return tier.failed(error);
				}
				catch (Throwable unexpected) {
					return Flux.error(unexpected);
				}
			});
		}

		@Override
		public Flux<Object> exhausted(Throwable last) {
			return Flux.error(last);
		}

	};

}
