package dev.breaker.aspect;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionStage;

import dev.breaker.annotation.CircuitGuarded;
import org.jspecify.annotations.Nullable;

import org.springframework.aot.hint.ExecutableMode;
import org.springframework.aot.hint.MemberCategory;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.beans.factory.aot.BeanRegistrationAotContribution;
import org.springframework.beans.factory.aot.BeanRegistrationAotProcessor;
import org.springframework.beans.factory.support.RegisteredBean;
import org.springframework.util.ClassUtils;
import org.springframework.util.ReflectionUtils;
import org.springframework.util.StringUtils;

/**
 * Ahead-of-time processing of every bean with {@code @CircuitGuarded} methods: registers
 * what the interceptor reaches reflectively at run time, so a native image keeps it. The
 * guarded methods are introspected (found by the scan, their annotation and parameter
 * names read), the fallbacks invoked, and a tenant expression reads its arguments' (and
 * the bean's) public methods. A fallback that does not fit fails the processing with the
 * start-up check's own message.
 */
public final class GuardedMethodsAotProcessor implements BeanRegistrationAotProcessor {

	@Override
	public @Nullable BeanRegistrationAotContribution processAheadOfTime(RegisteredBean registeredBean) {
		Class<?> type = ClassUtils.getUserClass(registeredBean.getBeanClass());
		if (type.getName().startsWith("java.") || guarded(type).isEmpty()) {
			return null;
		}
		String beanName = registeredBean.getBeanName();
		return (generationContext, code) -> registerHints(generationContext.getRuntimeHints(), beanName, type);
	}

	/**
	 * Registers the hints of one bean class's guarded methods.
	 * @param hints where to register
	 * @param beanName the bean, for error messages
	 * @param type the bean's user class
	 */
	static void registerHints(RuntimeHints hints, String beanName, Class<?> type) {
		hints.reflection().registerType(type, MemberCategory.INTROSPECT_DECLARED_METHODS);
		for (Method method : guarded(type)) {
			CircuitGuarded annotation = GuardedMethodRegistry.annotation(method);
			hints.reflection().registerMethod(method, ExecutableMode.INTROSPECT);
			boolean anyStageFits = CompletionStage.class.isAssignableFrom(method.getReturnType());
			for (Method fallback : FallbackResolver
				.resolve(beanName, type, method, annotation.fallbackMethod(), anyStageFits)
				.methods()) {
				hints.reflection().registerMethod(fallback, ExecutableMode.INVOKE);
			}
			if (StringUtils.hasText(annotation.tenant())) {
				// the expression's root object is the bean, its variables the arguments
				hints.reflection().registerType(type, MemberCategory.INVOKE_PUBLIC_METHODS);
				for (Class<?> parameter : method.getParameterTypes()) {
					if (!parameter.isPrimitive() && !parameter.getName().startsWith("java.")) {
						hints.reflection()
							.registerType(parameter, MemberCategory.INVOKE_PUBLIC_METHODS,
									MemberCategory.ACCESS_PUBLIC_FIELDS);
					}
				}
			}
		}
	}

	private static List<Method> guarded(Class<?> type) {
		List<Method> guarded = new ArrayList<>();
		for (Method method : ReflectionUtils.getUniqueDeclaredMethods(type, ReflectionUtils.USER_DECLARED_METHODS)) {
			if (GuardedMethodRegistry.annotation(method) != null) {
				guarded.add(method);
			}
		}
		return guarded;
	}

}
