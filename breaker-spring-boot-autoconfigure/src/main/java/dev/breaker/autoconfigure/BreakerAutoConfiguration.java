package dev.breaker.autoconfigure;

import java.util.Map;

import dev.breaker.aspect.CallPolicy;
import dev.breaker.aspect.CircuitGuardedAdvisor;
import dev.breaker.aspect.CircuitGuardedInterceptor;
import dev.breaker.aspect.DelayScheduler;
import dev.breaker.aspect.FallbackObserver;
import dev.breaker.aspect.GuardedMethodRegistry;
import dev.breaker.autoconfigure.BreakerProperties.Instance;
import dev.breaker.core.BreakerRegistry;
import dev.breaker.core.OutcomeClassifier;
import dev.breaker.core.Ticker;
import dev.breaker.observation.CallObserver;

import org.springframework.aop.config.AopConfigUtils;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.ConfigurationPropertiesBindHandlerAdvisor;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.ApplicationContext;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.context.annotation.ImportBeanDefinitionRegistrar;
import org.springframework.context.annotation.ImportRuntimeHints;
import org.springframework.context.annotation.Lazy;
import org.springframework.context.annotation.Role;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.Environment;
import org.springframework.core.io.ResourceLoader;
import org.springframework.core.type.AnnotationMetadata;

/**
 * Auto-configuration of the breaker registry from {@code breaker.*}, its transition events and the
 * {@code @CircuitGuarded} advisor; every key under {@code breaker.*} is checked at start-up.
 */
@AutoConfiguration
@ConditionalOnBooleanProperty(name = "breaker.enabled", matchIfMissing = true)
@EnableConfigurationProperties(BreakerProperties.class)
@ImportRuntimeHints(BreakerRuntimeHints.class)
public final class BreakerAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean(name = "breakerBindHandlerAdvisor")
	static ConfigurationPropertiesBindHandlerAdvisor breakerBindHandlerAdvisor() {
		return new BreakerBindHandlerAdvisor();
	}

	@Bean
	@Lazy(false)
	@ConditionalOnMissingBean
	static UnknownPropertiesCheck breakerUnknownPropertiesCheck(ConfigurableEnvironment environment,
			ResourceLoader resourceLoader) {
		return UnknownPropertiesCheck.check(environment, resourceLoader.getClassLoader());
	}

	@Bean
	@ConditionalOnMissingBean
	Ticker breakerTicker() {
		return Ticker.cached();
	}

	@Bean
	@ConditionalOnMissingBean
	OutcomeClassifier breakerOutcomeClassifier() {
		return OutcomeClassifier.defaults();
	}

	@Bean
	@ConditionalOnMissingBean
	BreakerRegistry breakerRegistry(BreakerProperties properties, Ticker ticker, OutcomeClassifier classifier,
			ObjectProvider<BreakerRegistryCustomizer> customizers, ResourceLoader resourceLoader) {
		ClassLoader classLoader = resourceLoader.getClassLoader();
		Instance defaults = properties.getDefaults();
		String defaultsPath = "breaker.defaults";
		BreakerRegistry.Builder builder = BreakerRegistry.builder()
			.defaults(defaults.toConfig(defaultsPath, null, ticker, classifier, classLoader))
			.defaultChildren(defaults.toChildren(defaultsPath, null));
		defaults.toCallPolicy(defaultsPath, null);
		for (Map.Entry<String, Instance> entry : properties.getInstances().entrySet()) {
			String path = BreakerProperties.path(entry.getKey());
			Instance instance = entry.getValue();
			builder.config(entry.getKey(), instance.toConfig(path, defaults, ticker, classifier, classLoader));
			builder.children(entry.getKey(), instance.toChildren(path, defaults));
			instance.toCallPolicy(path, defaults);
		}
		customizers.orderedStream().forEach((customizer) -> customizer.customize(builder));
		return builder.build();
	}

	@Bean
	@ConditionalOnMissingBean
	BreakerTransitionPublisher breakerTransitionPublisher(BreakerRegistry registry,
			ApplicationEventPublisher publisher) {
		return new BreakerTransitionPublisher(registry, publisher);
	}

	@Bean
	@ConditionalOnMissingBean
	UnusedInstancesWarning breakerUnusedInstancesWarning(BreakerProperties properties, BreakerRegistry registry,
			ObjectProvider<GuardedMethodRegistry> guardedMethods, ObjectProvider<BreakerNamesInUse> namesInUse) {
		return new UnusedInstancesWarning(properties, registry, guardedMethods, namesInUse);
	}

	@Bean
	@ConditionalOnBooleanProperty(FleetModeRequirement.PROPERTY)
	FleetModeRequirement breakerFleetModeRequirement(ApplicationContext context) {
		return FleetModeRequirement.check(context.getClassLoader());
	}

	/**
	 * The {@code @CircuitGuarded} advisor, applied by an auto-proxy creator as Spring's own
	 * annotation advisors are: Boot's AOP auto-configuration registers one, and so does this
	 * configuration when there is none yet. No AspectJ needed.
	 */
	@Configuration(proxyBeanMethods = false)
	@Role(BeanDefinition.ROLE_INFRASTRUCTURE)
	@Import(InterceptorConfiguration.AutoProxyCreatorRegistrar.class)
	static class InterceptorConfiguration {

		@Bean
		@ConditionalOnMissingBean
		DelayScheduler breakerDelayScheduler() {
			return DelayScheduler.system();
		}

		@Bean
		@ConditionalOnMissingBean
		GuardedMethodRegistry breakerGuardedMethods(BreakerRegistry registry, BreakerProperties properties,
				DelayScheduler delays, ObjectProvider<FallbackObserver> observers, ObjectProvider<CallObserver> calls) {
			return new GuardedMethodRegistry(registry, (name) -> policy(properties, name), delays,
					observers.orderedStream().toList(), CallObserver.of(calls.orderedStream().toList()));
		}

		/**
		 * Static and infrastructure, so the auto-proxy creator can have it before any bean is
		 * proxied; it reaches the guarded methods (and so the registry) only on the first call.
		 */
		@Bean
		@ConditionalOnMissingBean
		@Role(BeanDefinition.ROLE_INFRASTRUCTURE)
		static CircuitGuardedAdvisor circuitGuardedAdvisor(ObjectProvider<GuardedMethodRegistry> guardedMethods,
				Environment environment) {
			// bound here, not from BreakerProperties, which must not be created this early; a bad
			// value fails with Boot's report naming breaker.advisor-order
			int order = Binder.get(environment)
				.bind("breaker.advisor-order", Integer.class)
				.orElse(BreakerProperties.DEFAULT_ADVISOR_ORDER);
			return new CircuitGuardedAdvisor(new CircuitGuardedInterceptor(guardedMethods::getObject), order);
		}

		private static CallPolicy policy(BreakerProperties properties, String name) {
			return properties.instance(name).toCallPolicy(BreakerProperties.path(name), properties.getDefaults());
		}

		/** Registers Spring's infrastructure auto-proxy creator unless one is there already. */
		static final class AutoProxyCreatorRegistrar implements ImportBeanDefinitionRegistrar {

			@Override
			public void registerBeanDefinitions(AnnotationMetadata metadata, BeanDefinitionRegistry registry) {
				AopConfigUtils.registerAutoProxyCreatorIfNecessary(registry);
			}

		}

	}

}
