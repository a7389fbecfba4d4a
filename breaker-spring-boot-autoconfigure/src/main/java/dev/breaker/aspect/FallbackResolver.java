package dev.breaker.aspect;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.stream.Collectors;

import org.springframework.util.ClassUtils;
import org.springframework.util.ReflectionUtils;

/**
 * Resolves, at start-up, the fallback tiers a {@code @CircuitGuarded} method names: each
 * name to its overloads on the bean class that fit the guarded method, or a failure that
 * says what was expected.
 */
final class FallbackResolver {

	private FallbackResolver() {
	}

	/**
	 * Resolves every named fallback on the bean's class against the guarded method.
	 * @throws InvalidGuardedMethodException naming the bean, the method and the expected
	 * signature
	 */
	static Fallbacks resolve(String beanName, Class<?> targetClass, Method guarded, String[] names,
			boolean anyStageFits) {
		if (names.length == 0) {
			return Fallbacks.NONE;
		}
		Method[] methods = ReflectionUtils.getUniqueDeclaredMethods(targetClass, ReflectionUtils.USER_DECLARED_METHODS);
		Fallbacks.Tier[] tiers = new Fallbacks.Tier[names.length];
		for (int i = 0; i < names.length; i++) {
			tiers[i] = resolveTier(beanName, targetClass, guarded, names[i], methods, anyStageFits);
		}
		return new Fallbacks(tiers);
	}

	private static Fallbacks.Tier resolveTier(String beanName, Class<?> targetClass, Method guarded, String name,
			Method[] methods, boolean anyStageFits) {
		Class<?>[] params = guarded.getParameterTypes();
		Method plain = null;
		List<Method> typed = new ArrayList<>();
		List<Method> named = new ArrayList<>();
		for (Method candidate : methods) {
			if (!candidate.getName().equals(name)) {
				continue;
			}
			named.add(candidate);
			if (!returnFits(guarded.getReturnType(), candidate.getReturnType(), anyStageFits)) {
				continue;
			}
			Class<?>[] candidateParams = candidate.getParameterTypes();
			if (candidateParams.length == params.length && paramsFit(candidateParams, params)) {
				if (plain == null || moreSpecific(candidateParams, plain.getParameterTypes())) {
					plain = candidate;
				}
			}
			else if (candidateParams.length == params.length + 1 && paramsFit(candidateParams, params)
					&& Throwable.class.isAssignableFrom(candidateParams[params.length])) {
				typed.add(candidate);
			}
		}
		if (plain == null && typed.isEmpty()) {
			String expected = "expected " + expected(guarded, name) + " on " + targetClass.getName();
			String problem = named.isEmpty() ? "fallbackMethod '" + name + "' does not exist"
					: "fallbackMethod '" + name + "' does not fit: found "
							+ named.stream().map(FallbackResolver::describe).collect(Collectors.joining(", "));
			throw new InvalidGuardedMethodException(beanName, describe(guarded), problem, expected, null);
		}
		for (Method method : typed) {
			ReflectionUtils.makeAccessible(method);
		}
		if (plain != null) {
			ReflectionUtils.makeAccessible(plain);
		}
		return new Fallbacks.Tier(name, plain, typed.toArray(new Method[0]), params.length);
	}

	private static boolean returnFits(Class<?> guarded, Class<?> candidate, boolean anyStageFits) {
		if (guarded == void.class) {
			return candidate == void.class;
		}
		if (anyStageFits && CompletionStage.class.isAssignableFrom(candidate)) {
			return true;
		}
		return ClassUtils.isAssignable(guarded, candidate);
	}

	private static boolean paramsFit(Class<?>[] candidate, Class<?>[] guarded) {
		for (int i = 0; i < guarded.length; i++) {
			if (!ClassUtils.isAssignable(candidate[i], guarded[i])) {
				return false;
			}
		}
		return true;
	}

	private static boolean moreSpecific(Class<?>[] a, Class<?>[] b) {
		for (int i = 0; i < a.length; i++) {
			if (a[i] != b[i] && !b[i].isAssignableFrom(a[i])) {
				return false;
			}
		}
		return true;
	}

	static String expected(Method guarded, String name) {
		String params = Arrays.stream(guarded.getParameterTypes())
			.map(Class::getSimpleName)
			.collect(Collectors.joining(", "));
		String returns = guarded.getReturnType().getSimpleName();
		String withThrowable = params.isEmpty() ? "Throwable" : params + ", Throwable";
		return returns + " " + name + "(" + params + ") or " + returns + " " + name + "(" + withThrowable + ")";
	}

	static String describe(Method method) {
		String params = Arrays.stream(method.getParameterTypes())
			.map(Class::getSimpleName)
			.collect(Collectors.joining(", "));
		return method.getReturnType().getSimpleName() + " " + method.getDeclaringClass().getSimpleName() + "."
				+ method.getName() + "(" + params + ")";
	}

}
