package dev.breaker.cloud;

import java.time.Duration;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;

import dev.breaker.aspect.CallPolicy;
import dev.breaker.core.Breaker;
import dev.breaker.core.Numbers;
import dev.breaker.core.Permit;
import dev.breaker.core.Rejections;
import dev.breaker.core.ReleaseOnce;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.cloud.client.circuitbreaker.ReactiveCircuitBreaker;

/**
 * A reactive Spring Cloud circuit breaker that is one of breaker's breakers: each
 * subscription is one call, recorded when it completes, fails or is cancelled (as
 * IGNORED, so a cancelled probe never holds a half-open permit), and goes to the fallback
 * with the cause when it fails or is rejected. A {@code Mono}'s value is judged by the
 * breaker's classifier, as the blocking circuit breaker judges a returned value (one it
 * counts as a failure is recorded so, and still delivered); a {@code Flux} that completes
 * is a success, as a {@code @CircuitGuarded} method's is. With
 * {@code breaker.instances.<id>.timeout}, a call still running then fails with a
 * {@link TimeoutException}, recorded as TIMEOUT.
 */
public final class ReactiveBreakerCircuitBreaker implements ReactiveCircuitBreaker {

	private final Breaker breaker;

	private final @Nullable Duration timeout;

	ReactiveBreakerCircuitBreaker(Breaker breaker, @Nullable Duration timeout) {
		this.breaker = breaker;
		// Reactor's timers count in nanoseconds: longer would throw on every call
		this.timeout = (timeout != null) ? Duration.ofNanos(Numbers.saturatedNanos(timeout)) : null;
	}

	/**
	 * The breaker behind this circuit breaker.
	 * @return the registry's breaker
	 */
	public Breaker breaker() {
		return this.breaker;
	}

	@Override
	public <T> Mono<T> run(Mono<T> toRun, Function<Throwable, Mono<T>> fallback) {
		return Mono.defer(() -> {
			Permit permit = this.breaker.acquire();
			if (!permit.granted()) {
				return fallback.apply(Rejections.of(permit));
			}
			ReleaseOnce release = ReleaseOnce.started(this.breaker, permit);
			Mono<T> recorded;
			try {
				// the value judged as the blocking circuit breaker (Breaker.call) judges
				// it
				recorded = withTimeout(toRun)
					.doOnSuccess((value) -> release.release(this.breaker.classify(value, null)))
					.doOnError(release::failed)
					.doOnCancel(release::cancelled);
			}
			catch (RuntimeException unbuilt) {
				return unbuilt(release, unbuilt, fallback);
			}
			return recorded.onErrorResume(fallback);
		});
	}

	@Override
	public <T> Flux<T> run(Flux<T> toRun, Function<Throwable, Flux<T>> fallback) {
		return Flux.defer(() -> {
			Permit permit = this.breaker.acquire();
			if (!permit.granted()) {
				return fallback.apply(Rejections.of(permit));
			}
			ReleaseOnce release = ReleaseOnce.started(this.breaker, permit);
			Flux<T> recorded;
			try {
				recorded = withTimeout(toRun).doOnComplete(release::succeeded)
					.doOnError(release::failed)
					.doOnCancel(release::cancelled);
			}
			catch (RuntimeException unbuilt) {
				return unbuilt(release, unbuilt, fallback);
			}
			return recorded.onErrorResume(fallback);
		});
	}

	/**
	 * A call whose pipeline could not be built (a null publisher): nothing reached the
	 * dependency, so it is released as IGNORED (a half-open probe slot is not kept) and
	 * goes to the fallback with the cause.
	 */
	private static <P> P unbuilt(ReleaseOnce release, RuntimeException cause, Function<Throwable, P> fallback) {
		release.cancelled();
		return fallback.apply(cause);
	}

	private <T> Mono<T> withTimeout(Mono<T> source) {
		Duration timeout = this.timeout;
		return (timeout != null) ? source.timeout(timeout, Mono.error(() -> timedOut(timeout))) : source;
	}

	/** The whole sequence must complete in time, not each element. */
	private <T> Flux<T> withTimeout(Flux<T> source) {
		Duration timeout = this.timeout;
		return (timeout != null) ? source.takeUntilOther(Mono.delay(timeout).then(Mono.error(() -> timedOut(timeout))))
				: source;
	}

	private TimeoutException timedOut(Duration timeout) {
		return CallPolicy.timedOut(this.breaker.name(), timeout);
	}

	@Override
	public String toString() {
		return "ReactiveBreakerCircuitBreaker[" + this.breaker.name() + "]";
	}

}
