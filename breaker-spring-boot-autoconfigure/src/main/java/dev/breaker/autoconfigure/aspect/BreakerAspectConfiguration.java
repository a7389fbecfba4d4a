package dev.breaker.autoconfigure.aspect;

import dev.breaker.aspect.CircuitGuardedAdvisor;
import dev.breaker.aspect.CircuitGuardedInterceptor;
import dev.breaker.aspect.DelayScheduler;
import dev.breaker.aspect.FallbackObserver;
import dev.breaker.aspect.GuardedMethodRegistry;
import dev.breaker.autoconfigure.BreakerAutoConfiguration;
import dev.breaker.autoconfigure.BreakerBindHandler;
import dev.breaker.autoconfigure.BreakerProperties;
import dev.breaker.autoconfigure.ConfiguredBreakers;
import dev.breaker.core.BreakerRegistry;
import dev.breaker.observation.CallObserver;

import org.springframework.aop.config.AopConfigUtils;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.bind.BindHandler;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.bind.PropertySourcesPlaceholdersResolver;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.context.annotation.ImportBeanDefinitionRegistrar;
import org.springframework.context.annotation.Role;
import org.springframework.core.env.Environment;
import org.springframework.core.type.AnnotationMetadata;

/**
 * The {@code @CircuitGuarded} advisor, applied by an auto-proxy creator as Spring's own
 * annotation advisors are: Boot's AOP auto-configuration registers one, and so does this
 * configuration when there is none yet. No AspectJ needed. Imported by
 * {@link BreakerAutoConfiguration}, under its conditions.
 */
@Configuration(proxyBeanMethods = false)
@Role(BeanDefinition.ROLE_INFRASTRUCTURE)
@Import(BreakerAspectConfiguration.AutoProxyCreatorRegistrar.class)
public final class BreakerAspectConfiguration {

	@Bean
	@ConditionalOnMissingBean
	DelayScheduler breakerDelayScheduler() {
		return DelayScheduler.system();
	}

	@Bean
	@ConditionalOnMissingBean
	GuardedMethodRegistry breakerGuardedMethods(BreakerRegistry registry, ConfiguredBreakers configured,
			DelayScheduler delays, ObjectProvider<FallbackObserver> observers, ObjectProvider<CallObserver> calls) {
		return new GuardedMethodRegistry(registry, (name) -> configured.of(name).callPolicy(), delays,
				observers.orderedStream().toList(), CallObserver.of(calls.orderedStream().toList()));
	}

	/**
	 * Static and infrastructure, so the auto-proxy creator can have it before any bean is
	 * proxied; it reaches the guarded methods (and so the registry) only on the first
	 * call.
	 */
	@Bean
	@ConditionalOnMissingBean
	@Role(BeanDefinition.ROLE_INFRASTRUCTURE)
	static CircuitGuardedAdvisor circuitGuardedAdvisor(ObjectProvider<GuardedMethodRegistry> guardedMethods,
			Environment environment) {
		// bound here, not from BreakerProperties, which must not be created this early; a
		// value that is not an integer fails with breaker's report naming
		// breaker.advisor-order
		int order = Binder.get(environment)
			.bind("breaker.advisor-order", Bindable.of(Integer.class),
					new BreakerBindHandler(BindHandler.DEFAULT, new PropertySourcesPlaceholdersResolver(environment)))
			.orElse(BreakerProperties.DEFAULT_ADVISOR_ORDER);
		return new CircuitGuardedAdvisor(new CircuitGuardedInterceptor(guardedMethods::getObject), order);
	}

	/**
	 * Registers Spring's infrastructure auto-proxy creator unless one is there already.
	 */
	static final class AutoProxyCreatorRegistrar implements ImportBeanDefinitionRegistrar {

		@Override
		public void registerBeanDefinitions(AnnotationMetadata metadata, BeanDefinitionRegistry registry) {
			AopConfigUtils.registerAutoProxyCreatorIfNecessary(registry);
		}

	}

}
