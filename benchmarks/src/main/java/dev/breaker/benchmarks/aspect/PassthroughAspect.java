package dev.breaker.benchmarks.aspect;

import org.aspectj.lang.ProceedingJoinPoint;
import org.aspectj.lang.annotation.Around;
import org.aspectj.lang.annotation.Aspect;

/**
 * An {@code @Around} aspect that only proceeds: the price of a proxy and a join point,
 * and nothing else.
 */
@Aspect
public class PassthroughAspect {

	@Around("@annotation(dev.breaker.benchmarks.aspect.Passthrough)")
	public Object proceed(ProceedingJoinPoint call) throws Throwable {
		return call.proceed();
	}

}
