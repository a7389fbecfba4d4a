package dev.breaker.autoconfigure;

import dev.breaker.aspect.GuardedMethodRegistry;
import dev.breaker.autoconfigure.aspect.BreakerAspectConfiguration;
import dev.breaker.core.BreakerRegistry;
import dev.breaker.core.OutcomeClassifier;
import dev.breaker.core.Ticker;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.ConfigurationPropertiesBindHandlerAdvisor;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.ApplicationContext;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.context.annotation.ImportRuntimeHints;
import org.springframework.context.annotation.Lazy;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.Environment;
import org.springframework.core.io.ResourceLoader;

/**
 * Auto-configuration of the breaker registry from {@code breaker.*}, its transition
 * events and the {@code @CircuitGuarded} advisor; every key under {@code breaker.*} is
 * checked at start-up.
 */
@AutoConfiguration
@ConditionalOnBreakerSwitch(value = "breaker.enabled", matchIfMissing = true)
@EnableConfigurationProperties(BreakerProperties.class)
@ImportRuntimeHints(BreakerRuntimeHints.class)
@Import(BreakerAspectConfiguration.class)
public final class BreakerAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean(name = "breakerBindHandlerAdvisor")
	static ConfigurationPropertiesBindHandlerAdvisor breakerBindHandlerAdvisor(Environment environment) {
		return new BreakerBindHandlerAdvisor(environment);
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

	/**
	 * The engine's defaults, but an HTTP client's status exception judged by its status
	 * as the per-host breakers judge it (when Spring Web is on the class path, and for
	 * every {@link StatusExceptionClassifier.StatusReader} bean).
	 */
	@Bean
	@ConditionalOnMissingBean
	OutcomeClassifier breakerOutcomeClassifier(ResourceLoader resourceLoader,
			ObjectProvider<StatusExceptionClassifier.StatusReader> statusReaders) {
		return StatusExceptionClassifier.of(resourceLoader.getClassLoader(), statusReaders.orderedStream().toList());
	}

	@Bean
	@ConditionalOnMissingBean
	ConfiguredBreakers breakerConfiguredBreakers(BreakerProperties properties, Ticker ticker,
			OutcomeClassifier classifier, ResourceLoader resourceLoader) {
		return new ConfiguredBreakers(properties, ticker, classifier, resourceLoader.getClassLoader());
	}

	@Bean
	@ConditionalOnMissingBean
	BreakerRegistry breakerRegistry(ConfiguredBreakers configured,
			ObjectProvider<BreakerRegistryCustomizer> customizers) {
		BreakerRegistry.Builder builder = BreakerRegistry.builder();
		configured.applyTo(builder);
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
	@ConditionalOnBreakerSwitch(FleetModeRequirement.PROPERTY)
	FleetModeRequirement breakerFleetModeRequirement(ApplicationContext context) {
		return FleetModeRequirement.check(context.getClassLoader());
	}

}
