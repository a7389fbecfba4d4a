package dev.breaker.aspect;

/**
 * What the {@link GuardedMethodRegistry} compiled for one method reached through one
 * target class: a {@link GuardedMethod}, or explicitly {@link NotGuarded}.
 */
sealed interface CompiledMethod permits GuardedMethod, CompiledMethod.NotGuarded {

	/**
	 * The bean class the method was compiled for: an entry found by the method alone is
	 * right only for this class.
	 * @return the user class
	 */
	Class<?> targetClass();

	/**
	 * A method the interceptor reached that has no {@code @CircuitGuarded} (an interface
	 * method of a JDK proxy whose implementation is not guarded, say): remembered, so the
	 * next call proceeds at once.
	 *
	 * @param targetClass the bean class
	 */
	record NotGuarded(Class<?> targetClass) implements CompiledMethod {

	}

}
