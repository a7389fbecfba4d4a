package dev.breaker.autoconfigure.actuate;

import dev.breaker.actuate.metrics.SharedStoreMetrics;
import dev.breaker.redis.SharedStoreStatus;
import io.micrometer.core.instrument.binder.MeterBinder;

import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The shared store's meters, when Micrometer is there; imported by
 * {@link dev.breaker.autoconfigure.redis.RedisBreakerAutoConfiguration}, under its
 * conditions.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnClass(MeterBinder.class)
public final class SharedStoreMetricsConfiguration {

	@Bean
	@ConditionalOnMissingBean
	SharedStoreMetrics breakerSharedStoreMetrics(SharedStoreStatus status) {
		return new SharedStoreMetrics(status);
	}

}
