package dev.breaker.aspect;

import java.util.concurrent.ThreadLocalRandom;

import dev.breaker.core.Breaker;
import dev.breaker.core.Outcome;
import dev.breaker.core.Permit;
import dev.breaker.core.Rejections;
import org.aopalliance.intercept.MethodInvocation;

/**
 * Guarded calls of methods that return a value (or void): the attempts run on the
 * caller's thread, the pauses between them block it, the outcome is recorded when an
 * attempt returns or throws.
 *
 * <p>
 * One loop for both places of the breaker: outside the retries (the default: one permit,
 * the whole sequence recorded once, its time including the pauses) and inside them
 * ({@link RetryPolicy#recordEachAttempt()}: each attempt asks for a permit and is
 * recorded). Without retries the loop runs once and proceeds with the invocation itself:
 * no copy, no per-call object, so the closed path allocates nothing beyond what Spring
 * AOP allocates for any interceptor.
 */
final class PlainCall {

	private PlainCall() {
	}

	static Object invoke(GuardedMethod method, MethodInvocation invocation, Breaker breaker) throws Throwable {
		Permit permit = breaker.acquire();
		if (!permit.granted()) {
			return method.fallback(invocation, Rejections.of(permit));
		}
		RetryPolicy retry = method.policy().retry();
		boolean eachAttempt = retry.recordEachAttempt();
		// one attempt proceeds with the invocation itself: no copy, nothing allocated
		boolean once = retry.maxRetries() == 0;
		long start = breaker.nanos();
		int retries = 0;
		while (true) {
			Object result;
			Throwable error;
			try {
				result = once ? invocation.proceed() : GuardedMethod.attempt(invocation);
				error = null;
			}
			catch (Throwable ex) {
				result = null;
				error = ex;
			}
			Outcome outcome = breaker.classify(result, error);
			if (eachAttempt) {
				breaker.release(permit, outcome, breaker.nanos() - start);
			}
			if (!GuardedMethod.retryAgain(breaker, retry, retries, outcome) || !pause(method, retry, retries++)) {
				if (!eachAttempt) {
					breaker.release(permit, outcome, breaker.nanos() - start);
				}
				return finish(method, invocation, result, error, outcome);
			}
			if (eachAttempt) {
				permit = breaker.acquire();
				if (!permit.granted()) {
					return method.fallback(invocation, Rejections.of(permit));
				}
				start = breaker.nanos();
			}
		}
	}

	/**
	 * Blocks for the pause before retry number {@code retries}.
	 * @return {@code false} when the thread was interrupted: no more attempts
	 */
	private static boolean pause(GuardedMethod method, RetryPolicy retry, int retries) {
		try {
			method.delays().sleep(retry.pause(retries, ThreadLocalRandom.current().nextDouble()));
			return true;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return false;
		}
	}

	/** The last attempt's value, its counted failure's fallbacks, or its exception. */
	private static Object finish(GuardedMethod method, MethodInvocation invocation, Object result, Throwable error,
			Outcome outcome) throws Throwable {
		if (error == null) {
			return result;
		}
		if (GuardedMethod.counted(outcome)) {
			return method.fallback(invocation, error);
		}
		throw error;
	}

}
