package dev.breaker.aspect;

import java.time.Duration;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;

import dev.breaker.core.Breaker;
import dev.breaker.core.Outcome;
import dev.breaker.core.Permit;
import org.aopalliance.intercept.MethodInvocation;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Guarded calls of methods returning {@link Mono} or {@link Flux}: nothing happens until
 * subscription; the outcome is recorded when the publisher terminates (a cancellation is recorded
 * as IGNORED, so a probe permit is never held forever). Loaded only when Reactor is present.
 */
final class ReactorCalls {

	private ReactorCalls() {
	}

	static Mono<Object> mono(GuardedMethod method, MethodInvocation invocation) {
		return Mono.defer(() -> {
			Breaker breaker = method.breakerFor(invocation);
			RetryPolicy retry = method.policy().retry();
			if (retry.recordEachAttempt()) {
				return Mono.fromDirect(recordedAttempts(method, invocation, breaker, 0));
			}
			Permit permit = breaker.acquire();
			if (!permit.granted()) {
				return Mono.fromDirect(fallback(method, invocation, GuardedMethod.rejection(breaker)));
			}
			return Mono.fromDirect(recorded(method, invocation, breaker, permit, attempts(method, invocation, breaker, 0)));
		});
	}

	static Flux<Object> flux(GuardedMethod method, MethodInvocation invocation) {
		return Flux.defer(() -> {
			Breaker breaker = method.breakerFor(invocation);
			RetryPolicy retry = method.policy().retry();
			if (retry.recordEachAttempt()) {
				return recordedAttempts(method, invocation, breaker, 0);
			}
			Permit permit = breaker.acquire();
			if (!permit.granted()) {
				return fallback(method, invocation, GuardedMethod.rejection(breaker));
			}
			return recorded(method, invocation, breaker, permit, attempts(method, invocation, breaker, 0));
		});
	}

	/** Breaker inside the retry: every attempt asks the breaker and is recorded. */
	private static Flux<Object> recordedAttempts(GuardedMethod method, MethodInvocation invocation, Breaker breaker,
			int retries) {
		return Flux.defer(() -> {
			Permit permit = breaker.acquire();
			if (!permit.granted()) {
				return fallback(method, invocation, GuardedMethod.rejection(breaker));
			}
			AtomicBoolean emitted = new AtomicBoolean();
			Flux<Object> attempt = withTimeout(method, source(invocation)).doOnNext((value) -> emitted.set(true));
			return record(breaker, permit, attempt).onErrorResume((error) -> {
				Outcome outcome = breaker.config().classifier().classify(null, error);
				RetryPolicy retry = method.policy().retry();
				if (!emitted.get() && GuardedMethod.retryAgain(breaker, retry, retries, outcome)) {
					return delay(method.delays(), retry.pause(retries, ThreadLocalRandom.current().nextDouble()))
						.thenMany(recordedAttempts(method, invocation, breaker, retries + 1));
				}
				return GuardedMethod.counted(outcome) ? fallback(method, invocation, error) : Flux.error(error);
			});
		});
	}

	/** Breaker outside the retry: the attempts, retried on the retry outcomes, not recorded. */
	private static Flux<Object> attempts(GuardedMethod method, MethodInvocation invocation, Breaker breaker, int retries) {
		return Flux.defer(() -> {
			AtomicBoolean emitted = new AtomicBoolean();
			return withTimeout(method, source(invocation)).doOnNext((value) -> emitted.set(true))
				.onErrorResume((error) -> {
					RetryPolicy retry = method.policy().retry();
					Outcome outcome = breaker.config().classifier().classify(null, error);
					if (emitted.get() || !GuardedMethod.retryAgain(breaker, retry, retries, outcome)) {
						return Flux.error(error);
					}
					return delay(method.delays(), retry.pause(retries, ThreadLocalRandom.current().nextDouble()))
						.thenMany(attempts(method, invocation, breaker, retries + 1));
				});
		});
	}

	/** The whole sequence recorded once, then the fallbacks for a counted failure. */
	private static Flux<Object> recorded(GuardedMethod method, MethodInvocation invocation, Breaker breaker,
			Permit permit, Flux<Object> attempts) {
		return record(breaker, permit, attempts).onErrorResume((error) -> {
			Outcome outcome = breaker.config().classifier().classify(null, error);
			return GuardedMethod.counted(outcome) ? fallback(method, invocation, error) : Flux.error(error);
		});
	}

	private static Flux<Object> record(Breaker breaker, Permit permit, Flux<Object> source) {
		long start = breaker.nanos();
		AtomicBoolean released = new AtomicBoolean();
		return source.doOnComplete(() -> release(breaker, permit, start, released, Outcome.SUCCESS))
			.doOnError((error) -> release(breaker, permit, start, released,
					breaker.config().classifier().classify(null, error)))
			.doOnCancel(() -> release(breaker, permit, start, released, Outcome.IGNORED));
	}

	private static void release(Breaker breaker, Permit permit, long start, AtomicBoolean released,
			Outcome outcome) {
		if (released.compareAndSet(false, true)) {
			breaker.release(permit, outcome, breaker.nanos() - start);
		}
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

	private static Flux<Object> withTimeout(GuardedMethod method, Flux<Object> source) {
		Duration timeout = method.policy().timeout();
		if (timeout == null) {
			return source;
		}
		Mono<Object> expiry = delay(method.delays(), timeout).then(Mono.error(() -> new TimeoutException(
				"breaker '" + method.name() + "': did not complete within " + timeout)));
		return source.takeUntilOther(expiry);
	}

	/** A delay on the interceptor's scheduler, so tests control it. */
	private static Mono<Long> delay(DelayScheduler delays, Duration pause) {
		return Mono.create((sink) -> {
			Future<?> task = delays.schedule(pause, () -> sink.success(0L));
			sink.onCancel(() -> task.cancel(false));
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
	 * The tiers' results for a Mono or Flux call: a tier succeeds when its value (or publisher)
	 * completes; an error moves on to the next tier.
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
