package dev.breaker.aspect;

import java.util.function.Supplier;

import dev.breaker.annotation.CircuitGuarded;
import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;
import org.jspecify.annotations.Nullable;

/**
 * Runs every {@link CircuitGuarded} method through its breaker, with its fallbacks,
 * retries and timeout.
 *
 * <p>
 * The guarded methods are looked up on the first call rather than when the interceptor is
 * created: the auto-proxy creator creates its advisors while the bean post-processors are
 * still being registered, and the registry behind the guarded methods (and the meter
 * registry behind their observers) must not be created that early.
 */
public final class CircuitGuardedInterceptor implements MethodInterceptor {

	private final Supplier<GuardedMethodRegistry> lookup;

	private volatile @Nullable GuardedMethodRegistry methods;

	/**
	 * Create the interceptor.
	 * @param methods the guarded methods, checked at start-up; asked for on the first
	 * call
	 */
	public CircuitGuardedInterceptor(Supplier<GuardedMethodRegistry> methods) {
		this.lookup = methods;
	}

	@Override
	public @Nullable Object invoke(MethodInvocation invocation) throws Throwable {
		Object target = invocation.getThis();
		if (target != null && methods().find(invocation.getMethod(), target) instanceof GuardedMethod guarded) {
			return guarded.invoke(invocation);
		}
		return invocation.proceed();
	}

	private GuardedMethodRegistry methods() {
		GuardedMethodRegistry methods = this.methods;
		if (methods == null) {
			methods = this.lookup.get();
			this.methods = methods;
		}
		return methods;
	}

}
