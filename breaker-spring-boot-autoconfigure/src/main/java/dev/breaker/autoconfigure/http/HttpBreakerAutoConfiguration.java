package dev.breaker.autoconfigure.http;

import java.util.Set;

import dev.breaker.aspect.DelayScheduler;
import dev.breaker.aspect.SchedulerRefusals;
import dev.breaker.autoconfigure.BreakerAutoConfiguration;
import dev.breaker.autoconfigure.BreakerNamesInUse;
import dev.breaker.autoconfigure.BreakerProperties;
import dev.breaker.autoconfigure.BreakerRegistryCustomizer;
import dev.breaker.autoconfigure.ConditionalOnBreakerSwitch;
import dev.breaker.core.BreakerRegistry;
import dev.breaker.core.Ticker;
import dev.breaker.http.HostBreakers;
import dev.breaker.http.HttpBreakerFilter;
import dev.breaker.http.HttpBreakerInterceptor;
import dev.breaker.observation.CallObserver;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.restclient.RestClientCustomizer;
import org.springframework.boot.restclient.RestTemplateCustomizer;
import org.springframework.boot.webclient.WebClientCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.http.client.ClientHttpRequestInterceptor;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.RestTemplate;
import org.springframework.web.reactive.function.client.WebClient;

/**
 * Auto-configuration of a breaker per host ({@code http:<host>}) for the
 * {@code RestClient}, {@code RestTemplate} and {@code WebClient} built from Spring Boot's
 * builders.
 */
@AutoConfiguration(after = BreakerAutoConfiguration.class)
@ConditionalOnClass(ClientHttpRequestInterceptor.class)
@ConditionalOnBean(BreakerRegistry.class)
@ConditionalOnBreakerSwitch(value = "breaker.http.enabled", matchIfMissing = true)
@EnableConfigurationProperties(HttpBreakerProperties.class)
public final class HttpBreakerAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean(name = "httpBreakerRegistryCustomizer")
	BreakerRegistryCustomizer httpBreakerRegistryCustomizer(HttpBreakerProperties http, BreakerProperties breaker,
			Ticker ticker, Environment environment) {
		HostsPolicy policy = HostsPolicy.of(http, breaker, ticker, Binder.get(environment));
		return policy::applyTo;
	}

	@Bean
	@ConditionalOnMissingBean
	HostHealthWhenOpen hostHealthWhenOpen(HttpBreakerProperties http, BreakerProperties breaker,
			Environment environment) {
		return HostsPolicy.healthWhenOpen(http, breaker, Binder.get(environment));
	}

	@Bean
	@ConditionalOnMissingBean
	ConfiguredHosts configuredHosts(HttpBreakerProperties http) {
		return HostsPolicy.configuredHosts(http);
	}

	@Bean
	@ConditionalOnMissingBean(name = "httpBreakerNamesInUse")
	BreakerNamesInUse httpBreakerNamesInUse() {
		return () -> Set.of(HostBreakers.GROUP);
	}

	@Bean
	@ConditionalOnMissingBean
	HostBreakers hostBreakers(BreakerRegistry registry, HttpBreakerProperties properties) {
		return HostsPolicy.hostBreakers(registry, properties);
	}

	/**
	 * Whether this context is closing, for the pauses the HTTP clients' scheduler
	 * refuses: a debug line then, a warning at most once a minute per host while it is
	 * live.
	 */
	@Bean
	@ConditionalOnMissingBean(name = "httpBreakerSchedulerRefusals")
	SchedulerRefusals httpBreakerSchedulerRefusals() {
		return new SchedulerRefusals();
	}

	@Bean
	@ConditionalOnMissingBean
	HttpBreakerInterceptor httpBreakerInterceptor(HostBreakers breakers, ObjectProvider<DelayScheduler> delays,
			ObjectProvider<CallObserver> calls, @Qualifier("httpBreakerSchedulerRefusals") SchedulerRefusals refusals) {
		return new HttpBreakerInterceptor(breakers, delays(delays), observer(calls), refusals);
	}

	/** The application's delay scheduler, else the shared real clock. */
	private static DelayScheduler delays(ObjectProvider<DelayScheduler> delays) {
		return delays.getIfAvailable(DelayScheduler::shared);
	}

	/** Every call observer of the application, in order, as one. */
	private static CallObserver observer(ObjectProvider<CallObserver> calls) {
		return CallObserver.of(calls.orderedStream().toList());
	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass({ RestClient.class, RestClientCustomizer.class })
	static class RestClientConfiguration {

		@Bean
		@ConditionalOnMissingBean(name = "httpBreakerRestClientCustomizer")
		RestClientCustomizer httpBreakerRestClientCustomizer(HttpBreakerInterceptor interceptor) {
			return (builder) -> builder.requestInterceptors((interceptors) -> {
				if (!interceptors.contains(interceptor)) {
					interceptors.add(interceptor);
				}
			});
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass({ RestTemplate.class, RestTemplateCustomizer.class })
	static class RestTemplateConfiguration {

		@Bean
		@ConditionalOnMissingBean(name = "httpBreakerRestTemplateCustomizer")
		RestTemplateCustomizer httpBreakerRestTemplateCustomizer(HttpBreakerInterceptor interceptor) {
			return (restTemplate) -> {
				if (!restTemplate.getInterceptors().contains(interceptor)) {
					restTemplate.getInterceptors().add(interceptor);
				}
			};
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass({ WebClient.class, WebClientCustomizer.class })
	static class WebClientConfiguration {

		@Bean
		@ConditionalOnMissingBean
		HttpBreakerFilter httpBreakerFilter(HostBreakers breakers, ObjectProvider<DelayScheduler> delays,
				ObjectProvider<CallObserver> calls,
				@Qualifier("httpBreakerSchedulerRefusals") SchedulerRefusals refusals) {
			return new HttpBreakerFilter(breakers, delays(delays), observer(calls), refusals);
		}

		@Bean
		@ConditionalOnMissingBean(name = "httpBreakerWebClientCustomizer")
		WebClientCustomizer httpBreakerWebClientCustomizer(HttpBreakerFilter filter) {
			return (builder) -> builder.filters((filters) -> {
				if (!filters.contains(filter)) {
					filters.add(filter);
				}
			});
		}

	}

}
