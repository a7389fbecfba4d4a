package dev.breaker.aspect;

import java.time.Duration;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;

import dev.breaker.core.Breaker;
import dev.breaker.core.Outcome;
import dev.breaker.core.Permit;
import dev.breaker.core.Rejections;
import dev.breaker.core.ReleaseOnce;
import org.aopalliance.intercept.MethodInvocation;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Guarded calls of methods returning {@link Mono} or {@link Flux}: nothing happens until
 * subscription; the outcome is recorded when the publisher terminates (a cancellation is
 * recorded as IGNORED, so a probe permit is never held forever). Loaded only when Reactor
 * is present.
 */
final class ReactorCalls {

	private ReactorCalls() {
	}

	static Mono<Object> mono(GuardedMethod method, MethodInvocation invocation) {
		return Mono.fromDirect(flux(method, invocation));
	}

	static Flux<Object> flux(GuardedMethod method, MethodInvocation invocation) {
		return Flux.defer(() -> {
			Breaker breaker = method.breakerFor(invocation);
			if (method.policy().retry().recordEachAttempt()) {
				return attempts(method, invocation, breaker, 0, true);
			}
			Permit permit = breaker.acquire();
			if (!permit.granted()) {
				return fallback(method, invocation, Rejections.of(permit));
			}
			return recorded(method, invocation, breaker, permit, attempts(method, invocation, breaker, 0, false));
		});
	}

	/**
	 * The retry loop of a publisher call: an attempt, and after an error before any value
	 * (while retries are left and allowed) the next one. With {@code eachAttempt} (the
	 * breaker inside the retry) every attempt asks the breaker, is recorded, and the last
	 * one's counted failure goes to the fallbacks; otherwise the attempts are recorded
	 * once around the whole sequence.
	 */
	private static Flux<Object> attempts(GuardedMethod method, MethodInvocation invocation, Breaker breaker,
			int retries, boolean eachAttempt) {
		return Flux.defer(() -> {
			Permit permit = null;
			if (eachAttempt) {
				permit = breaker.acquire();
				if (!permit.granted()) {
					return fallback(method, invocation, Rejections.of(permit));
				}
			}
			AtomicBoolean emitted = new AtomicBoolean();
			Flux<Object> attempt = withTimeout(method, source(invocation)).doOnNext((value) -> emitted.set(true));
			if (eachAttempt) {
				attempt = record(breaker, permit, attempt);
			}
			return attempt.onErrorResume((error) -> {
				Outcome outcome = breaker.classify(null, error);
				RetryPolicy retry = method.policy().retry();
				if (!emitted.get() && GuardedMethod.retryAgain(breaker, retry, retries, outcome)) {
					return delay(method.delays(), retry.pause(retries, ThreadLocalRandom.current().nextDouble()))
						.thenMany(attempts(method, invocation, breaker, retries + 1, eachAttempt));
				}
				if (!eachAttempt) {
					// the sequence's record and fallbacks are outside
					return Flux.error(error);
				}
				return GuardedMethod.counted(outcome) ? fallback(method, invocation, error) : Flux.error(error);
			});
		});
	}

	/** The whole sequence recorded once, then the fallbacks for a counted failure. */
	private static Flux<Object> recorded(GuardedMethod method, MethodInvocation invocation, Breaker breaker,
			Permit permit, Flux<Object> attempts) {
		return record(breaker, permit, attempts).onErrorResume((error) -> {
			Outcome outcome = breaker.classify(null, error);
			return GuardedMethod.counted(outcome) ? fallback(method, invocation, error) : Flux.error(error);
		});
	}

	private static Flux<Object> record(Breaker breaker, Permit permit, Flux<Object> source) {
		ReleaseOnce release = ReleaseOnce.started(breaker, permit);
		return source.doOnComplete(release::succeeded).doOnError(release::failed).doOnCancel(release::cancelled);
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
		Mono<Object> expiry = delay(method.delays(), timeout)
			.then(Mono.error(() -> CallPolicy.timedOut(method.name(), timeout)));
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
