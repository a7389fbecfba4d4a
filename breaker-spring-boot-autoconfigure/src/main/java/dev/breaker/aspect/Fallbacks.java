package dev.breaker.aspect;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.stream.Collectors;

import dev.breaker.core.CauseChain;
import dev.breaker.core.Listeners;

import org.springframework.util.ClassUtils;
import org.springframework.util.ReflectionUtils;

/**
 * The fallback tiers of one guarded method, resolved once at start-up, and how they run: each
 * tier in order, the first that returns wins, the last one's exception reaches the caller.
 */
final class Fallbacks {

	static final Fallbacks NONE = new Fallbacks(new Tier[0]);

	private static final System.Logger LOG = System.getLogger(Fallbacks.class.getName());

	private static final Listeners.Notice<FallbackObserver, String, String> SUCCEEDED = (observer, breaker,
			fallback) -> observer.onFallback(breaker, fallback, true);

	private static final Listeners.Notice<FallbackObserver, String, String> FAILED = (observer, breaker,
			fallback) -> observer.onFallback(breaker, fallback, false);

	private static final Listeners.Message<FallbackObserver, String, String> FAILED_MESSAGE = (observer, breaker,
			fallback) -> "FallbackObserver " + observer + " failed";

	private final Tier[] tiers;

	private Fallbacks(Tier[] tiers) {
		this.tiers = tiers;
	}

	boolean isEmpty() {
		return this.tiers.length == 0;
	}

	int size() {
		return this.tiers.length;
	}

	String name(int tier) {
		return this.tiers[tier].name();
	}

	/** Every method of every tier: what runs reflectively, so what a native image must keep. */
	List<Method> methods() {
		List<Method> methods = new ArrayList<>();
		for (Tier tier : this.tiers) {
			if (tier.plain() != null) {
				methods.add(tier.plain());
			}
			methods.addAll(Arrays.asList(tier.typed()));
		}
		return methods;
	}

	/**
	 * Resolves every named fallback on the bean's class against the guarded method.
	 * @throws InvalidGuardedMethodException naming the bean, the method and the expected signature
	 */
	static Fallbacks resolve(String beanName, Class<?> targetClass, Method guarded, String[] names,
			boolean anyStageFits) {
		if (names.length == 0) {
			return NONE;
		}
		Method[] methods = ReflectionUtils.getUniqueDeclaredMethods(targetClass, ReflectionUtils.USER_DECLARED_METHODS);
		Tier[] tiers = new Tier[names.length];
		for (int i = 0; i < names.length; i++) {
			tiers[i] = resolveTier(beanName, targetClass, guarded, names[i], methods, anyStageFits);
		}
		return new Fallbacks(tiers);
	}

	private static Tier resolveTier(String beanName, Class<?> targetClass, Method guarded, String name,
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
					: "fallbackMethod '" + name + "' does not fit: found " + named.stream()
						.map(Fallbacks::describe)
						.collect(Collectors.joining(", "));
			throw new InvalidGuardedMethodException(beanName, describe(guarded), problem, expected, null);
		}
		for (Method method : typed) {
			ReflectionUtils.makeAccessible(method);
		}
		if (plain != null) {
			ReflectionUtils.makeAccessible(plain);
		}
		return new Tier(name, plain, typed.toArray(new Method[0]), params.length);
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

	/**
	 * Runs the tiers for a synchronous call.
	 * @return the value of the first tier that returns
	 * @throws Throwable the last tier's exception, or {@code cause} when no tier applies
	 */
	Object run(Object target, Object[] args, Throwable cause, String breaker, List<FallbackObserver> observers)
			throws Throwable {
		Throwable last = cause;
		for (Tier tier : this.tiers) {
			Method method = tier.select(cause);
			if (method == null) {
				continue;
			}
			try {
				Object value = tier.invoke(method, target, args, cause);
				notify(observers, breaker, tier.name(), true);
				return value;
			}
			catch (Throwable ex) {
				notify(observers, breaker, tier.name(), false);
				last = ex;
			}
		}
		throw last;
	}

	/**
	 * Runs the tiers for an asynchronous call: a tier fails when it throws or its stage completes
	 * exceptionally.
	 * @return a future completed by the first tier that succeeds, or with the last tier's exception
	 */
	CompletableFuture<Object> runAsync(Object target, Object[] args, Throwable cause, String breaker,
			List<FallbackObserver> observers) {
		CompletableFuture<Object> result = new CompletableFuture<>();
		runAsync(0, target, args, cause, cause, breaker, observers, result);
		return result;
	}

	private void runAsync(int from, Object target, Object[] args, Throwable cause, Throwable last, String breaker,
			List<FallbackObserver> observers, CompletableFuture<Object> result) {
		for (int i = from; i < this.tiers.length; i++) {
			Tier tier = this.tiers[i];
			Method method = tier.select(cause);
			if (method == null) {
				continue;
			}
			Object value;
			try {
				value = tier.invoke(method, target, args, cause);
			}
			catch (Throwable ex) {
				notify(observers, breaker, tier.name(), false);
				last = ex;
				continue;
			}
			if (!(value instanceof CompletionStage<?> stage)) {
				notify(observers, breaker, tier.name(), true);
				result.complete(value);
				return;
			}
			int next = i + 1;
			stage.whenComplete((v, ex) -> {
				notify(observers, breaker, tier.name(), ex == null);
				if (ex == null) {
					result.complete(v);
				}
				else {
					runAsync(next, target, args, cause, unwrap(ex), breaker, observers, result);
				}
			});
			return;
		}
		result.completeExceptionally(last);
	}

	/**
	 * The method of a tier that applies to {@code cause}, or {@code null} when none does.
	 */
	Method select(int tier, Throwable cause) {
		return this.tiers[tier].select(cause);
	}

	Object invoke(int tier, Method method, Object target, Object[] args, Throwable cause) throws Throwable {
		return this.tiers[tier].invoke(method, target, args, cause);
	}

	static void notify(List<FallbackObserver> observers, String breaker, String fallback, boolean succeeded) {
		Listeners.tell(observers, succeeded ? SUCCEEDED : FAILED, breaker, fallback, LOG, FAILED_MESSAGE);
	}

	static Throwable unwrap(Throwable error) {
		return CauseChain.unwrapAsync(error);
	}

	/** One fallback name: its overload without a Throwable parameter and those with one. */
	private record Tier(String name, Method plain, Method[] typed, int arity) {

		Method select(Throwable cause) {
			Method best = null;
			for (Method method : this.typed) {
				Class<?> type = method.getParameterTypes()[this.arity];
				if (type.isInstance(cause)
						&& (best == null || best.getParameterTypes()[this.arity].isAssignableFrom(type))) {
					best = method;
				}
			}
			return (best != null) ? best : this.plain;
		}

		Object invoke(Method method, Object target, Object[] args, Throwable cause) throws Throwable {
			Object[] arguments = args;
			if (method.getParameterCount() == this.arity + 1) {
				arguments = Arrays.copyOf(args, this.arity + 1);
				arguments[this.arity] = cause;
			}
			try {
				return method.invoke(Modifier.isStatic(method.getModifiers()) ? null : target, arguments);
			}
			catch (InvocationTargetException ex) {
				throw ex.getTargetException();
			}
		}

	}

}
