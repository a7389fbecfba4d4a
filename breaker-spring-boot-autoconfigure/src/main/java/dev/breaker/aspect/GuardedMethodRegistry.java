package dev.breaker.aspect;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Proxy;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

import dev.breaker.annotation.CircuitGuarded;
import dev.breaker.core.BreakerRegistry;
import dev.breaker.observation.CallObserver;

import org.springframework.aop.framework.AopProxyUtils;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.BeanFactoryAware;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.context.ApplicationListener;
import org.springframework.context.event.ContextClosedEvent;
import org.springframework.core.MethodClassKey;
import org.springframework.expression.Expression;
import org.springframework.expression.ParseException;
import org.springframework.expression.spel.standard.SpelExpressionParser;
import org.springframework.util.ClassUtils;
import org.springframework.util.ReflectionUtils;
import org.springframework.util.StringUtils;

/**
 * The registry of compiled guarded methods: every {@code @CircuitGuarded} method of the
 * application, found, checked and compiled into a {@link GuardedMethod} when the
 * singletons are ready (so a broken fallback or tenant expression stops start-up), then
 * looked up by the interceptor on each call.
 */
public class GuardedMethodRegistry
		implements SmartInitializingSingleton, BeanFactoryAware, ApplicationListener<ContextClosedEvent> {

	private static final boolean REACTOR_PRESENT = ClassUtils.isPresent("reactor.core.publisher.Mono",
			GuardedMethodRegistry.class.getClassLoader());

	private static final SpelExpressionParser PARSER = new SpelExpressionParser();

	private final BreakerRegistry registry;

	private final Function<String, CallPolicy> policies;

	private final DelayScheduler delays;

	private final List<FallbackObserver> observers;

	private final CallObserver calls;

	/**
	 * Keyed by the method the proxy reports; the entry is right when its target class
	 * matches.
	 */
	private final Map<Method, CompiledMethod> byMethod = new ConcurrentHashMap<>();

	/**
	 * The rare rest: one method reached through several target classes, or not found by
	 * the scan.
	 */
	private final Map<MethodClassKey, CompiledMethod> byMethodAndClass = new ConcurrentHashMap<>();

	private final Set<String> names = ConcurrentHashMap.newKeySet();

	private volatile ConfigurableListableBeanFactory beanFactory;

	/** Whether a scheduler's refusal is its context's shutdown or a saturation. */
	private final SchedulerRefusals refusals = new SchedulerRefusals();

	private volatile boolean scanned;

	/**
	 * Create the method registry.
	 * @param registry where the breakers come from
	 * @param policies the timeout and retry policy per breaker name
	 * @param delays how retries pause and timeouts fire
	 * @param observers told of every fallback run
	 */
	public GuardedMethodRegistry(BreakerRegistry registry, Function<String, CallPolicy> policies, DelayScheduler delays,
			List<FallbackObserver> observers) {
		this(registry, policies, delays, observers, CallObserver.NONE);
	}

	/**
	 * Create the method registry.
	 * @param registry where the breakers come from
	 * @param policies the timeout and retry policy per breaker name
	 * @param delays how retries pause and timeouts fire
	 * @param observers told of every fallback run
	 * @param calls told of every guarded call and every rejection
	 */
	public GuardedMethodRegistry(BreakerRegistry registry, Function<String, CallPolicy> policies, DelayScheduler delays,
			List<FallbackObserver> observers, CallObserver calls) {
		this.registry = registry;
		this.policies = policies;
		this.delays = delays;
		this.observers = List.copyOf(observers);
		this.calls = calls;
	}

	@Override
	public void setBeanFactory(BeanFactory beanFactory) {
		if (beanFactory instanceof ConfigurableListableBeanFactory listable) {
			this.beanFactory = listable;
		}
		this.refusals.setBeanFactory(beanFactory);
	}

	/** Its context closes (not a child's, whose events reach it too). */
	@Override
	public void onApplicationEvent(ContextClosedEvent event) {
		this.refusals.onApplicationEvent(event);
	}

	@Override
	public void afterSingletonsInstantiated() {
		scan();
	}

	/**
	 * The breaker names the scanned {@code @CircuitGuarded} methods use.
	 * @return the names, sorted
	 */
	public Set<String> names() {
		scan();
		return new TreeSet<>(this.names);
	}

	/**
	 * Finds and checks the guarded methods of every bean, once.
	 * @throws InvalidGuardedMethodException for the first method that cannot be guarded
	 */
	public synchronized void scan() {
		if (this.scanned || this.beanFactory == null) {
			return;
		}
		this.scanned = true;
		for (String beanName : this.beanFactory.getBeanDefinitionNames()) {
			if (this.beanFactory.getBeanDefinition(beanName).getRole() == BeanDefinition.ROLE_INFRASTRUCTURE) {
				continue;
			}
			Class<?> type = this.beanFactory.getType(beanName, false);
			if (type != null && Proxy.isProxyClass(type) && this.beanFactory.containsSingleton(beanName)) {
				// an interface-based proxy: the annotations are on the class behind it
				type = AopProxyUtils.ultimateTargetClass(this.beanFactory.getSingleton(beanName));
			}
			if (type == null || Proxy.isProxyClass(type) || type.getName().startsWith("java.")) {
				continue;
			}
			register(beanName, ClassUtils.getUserClass(type));
		}
	}

	/**
	 * Resolves and checks the guarded methods of one bean class.
	 * @param beanName the bean name, for error messages
	 * @param type the bean's user class
	 * @throws InvalidGuardedMethodException for a method that cannot be guarded
	 */
	void register(String beanName, Class<?> type) {
		for (Method method : ReflectionUtils.getUniqueDeclaredMethods(type, ReflectionUtils.USER_DECLARED_METHODS)) {
			CircuitGuarded annotation = annotation(method);
			if (annotation != null) {
				GuardedMethod guarded = resolve(beanName, type, method, annotation);
				this.byMethod.putIfAbsent(method, guarded);
				this.byMethodAndClass.put(new MethodClassKey(method, type), guarded);
			}
		}
	}

	/**
	 * What was compiled for the method behind a proxied call.
	 * @param method the method the proxy reports
	 * @param target the target object
	 * @return the guarded method, or {@link CompiledMethod.NotGuarded}
	 */
	CompiledMethod find(Method method, Object target) {
		CompiledMethod compiled = this.byMethod.get(method);
		if (compiled != null && compiled.targetClass() == target.getClass()) {
			return compiled;
		}
		return findSlowly(method, target.getClass());
	}

	private CompiledMethod findSlowly(Method method, Class<?> targetClass) {
		MethodClassKey key = new MethodClassKey(method, targetClass);
		CompiledMethod compiled = this.byMethodAndClass.get(key);
		if (compiled != null) {
			return compiled;
		}
		Class<?> userClass = ClassUtils.getUserClass(targetClass);
		Method specific = ClassUtils.getMostSpecificMethod(method, userClass);
		CircuitGuarded annotation = annotation(specific);
		compiled = (annotation != null)
				? resolve("(bean of type " + userClass.getName() + ")", userClass, specific, annotation)
				: new CompiledMethod.NotGuarded(userClass);
		this.byMethodAndClass.putIfAbsent(key, compiled);
		// the next call through the same method (an interface method of a JDK proxy, a
		// method not found by the scan) takes the fast path
		this.byMethod.putIfAbsent(method, compiled);
		return compiled;
	}

	/**
	 * The annotation that guards a method as declared on a bean class: its own, or its
	 * class's for a public instance method (not {@code equals}, {@code hashCode},
	 * {@code toString}); the pointcut and the scan both use this one rule.
	 * @param method a method of a bean class
	 * @return the annotation, or {@code null} when the method is not guarded
	 */
	static CircuitGuarded annotation(Method method) {
		if (method.isBridge() || method.isSynthetic()) {
			return null;
		}
		CircuitGuarded annotation = method.getAnnotation(CircuitGuarded.class);
		if (annotation != null) {
			return annotation;
		}
		if (Modifier.isPublic(method.getModifiers()) && !Modifier.isStatic(method.getModifiers())
				&& !Modifier.isFinal(method.getModifiers()) && !ReflectionUtils.isObjectMethod(method)
				&& !ReflectionUtils.isEqualsMethod(method) && !ReflectionUtils.isHashCodeMethod(method)
				&& !ReflectionUtils.isToStringMethod(method)) {
			return method.getDeclaringClass().getAnnotation(CircuitGuarded.class);
		}
		return null;
	}

	private GuardedMethod resolve(String beanName, Class<?> type, Method method, CircuitGuarded annotation) {
		String signature = FallbackResolver.describe(method);
		if (!StringUtils.hasText(annotation.name())) {
			throw new InvalidGuardedMethodException(beanName, signature, "the breaker name is empty",
					"name the dependency it calls, e.g. @CircuitGuarded(name = \"payments\")", null);
		}
		int modifiers = method.getModifiers();
		if (Modifier.isPrivate(modifiers) || Modifier.isStatic(modifiers) || Modifier.isFinal(modifiers)) {
			String what = Modifier.isPrivate(modifiers) ? "private" : Modifier.isStatic(modifiers) ? "static" : "final";
			throw new InvalidGuardedMethodException(beanName, signature,
					"the method is " + what + ", so Spring AOP cannot intercept it and it would run unguarded",
					"make it a public, non-final instance method called through the bean", null);
		}
		GuardedMethod.Kind kind = kind(beanName, signature, method.getReturnType());
		Expression tenant = tenant(beanName, signature, annotation.tenant());
		Fallbacks fallbacks = FallbackResolver.resolve(beanName, type, method, annotation.fallbackMethod(),
				kind == GuardedMethod.Kind.STAGE);
		this.names.add(annotation.name());
		return new GuardedMethod(annotation.name(), method, type, kind, this.registry, tenant, fallbacks,
				this.policies.apply(annotation.name()), this.delays, this.observers, this.calls, this.refusals);
	}

	private static GuardedMethod.Kind kind(String beanName, String signature, Class<?> returnType) {
		if (CompletionStage.class.isAssignableFrom(returnType)) {
			if (!returnType.isAssignableFrom(CompletableFuture.class)) {
				throw new InvalidGuardedMethodException(beanName, signature,
						"returns " + returnType.getName() + ", a CompletionStage breaker cannot create",
						"return CompletionStage or CompletableFuture", null);
			}
			return GuardedMethod.Kind.STAGE;
		}
		if (REACTOR_PRESENT) {
			if (returnType == reactor.core.publisher.Mono.class) {
				return GuardedMethod.Kind.MONO;
			}
			if (returnType == reactor.core.publisher.Flux.class) {
				return GuardedMethod.Kind.FLUX;
			}
		}
		return GuardedMethod.Kind.PLAIN;
	}

	private static Expression tenant(String beanName, String signature, String tenant) {
		if (!StringUtils.hasText(tenant)) {
			return null;
		}
		try {
			return PARSER.parseExpression(tenant);
		}
		catch (ParseException ex) {
			throw new InvalidGuardedMethodException(beanName, signature,
					"tenant expression '" + tenant + "' does not parse (" + ex.getMessage() + ")",
					"use a SpEL expression over the method's arguments, e.g. tenant = \"#userId\" or \"#p0\"", ex);
		}
	}

}
