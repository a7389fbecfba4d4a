package dev.breaker.autoconfigure;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import dev.breaker.autoconfigure.BreakerProperties.Instance;
import org.jspecify.annotations.Nullable;

import org.springframework.aot.hint.TypeReference;
import org.springframework.beans.factory.aot.BeanFactoryInitializationAotContribution;
import org.springframework.beans.factory.aot.BeanFactoryInitializationAotProcessor;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.env.Environment;

/**
 * Registers the exception classes named in {@code record-exceptions} and
 * {@code ignore-exceptions} (loaded by name at start-up) with the configuration the
 * application is processed with. A class named only in configuration given at run time is
 * not known here; a native image then reports it missing at start-up, with the property's
 * name.
 */
final class ExceptionClassesAotProcessor implements BeanFactoryInitializationAotProcessor {

	@Override
	public @Nullable BeanFactoryInitializationAotContribution processAheadOfTime(
			ConfigurableListableBeanFactory beanFactory) {
		if (!beanFactory.containsBean("environment")) {
			return null;
		}
		Set<String> names = exceptionClasses(beanFactory.getBean("environment", Environment.class));
		if (names.isEmpty()) {
			return null;
		}
		return (generationContext, code) -> names
			.forEach((name) -> generationContext.getRuntimeHints().reflection().registerType(TypeReference.of(name)));
	}

	static Set<String> exceptionClasses(Environment environment) {
		BreakerProperties properties = Binder.get(environment).bind("breaker", BreakerProperties.class).orElse(null);
		Set<String> names = new LinkedHashSet<>();
		if (properties == null) {
			return names;
		}
		List<Instance> instances = new ArrayList<>(properties.getInstances().values());
		instances.add(properties.getDefaults());
		for (Instance instance : instances) {
			if (instance.getRecordExceptions() != null) {
				names.addAll(instance.getRecordExceptions());
			}
			if (instance.getIgnoreExceptions() != null) {
				names.addAll(instance.getIgnoreExceptions());
			}
		}
		return names;
	}

}
