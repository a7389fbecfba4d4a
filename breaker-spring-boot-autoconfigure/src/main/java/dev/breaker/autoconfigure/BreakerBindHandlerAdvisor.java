package dev.breaker.autoconfigure;

import org.springframework.boot.context.properties.ConfigurationPropertiesBindHandlerAdvisor;
import org.springframework.boot.context.properties.bind.BindHandler;
import org.springframework.boot.context.properties.bind.PlaceholdersResolver;
import org.springframework.boot.context.properties.bind.PropertySourcesPlaceholdersResolver;
import org.springframework.core.env.Environment;

/**
 * Binds every {@code @ConfigurationProperties} bean through {@link BreakerBindHandler},
 * so a bad enum value under {@code breaker.*} gets breaker's report rather than the
 * binder's; other properties are left alone. Values are judged with their placeholders
 * resolved from the environment, as the binder resolves them.
 */
class BreakerBindHandlerAdvisor implements ConfigurationPropertiesBindHandlerAdvisor {

	private final PlaceholdersResolver placeholders;

	BreakerBindHandlerAdvisor(Environment environment) {
		this.placeholders = new PropertySourcesPlaceholdersResolver(environment);
	}

	@Override
	public BindHandler apply(BindHandler bindHandler) {
		return new BreakerBindHandler(bindHandler, this.placeholders);
	}

}
