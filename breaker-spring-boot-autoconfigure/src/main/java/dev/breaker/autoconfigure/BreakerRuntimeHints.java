package dev.breaker.autoconfigure;

import dev.breaker.actuate.endpoint.BreakersDescriptor;
import dev.breaker.actuate.endpoint.HistoryDescriptor;
import dev.breaker.actuate.endpoint.SnapshotDescriptor;
import dev.breaker.autoconfigure.actuate.BreakerMetricsProperties;
import dev.breaker.autoconfigure.http.HttpBreakerProperties;
import dev.breaker.autoconfigure.redis.SharedRedisProperties;
import org.jspecify.annotations.Nullable;

import org.springframework.aot.hint.BindingReflectionHintsRegistrar;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;
import org.springframework.boot.context.properties.bind.BindableRuntimeHintsRegistrar;

/**
 * What breaker reaches reflectively whatever the application's beans: its configuration
 * properties (bound by Boot's binder) and the endpoint's descriptors (written by
 * Jackson). The guarded methods' hints come from
 * {@link dev.breaker.aspect.GuardedMethodsAotProcessor}, the exception classes named in
 * the properties from {@link ExceptionClassesAotProcessor}. The Lua scripts of fleet mode
 * are Java strings, not resources, so they need no hint.
 */
class BreakerRuntimeHints implements RuntimeHintsRegistrar {

	@Override
	public void registerHints(RuntimeHints hints, @Nullable ClassLoader classLoader) {
		BindableRuntimeHintsRegistrar
			.forTypes(BreakerProperties.class, HttpBreakerProperties.class, SharedRedisProperties.class,
					BreakerMetricsProperties.class)
			.registerHints(hints, classLoader);
		new BindingReflectionHintsRegistrar().registerReflectionHints(hints.reflection(), BreakersDescriptor.class,
				SnapshotDescriptor.class, HistoryDescriptor.class);
	}

}
