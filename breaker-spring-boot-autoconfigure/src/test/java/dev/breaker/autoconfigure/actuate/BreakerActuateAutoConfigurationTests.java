package dev.breaker.autoconfigure.actuate;

import java.util.Map;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.breaker.actuate.BreakerTree;
import dev.breaker.actuate.endpoint.BreakersEndpoint;
import dev.breaker.actuate.endpoint.BreakersEndpointWebExtension;
import dev.breaker.actuate.endpoint.SharedBreakerState;
import dev.breaker.actuate.health.BreakersHealthIndicator;
import dev.breaker.actuate.metrics.BreakerMetrics;
import dev.breaker.actuate.metrics.CallDurationCollector;
import dev.breaker.actuate.metrics.FallbackMetrics;
import dev.breaker.autoconfigure.BreakerAutoConfiguration;
import dev.breaker.core.BreakerRegistry;

import static org.assertj.core.api.Assertions.assertThat;

class BreakerActuateAutoConfigurationTests {

	private static final BreakerRegistry EMPTY = BreakerRegistry.builder().build();

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(BreakerAutoConfiguration.class, BreakerEndpointAutoConfiguration.class,
				BreakerHealthAutoConfiguration.class, BreakerMetricsAutoConfiguration.class))
		.withPropertyValues("management.endpoints.web.exposure.include=breakers");

	@Test
	void everyPartIsOnByDefault() {
		this.runner.withBean(MeterRegistry.class, SimpleMeterRegistry::new)
			.run((context) -> assertThat(context).hasSingleBean(BreakersEndpoint.class)
				.hasSingleBean(BreakersEndpointWebExtension.class)
				.hasSingleBean(BreakersHealthIndicator.class)
				.hasSingleBean(BreakerMetrics.class)
				.hasSingleBean(FallbackMetrics.class));
	}

	@Test
	void breakerMetersAreBoundToTheAutoConfiguredMeterRegistry() {
		this.runner
			.withConfiguration(AutoConfigurations.of(MetricsAutoConfiguration.class,
					CompositeMeterRegistryAutoConfiguration.class, SimpleMetricsExportAutoConfiguration.class))
			.run((context) -> {
				context.getBean(BreakerRegistry.class).breaker("payments");
				MeterRegistry registry = context.getBean(MeterRegistry.class);
				assertThat(registry.find("breaker.state").tag("name", "payments").gauges()).hasSize(5);
			});
	}

	@Test
	void theEndpointShowsASharedBreakerStateBean() {
		this.runner.withBean(SharedBreakerState.class, () -> new SharedBreakerState() {
			@Override
			public Map<String, Object> status() {
				return Map.of("store", "test", "up", true);
			}

			@Override
			public Map<String, Object> breaker(String name) {
				return Map.of("of", name);
			}
		}).run((context) -> {
			context.getBean(BreakerRegistry.class).breaker("payments");
			BreakersEndpoint endpoint = context.getBean(BreakersEndpoint.class);
			assertThat(endpoint.breakers().shared()).containsEntry("store", "test").containsEntry("up", true);
			assertThat(endpoint.breaker("payments").fleet()).containsEntry("of", "payments");
		});
	}

	@Test
	void theEndpointIsAbsentWhenNotExposed() {
		new ApplicationContextRunner()
			.withConfiguration(
					AutoConfigurations.of(BreakerAutoConfiguration.class, BreakerEndpointAutoConfiguration.class))
			.run((context) -> assertThat(context).doesNotHaveBean(BreakersEndpoint.class)
				.doesNotHaveBean(BreakersEndpointWebExtension.class));
	}

	@Test
	void theHealthContributorCanBeSwitchedOff() {
		this.runner.withPropertyValues("management.health.breakers.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(BreakersHealthIndicator.class));
	}

	@Test
	void noMetersWithoutAMeterRegistry() {
		this.runner.run((context) -> assertThat(context).doesNotHaveBean(BreakerMetrics.class)
			.doesNotHaveBean(FallbackMetrics.class));
	}

	@Test
	void nothingWhenBreakersAreSwitchedOff() {
		this.runner.withBean(MeterRegistry.class, SimpleMeterRegistry::new)
			.withPropertyValues("breaker.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(BreakersEndpoint.class)
				.doesNotHaveBean(BreakersHealthIndicator.class)
				.doesNotHaveBean(BreakerMetrics.class));
	}

	@Test
	void theUsersOwnBeansWin() {
		this.runner.withBean(MeterRegistry.class, SimpleMeterRegistry::new)
			.withBean("breakersEndpoint", BreakersEndpoint.class,
					() -> new BreakersEndpoint(EMPTY, new BreakerTree(EMPTY)))
			.withBean("breakersHealthIndicator", BreakersHealthIndicator.class,
					() -> new BreakersHealthIndicator(new BreakerTree(EMPTY), (breaker) -> Status.DOWN))
			.withBean("myBreakerMetrics", BreakerMetrics.class,
					() -> new BreakerMetrics(EMPTY, new BreakerTree(EMPTY), true))
			.run((context) -> {
				assertThat(context).hasSingleBean(BreakersEndpoint.class)
					.hasSingleBean(BreakersHealthIndicator.class)
					.hasSingleBean(BreakerMetrics.class);
				assertThat(context).getBean(BreakerMetrics.class).isSameAs(context.getBean("myBreakerMetrics"));
				assertThat(context).getBean(BreakersHealthIndicator.class)
					.isSameAs(context.getBean("breakersHealthIndicator"));
			});
	}

	@Test
	void tenantAndHostTagsAreOffByDefaultAndCanBeTurnedOn() {
		this.runner.withBean(MeterRegistry.class, SimpleMeterRegistry::new).run((context) -> {
			assertThat(context.getBean(BreakerMetricsProperties.class).isTenantTags()).isFalse();
			assertThat(context.getBean(BreakerMetricsProperties.class).isHostTags()).isFalse();
		});
		this.runner.withBean(MeterRegistry.class, SimpleMeterRegistry::new)
			.withPropertyValues("breaker.metrics.tenant-tags=true", "breaker.metrics.host-tags=true")
			.run((context) -> {
				assertThat(context.getBean(BreakerMetricsProperties.class).isTenantTags()).isTrue();
				assertThat(context.getBean(BreakerMetricsProperties.class).isHostTags()).isTrue();
			});
	}

	@Test
	void theCallDurationHistogramIsCollectedByThePrometheusRegistry() {
		this.runner.withBean(MeterRegistry.class, SimpleMeterRegistry::new)
			.withBean(PrometheusRegistry.class, PrometheusRegistry::new)
			.run((context) -> {
				assertThat(context).hasSingleBean(CallDurationCollector.class);
				context.getBean(BreakerRegistry.class).breaker("payments");
				assertThat(context.getBean(PrometheusRegistry.class).scrape().get(0).getMetadata().getPrometheusName())
					.isEqualTo("breaker_call_duration_seconds");
			});
	}

	@Test
	void noCallDurationHistogramWithoutAPrometheusRegistry() {
		this.runner.withBean(MeterRegistry.class, SimpleMeterRegistry::new)
			.run((context) -> assertThat(context).doesNotHaveBean(CallDurationCollector.class));
		this.runner.withBean(MeterRegistry.class, SimpleMeterRegistry::new)
			.withClassLoader(new FilteredClassLoader(PrometheusRegistry.class))
			.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(CallDurationCollector.class));
	}

	@Test
	void theUsersOwnCallDurationCollectorWins() {
		this.runner.withBean(MeterRegistry.class, SimpleMeterRegistry::new)
			.withBean(PrometheusRegistry.class, PrometheusRegistry::new)
			.withBean("myCollector", CallDurationCollector.class,
					() -> new CallDurationCollector(new BreakerTree(EMPTY), false))
			.run((context) -> assertThat(context).getBean(CallDurationCollector.class)
				.isSameAs(context.getBean("myCollector")));
	}

}
