package dev.breaker.aspect;

import dev.breaker.annotation.CircuitGuarded;
import org.aspectj.lang.ProceedingJoinPoint;
import org.aspectj.lang.annotation.Around;
import org.aspectj.lang.annotation.Aspect;

import org.springframework.aop.interceptor.ExposeInvocationInterceptor;

/**
 * Runs every {@link CircuitGuarded} method through its breaker, with its fallbacks, retries and
 * timeout.
 *
 * <p>The advice finds the called method through {@link ExposeInvocationInterceptor}, which Spring
 * puts at the head of every AspectJ advice chain, rather than through
 * {@link ProceedingJoinPoint#getSignature()}, which allocates a signature object per call.
 */
@Aspect
public class CircuitGuardedAspect {

	private final GuardedMethods methods;

	/**
	 * Create the aspect.
	 * @param methods the guarded methods, checked at start-up
	 */
	public CircuitGuardedAspect(GuardedMethods methods) {
		this.methods = methods;
	}

	/**
	 * Guards one call.
	 * @param pjp the call
	 * @return what the method or its fallback returned
	 * @throws Throwable what the method or its last fallback threw, or the breaker's rejection
	 */
	@Around("@annotation(dev.breaker.annotation.CircuitGuarded) "
			+ "|| (@within(dev.breaker.annotation.CircuitGuarded) && execution(public * *(..)))")
	public Object guard(ProceedingJoinPoint pjp) throws Throwable {
		GuardedMethod guarded = this.methods.find(ExposeInvocationInterceptor.currentInvocation().getMethod(),
				pjp.getTarget());
		if (guarded == null) {
			return pjp.proceed();
		}
		return guarded.invoke(pjp);
	}

}
