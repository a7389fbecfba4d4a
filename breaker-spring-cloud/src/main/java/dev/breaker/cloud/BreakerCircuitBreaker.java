package dev.breaker.cloud;

import java.util.function.Function;
import java.util.function.Supplier;

import dev.breaker.core.Breaker;
import org.jspecify.annotations.Nullable;

import org.springframework.cloud.client.circuitbreaker.CircuitBreaker;

/**
 * A Spring Cloud circuit breaker that is one of breaker's breakers: each run asks it, is
 * recorded in it, and goes to the fallback with the cause when it fails or is rejected.
 */
public final class BreakerCircuitBreaker implements CircuitBreaker {

	private final Breaker breaker;

	BreakerCircuitBreaker(Breaker breaker) {
		this.breaker = breaker;
	}

	/**
	 * The breaker behind this circuit breaker.
	 * @return the registry's breaker
	 */
	public Breaker breaker() {
		return this.breaker;
	}

	/**
	 * Runs {@code toRun} through the breaker. Every failure goes to the fallback, as
	 * Spring Cloud's contract says, though the breaker counts only what its classifier
	 * counts: an ignored exception (a 4xx, a validation error) reaches the fallback
	 * without tripping the breaker. A rejected call reaches the fallback with the
	 * {@link dev.breaker.core.BreakerOpenException} of the breaker that rejected it.
	 */
	@Override
	public <T> T run(Supplier<T> toRun, Function<@Nullable Throwable, T> fallback) {
		T result;
		try {
			result = this.breaker.call(toRun::get);
		}
		catch (Exception ex) {
			return fallback.apply(ex);
		}
		catch (VirtualMachineError | LinkageError fatal) {
			throw fatal;
		}
		catch (Error error) {
			return fallback.apply(error);
		}
		return result;
	}

	@Override
	public String toString() {
		return "BreakerCircuitBreaker[" + this.breaker.name() + "]";
	}

}
