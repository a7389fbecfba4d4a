package dev.breaker.autoconfigure.actuate;

import java.util.Set;

import io.micrometer.core.instrument.MeterRegistry;
import io.prometheus.metrics.model.registry.PrometheusRegistry;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

import dev.breaker.actuate.BreakerTree;
import dev.breaker.actuate.metrics.BreakerMetrics;
import dev.breaker.actuate.metrics.CallDurationCollector;
import dev.breaker.actuate.metrics.FallbackMetrics;
import dev.breaker.actuate.metrics.MeteredBreakers;
import dev.breaker.autoconfigure.BreakerAutoConfiguration;
import dev.breaker.autoconfigure.http.ConfiguredHosts;
import dev.breaker.core.BreakerRegistry;

/**
 * Auto-configuration of the {@code breaker.*} Micrometer meters and the fallback counter,
 * and, with the Prometheus registry, the {@code breaker_call_duration_seconds} histogram.
 */
@AutoConfiguration(after = { BreakerAutoConfiguration.class, MetricsAutoConfiguration.class,
		CompositeMeterRegistryAutoConfiguration.class })
@ConditionalOnClass({ MeterRegistry.class, MetricsAutoConfiguration.class })
@ConditionalOnBean({ BreakerRegistry.class, MeterRegistry.class })
@EnableConfigurationProperties(BreakerMetricsProperties.class)
@Import(BreakerTreeConfiguration.class)
public final class BreakerMetricsAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	BreakerMetrics breakerMetrics(BreakerRegistry registry, BreakerTree tree, BreakerMetricsProperties properties,
			ObjectProvider<ConfiguredHosts> hosts) {
		return new BreakerMetrics(registry, tree, metered(properties, hosts));
	}

	/**
	 * Which children get meters: tenants and hosts found in traffic only when asked for,
	 * hosts under {@code breaker.http.instances} always.
	 */
	static MeteredBreakers metered(BreakerMetricsProperties properties, ObjectProvider<ConfiguredHosts> hosts) {
		ConfiguredHosts configured = hosts.getIfAvailable();
		return new MeteredBreakers(properties.isTenantTags(), properties.isHostTags(),
				(configured != null) ? configured.breakerNames() : Set.of());
	}

	@Bean
	@ConditionalOnMissingBean
	FallbackMetrics breakerFallbackMetrics(MeterRegistry registry) {
		return new FallbackMetrics(registry);
	}

	/**
	 * The call-duration histogram, read from the engine by the Prometheus registry at
	 * scrape time.
	 */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(PrometheusRegistry.class)
	@ConditionalOnBean(PrometheusRegistry.class)
	static class CallDurationConfiguration {

		@Bean
		@ConditionalOnMissingBean
		CallDurationCollector breakerCallDurationCollector(BreakerTree tree, BreakerMetricsProperties properties,
				ObjectProvider<ConfiguredHosts> hosts, PrometheusRegistry prometheus) {
			CallDurationCollector collector = new CallDurationCollector(tree, metered(properties, hosts));
			prometheus.register(collector);
			return collector;
		}

	}

}
