package dev.breaker.autoconfigure;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import dev.breaker.autoconfigure.BreakerPropertyKeys.Suggestion;
import dev.breaker.autoconfigure.UnknownBreakerPropertyException.Unknown;
import dev.breaker.core.BreakerNames;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.context.annotation.ImportCandidates;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.bind.BindContext;
import org.springframework.boot.context.properties.bind.BindHandler;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.context.properties.source.IterableConfigurationPropertySource;
import org.springframework.core.annotation.MergedAnnotation;
import org.springframework.core.annotation.MergedAnnotations;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.PropertySource;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.type.AnnotationMetadata;
import org.springframework.core.type.classreading.CachingMetadataReaderFactory;
import org.springframework.core.type.classreading.MetadataReaderFactory;
import org.springframework.util.ClassUtils;

/**
 * Stops start-up when a key under {@code breaker.*} is not one breaker knows: a typo
 * would otherwise leave a default in place without a word.
 * <p>
 * The known keys are the ones breaker's {@code @ConfigurationProperties} classes bind:
 * every class that one of breaker's auto-configurations enables, found through the
 * auto-configuration imports (so a class added there is checked with no list to update)
 * and bound here whether or not its auto-configuration runs: a typo under
 * {@code breaker.shared.redis} matters most while fleet mode is off because of it.
 * Unknown keys from environment variables are only logged: a platform sets variables of
 * its own there ({@code BREAKER_SERVICE_HOST} on Kubernetes, for a service named
 * breaker).
 */
public final class UnknownPropertiesCheck {

	private static final Log logger = LogFactory.getLog(UnknownPropertiesCheck.class);

	private static final ConfigurationPropertyName ROOT = ConfigurationPropertyName.of("breaker");

	private static final String OWN_PACKAGE = "dev.breaker.";

	private UnknownPropertiesCheck() {
	}

	/**
	 * Checks every key under {@code breaker} in the environment.
	 * @param environment the application's environment
	 * @param classLoader the application's class loader
	 * @return the passed check
	 * @throws UnknownBreakerPropertyException naming every unknown key
	 * @throws InvalidBreakerPropertyException for an enum value that is not allowed
	 */
	static UnknownPropertiesCheck check(ConfigurableEnvironment environment, ClassLoader classLoader) {
		Map<String, Class<?>> roots = propertiesClasses(classLoader);
		Set<ConfigurationPropertyName> known = new HashSet<>();
		Binder binder = Binder.get(environment);
		roots.forEach((prefix, type) -> binder.bind(prefix, Bindable.of(type), new Recording(known)));
		Map<ConfigurationPropertyName, ConfigurationProperty> unknown = new TreeMap<>();
		Map<ConfigurationPropertyName, ConfigurationProperty> fromEnvironmentVariables = new TreeMap<>();
		for (ConfigurationPropertySource source : ConfigurationPropertySources.get(environment)) {
			if (source instanceof IterableConfigurationPropertySource iterable) {
				Map<ConfigurationPropertyName, ConfigurationProperty> into = isEnvironmentVariables(source)
						? fromEnvironmentVariables : unknown;
				iterable.stream()
					.filter((name) -> ROOT.isAncestorOf(name) && !known.contains(name))
					.forEach((name) -> into.putIfAbsent(name, source.getConfigurationProperty(name)));
			}
		}
		BreakerPropertyKeys keys = new BreakerPropertyKeys(roots);
		if (!unknown.isEmpty()) {
			throw new UnknownBreakerPropertyException(report(unknown, keys));
		}
		if (!fromEnvironmentVariables.isEmpty()) {
			logger.warn(new UnknownBreakerPropertyException(report(fromEnvironmentVariables, keys)).getMessage()
					+ ". They come from environment variables, which are left alone: Kubernetes, for one, sets "
					+ "BREAKER_SERVICE_HOST and the like for a service named breaker.");
		}
		return new UnknownPropertiesCheck();
	}

	private static List<Unknown> report(Map<ConfigurationPropertyName, ConfigurationProperty> unknown,
			BreakerPropertyKeys keys) {
		List<Unknown> report = new ArrayList<>();
		unknown.forEach((name, property) -> report.add(unknown(name, property, keys.suggest(name))));
		return report;
	}

