package dev.breaker.aspect;

import java.lang.reflect.Method;

import dev.breaker.annotation.CircuitGuarded;
import org.aopalliance.aop.Advice;

import org.springframework.aop.Pointcut;
import org.springframework.aop.support.AbstractPointcutAdvisor;
import org.springframework.aop.support.AopUtils;
import org.springframework.aop.support.StaticMethodMatcherPointcut;
import org.springframework.core.annotation.AnnotationUtils;
import org.springframework.util.ClassUtils;

/**
 * Applies the {@link CircuitGuardedInterceptor} to every {@link CircuitGuarded} method,
 * like Spring's own advisors for {@code @Transactional} or {@code @Cacheable}: an
 * auto-proxy creator picks it up, no AspectJ needed. Its order places the breaker among
 * the other advisors of a bean.
 */
public final class CircuitGuardedAdvisor extends AbstractPointcutAdvisor {

	private static final Pointcut POINTCUT = new GuardedMethodPointcut();

	private final CircuitGuardedInterceptor interceptor;

	/**
	 * Create the advisor.
	 * @param interceptor what runs around each guarded call
	 * @param order the advisor's order: lower values run outside (before) higher ones
	 */
	public CircuitGuardedAdvisor(CircuitGuardedInterceptor interceptor, int order) {
		this.interceptor = interceptor;
		setOrder(order);
	}

	@Override
	public Pointcut getPointcut() {
		return POINTCUT;
	}

	@Override
	public Advice getAdvice() {
		return this.interceptor;
	}

	/**
	 * Matches what {@link GuardedMethodRegistry} guards: a method annotated itself, or a
	 * public instance method of an annotated class, as declared on the target class.
	 * Matching only those keeps the interceptor off every other method of a proxied bean.
	 */
	private static final class GuardedMethodPointcut extends StaticMethodMatcherPointcut {

		GuardedMethodPointcut() {
			setClassFilter(GuardedMethodPointcut::isCandidate);
		}

		private static boolean isCandidate(Class<?> type) {
			return AnnotationUtils.isCandidateClass(type, CircuitGuarded.class);
		}

		@Override
		public boolean matches(Method method, Class<?> targetClass) {
			Method specific = AopUtils.getMostSpecificMethod(method, ClassUtils.getUserClass(targetClass));
			return GuardedMethodRegistry.annotation(specific) != null;
		}

	}

}
