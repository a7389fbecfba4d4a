package dev.breaker.autoconfigure;

import org.springframework.boot.context.properties.ConfigurationPropertiesBindHandlerAdvisor;
import org.springframework.boot.context.properties.bind.BindHandler;

/**
 * Binds every {@code @ConfigurationProperties} bean through {@link BreakerBindHandler},
 * so a bad enum value under {@code breaker.*} gets breaker's report rather than the
 * binder's; other properties are left alone.
 */
class BreakerBindHandlerAdvisor implements ConfigurationPropertiesBindHandlerAdvisor {

	@Override
	public BindHandler apply(BindHandler bindHandler) {
		return new BreakerBindHandler(bindHandler);
	}

}
