package dev.breaker.http;

import dev.breaker.autoconfigure.BreakerAutoConfiguration;
import dev.breaker.autoconfigure.http.HttpBreakerAutoConfiguration;
import dev.breaker.core.ManualTicker;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.http.client.autoconfigure.HttpClientAutoConfiguration;
import org.springframework.boot.http.client.autoconfigure.imperative.ImperativeHttpClientAutoConfiguration;
import org.springframework.boot.http.client.autoconfigure.reactive.ReactiveHttpClientAutoConfiguration;
import org.springframework.boot.http.codec.autoconfigure.CodecsAutoConfiguration;
import org.springframework.boot.http.converter.autoconfigure.HttpMessageConvertersAutoConfiguration;
import org.springframework.boot.restclient.RestTemplateBuilder;
import org.springframework.boot.restclient.autoconfigure.RestClientAutoConfiguration;
import org.springframework.boot.restclient.autoconfigure.RestTemplateAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.webclient.autoconfigure.WebClientAutoConfiguration;
import org.springframework.context.ApplicationContext;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.RestTemplate;
import org.springframework.web.reactive.function.client.WebClient;

/**
 * Application contexts for the HTTP client tests: breaker's auto-configuration and its
 * HTTP part, Spring Boot's auto-configuration of one HTTP client, a {@link ManualTicker}
 * as the breakers' clock, and timeouts a busy machine does not trip (connect 2s, read 5s;
 * a test that wants a hang to time out sets a shorter read timeout itself). And the
 * clients built from those contexts' builders.
 */
public final class HttpClients {

	private HttpClients() {
	}

	/**
	 * A context with Spring Boot's {@code RestClient.Builder}.
	 * @param factory the request factory, {@code spring.http.clients.imperative.factory}
	 * ({@code jdk}, {@code simple}, ...)
	 */
	public static ApplicationContextRunner restClientRunner(String factory) {
		return runner("spring.http.clients.imperative.factory=" + factory, ImperativeHttpClientAutoConfiguration.class,
				HttpMessageConvertersAutoConfiguration.class, RestClientAutoConfiguration.class);
	}

	/**
	 * A context with Spring Boot's {@link RestTemplateBuilder}.
	 * @param factory the request factory, {@code spring.http.clients.imperative.factory}
	 */
	public static ApplicationContextRunner restTemplateRunner(String factory) {
		return runner("spring.http.clients.imperative.factory=" + factory, ImperativeHttpClientAutoConfiguration.class,
				HttpMessageConvertersAutoConfiguration.class, RestTemplateAutoConfiguration.class);
	}

	/** A context with Spring Boot's {@code WebClient.Builder} on the JDK connector. */
	public static ApplicationContextRunner webClientRunner() {
		return runner("spring.http.clients.reactive.connector=jdk", ReactiveHttpClientAutoConfiguration.class,
				CodecsAutoConfiguration.class, WebClientAutoConfiguration.class);
	}

	/**
	 * {@code runner} set up for retry tests: HTTP requests retry after {@code intervals}
	 * without jitter, every pause is recorded and over at once ({@link RecordingDelays}),
	 * and the breakers' trip rules are off, so a host that keeps failing is retried
	 * rather than cut off.
	 * @param intervals the value of {@code breaker.http.retry.intervals}, e.g.
	 * {@code 100ms,200ms}
	 */
	public static ApplicationContextRunner retrying(ApplicationContextRunner runner, String intervals) {
		return runner.withBean(RecordingDelays.class, RecordingDelays::new)
			.withPropertyValues("breaker.defaults.consecutive-failures=0", "breaker.defaults.failure-rate-threshold=0",
					"breaker.http.retry.intervals=" + intervals, "breaker.http.retry.jitter=0");
	}

	/** A {@code RestClient} from the context's builder. */
	public static RestClient restClient(ApplicationContext context) {
		return context.getBean(RestClient.Builder.class).build();
	}

	/** A {@code RestTemplate} from the context's builder. */
	public static RestTemplate restTemplate(ApplicationContext context) {
		return context.getBean(RestTemplateBuilder.class).build();
	}

	/** A {@code WebClient} from the context's builder. */
	public static WebClient webClient(ApplicationContext context) {
		return context.getBean(WebClient.Builder.class).build();
	}

	private static ApplicationContextRunner runner(String clientProperty, Class<?>... clientConfigurations) {
		Class<?>[] configurations = new Class<?>[clientConfigurations.length + 3];
		configurations[0] = BreakerAutoConfiguration.class;
		configurations[1] = HttpBreakerAutoConfiguration.class;
		configurations[2] = HttpClientAutoConfiguration.class;
		System.arraycopy(clientConfigurations, 0, configurations, 3, clientConfigurations.length);
		return new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(configurations))
			.withBean(ManualTicker.class, ManualTicker::new)
			.withPropertyValues(clientProperty, "spring.http.clients.connect-timeout=2s",
					"spring.http.clients.read-timeout=5s");
	}

}
