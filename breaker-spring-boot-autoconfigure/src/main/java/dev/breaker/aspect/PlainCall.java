package dev.breaker.aspect;

import java.time.Duration;

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
 * Without retries the call is one attempt: it proceeds with the invocation itself, with
 * its permit and start time in locals, so the closed path allocates nothing beyond what
 * Spring AOP allocates for any interceptor. With retries, {@link Attempts} decides (the
 * loop every return type shares) and each attempt runs through a copy of the invocation.
 */
final class PlainCall {

	private PlainCall() {
	}

	static Object invoke(GuardedMethod method, MethodInvocation invocation, Breaker breaker) throws Throwable {
		RetryPolicy retry = method.policy().retry();
		if (retry.maxRetries() > 0) {
			return retried(method, invocation, new Attempts(method, breaker));
		}
		Permit permit = breaker.acquire();
		if (!permit.granted()) {
			return method.fallback(invocation, Rejections.of(permit));
		}
		long start = breaker.nanos();
		Object result;
		Throwable error;
		try {
			result = invocation.proceed();
			error = null;
		}
		catch (Throwable ex) {
			result = null;
			error = ex;
		}
		Outcome outcome = breaker.classify(result, error);
		breaker.release(permit, outcome, breaker.nanos() - start);
		return finish(method, invocation, result, error, GuardedMethod.counted(outcome));
	}

	private static Object retried(GuardedMethod method, MethodInvocation invocation, Attempts attempts)
			throws Throwable {
		while (true) {
			if (!attempts.begin()) {
				return method.fallback(invocation, attempts.rejection());
			}
			Object result;
			Throwable error;
			try {
				result = GuardedMethod.attempt(invocation);
				error = null;
			}
			catch (Throwable ex) {
				result = null;
				error = ex;
			}
			Duration pause = attempts.after(result, error, true);
			if (pause == null) {
				return finish(method, invocation, result, error, attempts.fallsBack());
			}
			if (!sleep(method, attempts, pause)) {
				attempts.stop();
				return finish(method, invocation, result, error, attempts.fallsBack());
			}
		}
	}

	/**
	 * Blocks for the pause before the next attempt.
	 * @return {@code false} when the thread was interrupted (the interrupt is kept) or
	 * the scheduler's sleep threw (refused the pause, closed with its context, or failed:
	 * warned, rate limited): no more attempts
	 */
	private static boolean sleep(GuardedMethod method, Attempts attempts, Duration pause) {
		try {
			method.delays().sleep(pause);
			return true;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return false;
		}
		catch (VirtualMachineError ex) {
			throw ex;
		}
		catch (Throwable failed) {
			attempts.sleepFailed(method, failed);
			return false;
		}
	}

	/** The last attempt's value, its counted failure's fallbacks, or its exception. */
	private static Object finish(GuardedMethod method, MethodInvocation invocation, Object result, Throwable error,
			boolean fallsBack) throws Throwable {
		if (error == null) {
			return result;
		}
		if (fallsBack) {
			return method.fallback(invocation, error);
		}
		throw error;
	}

}
