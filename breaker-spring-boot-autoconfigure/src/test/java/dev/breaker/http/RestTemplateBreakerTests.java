package dev.breaker.http;

import dev.breaker.core.Breaker;
import dev.breaker.core.Outcome;
import dev.breaker.core.State;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

import org.springframework.boot.restclient.RestTemplateBuilder;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.web.client.HttpClientErrorException;
import org.springframework.web.client.HttpServerErrorException;
import org.springframework.web.client.ResourceAccessException;
import org.springframework.web.client.RestTemplate;

import static dev.breaker.http.HttpClients.restTemplate;
import static dev.breaker.http.HttpClients.restTemplateRunner;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * A {@code RestTemplate} from Spring Boot's {@link RestTemplateBuilder} gets the same
 * per-host breaker as a {@code RestClient}.
 */
class RestTemplateBreakerTests {

	private final ApplicationContextRunner runner = restTemplateRunner("simple")
		.withPropertyValues("breaker.defaults.consecutive-failures=3", "breaker.defaults.minimum-calls=3");

	@AutoClose
	private final LoopbackServer server = LoopbackServer.start();

	@Test
	void eachAnswerIsRecordedAsItsOutcome() {
		this.runner.run((context) -> {
			RestTemplate restTemplate = restTemplate(context);
			assertThat(restTemplate.getForObject(this.server.uri("/status/200"), String.class)).isEqualTo("status 200");
			assertThat(send(restTemplate, "/status/404")).isInstanceOf(HttpClientErrorException.NotFound.class);
			assertThat(send(restTemplate, "/status/429?retry-after=5"))
				.isInstanceOf(HttpClientErrorException.TooManyRequests.class);
			assertThat(send(restTemplate, "/status/500")).isInstanceOf(HttpServerErrorException.class);
			Breaker breaker = this.server.breaker(context);
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
			assertThat(this.server.breaker(context).totals().calls(Outcome.TIMEOUT)).isEqualTo(1);
		});
	}

	@Test
	void openBreakerRejectsWithoutTouchingTheNetwork() {
		this.runner.run((context) -> {
			RestTemplate restTemplate = restTemplate(context);
			for (int i = 0; i < 3; i++) {
				send(restTemplate, "/status/502");
			}
			assertThat(this.server.breaker(context).state()).isEqualTo(State.OPEN);
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
			assertThat(this.server.breaker(context).state()).isEqualTo(State.CLOSED);
			assertThat(this.server.requests()).isEqualTo(30);
		});
	}

	private Throwable send(RestTemplate restTemplate, String path) {
		return catchThrowable(() -> restTemplate.getForEntity(this.server.uri(path), String.class));
	}

}
