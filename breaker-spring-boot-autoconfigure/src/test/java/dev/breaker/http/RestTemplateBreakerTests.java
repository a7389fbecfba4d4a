package dev.breaker.http;

import java.io.IOException;

import dev.breaker.autoconfigure.BreakerAutoConfiguration;
import dev.breaker.autoconfigure.http.HttpBreakerAutoConfiguration;
import dev.breaker.core.Breaker;
import dev.breaker.core.BreakerRegistry;
import dev.breaker.core.ManualTicker;
import dev.breaker.core.Outcome;
import dev.breaker.core.State;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.http.client.autoconfigure.HttpClientAutoConfiguration;
import org.springframework.boot.http.client.autoconfigure.imperative.ImperativeHttpClientAutoConfiguration;
import org.springframework.boot.http.converter.autoconfigure.HttpMessageConvertersAutoConfiguration;
import org.springframework.boot.restclient.RestTemplateBuilder;
import org.springframework.boot.restclient.autoconfigure.RestTemplateAutoConfiguration;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.web.client.HttpClientErrorException;
import org.springframework.web.client.HttpServerErrorException;
import org.springframework.web.client.ResourceAccessException;
import org.springframework.web.client.RestTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * A {@code RestTemplate} from Spring Boot's {@link RestTemplateBuilder} gets the same
 * per-host breaker as a {@code RestClient}.
 */
class RestTemplateBreakerTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(BreakerAutoConfiguration.class, HttpBreakerAutoConfiguration.class,
				HttpClientAutoConfiguration.class, ImperativeHttpClientAutoConfiguration.class,
				HttpMessageConvertersAutoConfiguration.class, RestTemplateAutoConfiguration.class))
		.withBean(ManualTicker.class, ManualTicker::new)
		.withPropertyValues("spring.http.clients.imperative.factory=simple", "spring.http.clients.connect-timeout=2s",
				"spring.http.clients.read-timeout=5s", "breaker.defaults.consecutive-failures=3",
				"breaker.defaults.minimum-calls=3");

	private LoopbackServer server;

	@BeforeEach
	void startServer() throws IOException {
		this.server = new LoopbackServer();
	}

	@AfterEach
	void stopServer() {
		this.server.close();
	}

	@Test
	void eachAnswerIsRecordedAsItsOutcome() {
		this.runner.run((context) -> {
			RestTemplate restTemplate = restTemplate(context);
			assertThat(restTemplate.getForObject(this.server.uri("/status/200"), String.class)).isEqualTo("status 200");
			assertThat(send(restTemplate, "/status/404")).isInstanceOf(HttpClientErrorException.NotFound.class);
			assertThat(send(restTemplate, "/status/429?retry-after=5"))
				.isInstanceOf(HttpClientErrorException.TooManyRequests.class);
			assertThat(send(restTemplate, "/status/500")).isInstanceOf(HttpServerErrorException.class);
			Breaker breaker = breaker(context);
			assertThat(breaker.totals().calls(Outcome.SUCCESS)).isEqualTo(1);
			assertThat(breaker.totals().calls(Outcome.IGNORED)).isEqualTo(1);
			assertThat(breaker.totals().calls(Outcome.THROTTLED)).isEqualTo(1);
			assertThat(breaker.totals().calls(Outcome.FAILURE)).isEqualTo(1);
		});
	}

	@Test
	void hangPastTheReadTimeoutIsATimeout() {
		this.runner.withPropertyValues("spring.http.clients.read-timeout=300ms").run((context) -> {
			assertThat(send(restTemplate(context), "/hang")).isInstanceOf(ResourceAccessException.class);
			assertThat(breaker(context).totals().calls(Outcome.TIMEOUT)).isEqualTo(1);
		});
	}

	@Test
	void openBreakerRejectsWithoutTouchingTheNetwork() {
		this.runner.run((context) -> {
			RestTemplate restTemplate = restTemplate(context);
			for (int i = 0; i < 3; i++) {
				send(restTemplate, "/status/502");
			}
			assertThat(breaker(context).state()).isEqualTo(State.OPEN);
			assertThat(send(restTemplate, "/status/200")).isInstanceOf(BreakerRejectedException.class);
			assertThat(this.server.requests()).isEqualTo(3);
		});
	}

	@Test
	void fourHundredStormsNeverTrip() {
		this.runner.run((context) -> {
			RestTemplate restTemplate = restTemplate(context);
			for (int i = 0; i < 30; i++) {
				send(restTemplate, "/status/422");
			}
			assertThat(breaker(context).state()).isEqualTo(State.CLOSED);
			assertThat(this.server.requests()).isEqualTo(30);
		});
	}

	private RestTemplate restTemplate(AssertableApplicationContext context) {
		return context.getBean(RestTemplateBuilder.class).build();
	}

	private Throwable send(RestTemplate restTemplate, String path) {
		return catchThrowable(() -> restTemplate.getForEntity(this.server.uri(path), String.class));
	}

	private Breaker breaker(AssertableApplicationContext context) {
		return context.getBean(BreakerRegistry.class).find(this.server.breakerName()).orElseThrow();
	}

}