	/**
	 * Whether a source holds the process's environment variables, which a platform fills
	 * too (Spring Boot's own unknown-field check leaves them alone for the same reason).
	 */
	private static boolean isEnvironmentVariables(ConfigurationPropertySource source) {
		return source.getUnderlyingSource() instanceof PropertySource<?> propertySource
				&& StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME.equals(propertySource.getName());
	}

	private static Unknown unknown(ConfigurationPropertyName name, ConfigurationProperty property,
			Suggestion suggestion) {
		String origin = (property != null && property.getOrigin() != null) ? property.getOrigin().toString() : null;
		return new Unknown(printable(BreakerPropertyKeys.written(name)), (origin != null) ? printable(origin) : null,
				printable(suggestion.parent()), printable(suggestion.meant()), printable(suggestion.closest()),
				suggestion.keys(), hint(name));
	}

	/**
	 * YAML 1.1 reads an unquoted {@code on} (as in {@code retry.on}), {@code off},
	 * {@code yes} or {@code no} key as a boolean.
	 */
	private static String hint(ConfigurationPropertyName name) {
		for (int i = 0; i < name.getNumberOfElements(); i++) {
			String element = name.getElement(i, ConfigurationPropertyName.Form.ORIGINAL);
			if ("true".equals(element) || "false".equals(element)) {
				return "YAML reads an unquoted key on, off, yes or no as true or false: write \"on\": [failure, timeout].";
			}
		}
		return null;
	}

	private static String printable(String text) {
		return BreakerNames.printable(text);
	}

	/**
	 * The {@code @ConfigurationProperties} classes breaker's auto-configurations enable,
	 * by prefix. Their annotations are read without loading them, since an
	 * auto-configuration may name classes that are not on the classpath.
	 */
	static Map<String, Class<?>> propertiesClasses(ClassLoader classLoader) {
		MetadataReaderFactory readers = new CachingMetadataReaderFactory(classLoader);
		Map<String, Class<?>> roots = new LinkedHashMap<>();
		for (String configuration : ImportCandidates.load(AutoConfiguration.class, classLoader)) {
			if (configuration.startsWith(OWN_PACKAGE)) {
				collect(configuration, readers, classLoader, roots);
			}
		}
		return roots;
	}

	private static void collect(String className, MetadataReaderFactory readers, ClassLoader classLoader,
			Map<String, Class<?>> roots) {
		AnnotationMetadata metadata;
		try {
			metadata = readers.getMetadataReader(className).getAnnotationMetadata();
		}
		catch (IOException ex) {
			throw new IllegalStateException("Cannot read the auto-configuration " + className, ex);
		}
		MergedAnnotation<EnableConfigurationProperties> enable = metadata.getAnnotations()
			.get(EnableConfigurationProperties.class);
		if (enable.isPresent()) {
			for (String type : enable.asAnnotationAttributes(MergedAnnotation.Adapt.CLASS_TO_STRING)
				.getStringArray("value")) {
				Class<?> properties = ClassUtils.resolveClassName(type, classLoader);
				MergedAnnotation<ConfigurationProperties> annotation = MergedAnnotations.from(properties)
					.get(ConfigurationProperties.class);
				if (annotation.isPresent()) {
					String prefix = annotation.getString("prefix");
					roots.put(prefix.isEmpty() ? annotation.getString("value") : prefix, properties);
				}
			}
		}
		for (String member : metadata.getMemberClassNames()) {
			collect(member, readers, classLoader, roots);
		}
	}

	/**
	 * Binds through {@link BreakerBindHandler}, remembering every name the binder tried.
	 */
	private static final class Recording extends BreakerBindHandler {

		private final Set<ConfigurationPropertyName> attempted;

		Recording(Set<ConfigurationPropertyName> attempted) {
			super(BindHandler.DEFAULT);
			this.attempted = attempted;
		}

		@Override
		public <T> Bindable<T> onStart(ConfigurationPropertyName name, Bindable<T> target, BindContext context) {
			this.attempted.add(name);
			return super.onStart(name, target, context);
		}

	}

}
