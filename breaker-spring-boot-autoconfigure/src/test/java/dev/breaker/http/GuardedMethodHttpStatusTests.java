package dev.breaker.http;

import java.net.URI;

import dev.breaker.annotation.CircuitGuarded;
import dev.breaker.core.Breaker;
import dev.breaker.core.BreakerRegistry;
import dev.breaker.core.Outcome;
import dev.breaker.core.OutcomeClassifier;
import dev.breaker.core.State;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import reactor.core.publisher.Mono;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.restclient.RestTemplateBuilder;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.web.client.HttpClientErrorException;
import org.springframework.web.client.HttpServerErrorException;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.RestTemplate;
import org.springframework.web.reactive.function.client.WebClient;
import org.springframework.web.reactive.function.client.WebClientResponseException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * A {@code @CircuitGuarded} method around an HTTP client judges the client's status
 * exceptions as the per-host breaker judges the same answers: a 4xx is the caller's
 * fault, a 429 throttling, a 5xx a failure.
 */
class GuardedMethodHttpStatusTests {

	@AutoClose
	private final LoopbackServer server = LoopbackServer.start();

	private static ApplicationContextRunner guarded(ApplicationContextRunner runner, Class<?> client) {
		return runner.withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class)).withBean(client);
	}

	@Test
	void notFoundAnswersOfARestClientNeverOpenTheGuardedMethodsBreaker() {
		guarded(HttpClients.restClientRunner("jdk"), RestClientOrders.class).run((context) -> {
			RestClientOrders orders = context.getBean(RestClientOrders.class);
			URI missing = this.server.uri("/status/404");
			Throwable last = null;
			for (int i = 0; i < 20; i++) {
				last = catchThrowable(() -> orders.find(missing));
			}
			BreakerRegistry registry = context.getBean(BreakerRegistry.class);
			assertThat(registry.breaker("orders").state())
				.as("'orders' after 20 answers 404 (host breaker %s)",
						registry.find(this.server.breakerName()).orElseThrow().state())
				.isEqualTo(State.CLOSED);
			assertThat(registry.breaker("orders").snapshot().ignored()).isEqualTo(20);
			assertThat(last).as("a 404 is the caller's: it reaches the caller, no fallback")
				.isInstanceOf(HttpClientErrorException.NotFound.class);
		});
	}

	@Test
	void notFoundAnswersOfARestTemplateNeverOpenTheGuardedMethodsBreaker() {
		guarded(HttpClients.restTemplateRunner("jdk"), RestTemplateOrders.class).run((context) -> {
			RestTemplateOrders orders = context.getBean(RestTemplateOrders.class);
			URI missing = this.server.uri("/status/404");
			for (int i = 0; i < 20; i++) {
				catchThrowable(() -> orders.find(missing));
			}
			assertThat(context.getBean(BreakerRegistry.class).breaker("orders").state())
				.as("'orders' after 20 answers 404")
				.isEqualTo(State.CLOSED);
		});
	}

	@Test
	void notFoundAnswersOfAWebClientNeverOpenTheGuardedMethodsBreaker() {
		guarded(HttpClients.webClientRunner(), WebClientOrders.class).run((context) -> {
			WebClientOrders orders = context.getBean(WebClientOrders.class);
			URI missing = this.server.uri("/status/404");
			Throwable last = null;
			for (int i = 0; i < 20; i++) {
				last = catchThrowable(() -> orders.find(missing).block());
			}
			assertThat(context.getBean(BreakerRegistry.class).breaker("orders").state())
				.as("'orders' after 20 answers 404")
				.isEqualTo(State.CLOSED);
			assertThat(last).isInstanceOf(WebClientResponseException.NotFound.class);
		});
	}

	@Test
	void tooManyRequestsAreThrottlingNotFailures() {
		guarded(HttpClients.restClientRunner("jdk"), RestClientOrders.class).run((context) -> {
			RestClientOrders orders = context.getBean(RestClientOrders.class);
			for (int i = 0; i < 20; i++) {
				catchThrowable(() -> orders.find(this.server.uri("/status/429")));
			}
			BreakerRegistry registry = context.getBean(BreakerRegistry.class);
			assertThat(registry.breaker("orders").state()).isEqualTo(State.CLOSED);
			assertThat(registry.breaker("orders").snapshot().throttled()).isEqualTo(20);
		});
	}

	@Test
	void serverErrorsStillOpenTheGuardedMethodsBreaker() {
		guarded(HttpClients.restClientRunner("jdk"), RestClientOrders.class).run((context) -> {
			RestClientOrders orders = context.getBean(RestClientOrders.class);
			for (int i = 0; i < 5; i++) {
				assertThat(orders.find(this.server.uri("/status/500"))).isEqualTo("fallback");
			}
			assertThat(context.getBean(BreakerRegistry.class).breaker("orders").state()).isEqualTo(State.OPEN);
		});
	}

	@Test
	void serverErrorsOfAWebClientStillOpenTheGuardedMethodsBreaker() {
		guarded(HttpClients.webClientRunner(), WebClientOrders.class).run((context) -> {
			WebClientOrders orders = context.getBean(WebClientOrders.class);
			for (int i = 0; i < 5; i++) {
				assertThat(orders.find(this.server.uri("/status/503")).block()).isEqualTo("fallback");
			}
			assertThat(context.getBean(BreakerRegistry.class).breaker("orders").state()).isEqualTo(State.OPEN);
		});
	}

	@Test
	void ignoreExceptionsStillWinOverTheStatus() {
		assertServerErrorsLeaveOrdersClosed(
				"breaker.instances.orders.ignore-exceptions=" + HttpServerErrorException.class.getName());
	}

	@Test
	void recordExceptionsStillDecideWhichServerErrorsCount() {
		assertServerErrorsLeaveOrdersClosed("breaker.instances.orders.record-exceptions=java.io.IOException");
	}

	private void assertServerErrorsLeaveOrdersClosed(String exceptionList) {
		guarded(HttpClients.restClientRunner("jdk"), RestClientOrders.class)
			// 4 calls: fewer than trip the host breaker, whose rejections the method
			// counts
			.withPropertyValues(exceptionList, "breaker.instances.orders.consecutive-failures=2")
			.run((context) -> {
				RestClientOrders orders = context.getBean(RestClientOrders.class);
				for (int i = 0; i < 4; i++) {
					catchThrowable(() -> orders.find(this.server.uri("/status/500")));
				}
				assertThat(context.getBean(BreakerRegistry.class).breaker("orders").state())
					.as("'orders' after 4 answers 500 with %s", exceptionList)
					.isEqualTo(State.CLOSED);
			});
	}

	@Test
	void aClientErrorExceptionListedInRecordExceptionsCountsItsAnswersAsFailures() {
		guarded(HttpClients.restClientRunner("jdk"), RestClientOrders.class)
			.withPropertyValues(
					"breaker.instances.orders.record-exceptions=" + HttpClientErrorException.class.getName(),
					"breaker.instances.orders.consecutive-failures=2")
			.run((context) -> {
				RestClientOrders orders = context.getBean(RestClientOrders.class);
				assertThat(orders.find(this.server.uri("/status/404"))).as("a listed 404 is a failure: the fallback")
					.isEqualTo("fallback");
				orders.find(this.server.uri("/status/404"));
				assertThat(context.getBean(BreakerRegistry.class).breaker("orders").state())
					.as("'orders' after 2 answers 404 with HttpClientErrorException listed")
					.isEqualTo(State.OPEN);
			});
	}

	@Test
	void aListedStatusExceptionCountsOnlyItsOwnAnswers() {
		guarded(HttpClients.restClientRunner("jdk"), RestClientOrders.class)
			.withPropertyValues(
					"breaker.instances.orders.record-exceptions=java.io.IOException,"
							+ "org.springframework.web.client.HttpClientErrorException.NotFound",
					"breaker.instances.orders.consecutive-failures=2")
			.run((context) -> {
				RestClientOrders orders = context.getBean(RestClientOrders.class);
				Breaker breaker = context.getBean(BreakerRegistry.class).breaker("orders");
				for (int i = 0; i < 4; i++) {
					catchThrowable(() -> orders.find(this.server.uri("/status/409")));
				}
				assertThat(breaker.state()).as("after 4 answers 409, NotFound listed").isEqualTo(State.CLOSED);
				assertThat(breaker.snapshot().ignored()).isEqualTo(4);
				orders.find(this.server.uri("/status/404"));
				orders.find(this.server.uri("/status/404"));
				assertThat(breaker.state()).as("after 2 answers 404, NotFound listed").isEqualTo(State.OPEN);
			});
	}

	@Test
	void aWebClientStatusExceptionListedInRecordExceptionsCountsItsAnswersAsFailures() {
		guarded(HttpClients.webClientRunner(), WebClientOrders.class)
			.withPropertyValues(
					"breaker.instances.orders.record-exceptions=" + WebClientResponseException.NotFound.class.getName(),
					"breaker.instances.orders.consecutive-failures=2")
			.run((context) -> {
				WebClientOrders orders = context.getBean(WebClientOrders.class);
				assertThat(orders.find(this.server.uri("/status/404")).block()).isEqualTo("fallback");
				orders.find(this.server.uri("/status/404")).block();
				assertThat(context.getBean(BreakerRegistry.class).breaker("orders").state())
					.as("'orders' after 2 answers 404 with WebClientResponseException.NotFound listed")
					.isEqualTo(State.OPEN);
			});
	}

	@ParameterizedTest
	@ValueSource(strings = { "java.io.IOException", "java.lang.RuntimeException",
			"org.springframework.web.client.RestClientException" })
	void aRecordExceptionsEntryThatIsNoStatusExceptionLeavesAClientErrorIgnored(String entry) {
		guarded(HttpClients.restClientRunner("jdk"), RestClientOrders.class)
			.withPropertyValues("breaker.instances.orders.record-exceptions=" + entry,
					"breaker.instances.orders.consecutive-failures=2")
			.run((context) -> {
				RestClientOrders orders = context.getBean(RestClientOrders.class);
				Throwable last = null;
				for (int i = 0; i < 4; i++) {
					last = catchThrowable(() -> orders.find(this.server.uri("/status/404")));
				}
				Breaker breaker = context.getBean(BreakerRegistry.class).breaker("orders");
				assertThat(breaker.state()).as("'orders' after 4 answers 404 with %s listed", entry)
					.isEqualTo(State.CLOSED);
				assertThat(breaker.snapshot().ignored()).isEqualTo(4);
				assertThat(last).isInstanceOf(HttpClientErrorException.NotFound.class);
			});
	}

	@Test
	void aClassifierBeanOfTheUsersStillWins() {
		guarded(HttpClients.restClientRunner("jdk"), RestClientOrders.class)
			.withBean(OutcomeClassifier.class,
					() -> (result, error) -> (error != null) ? Outcome.FAILURE : Outcome.SUCCESS)
			.run((context) -> {
				RestClientOrders orders = context.getBean(RestClientOrders.class);
				for (int i = 0; i < 5; i++) {
					assertThat(orders.find(this.server.uri("/status/404"))).isEqualTo("fallback");
				}
				assertThat(context.getBean(BreakerRegistry.class).breaker("orders").state()).isEqualTo(State.OPEN);
			});
	}

	static class RestClientOrders {

		private final RestClient http;

		RestClientOrders(RestClient.Builder builder) {
			this.http = builder.build();
		}

		@CircuitGuarded(name = "orders", fallbackMethod = "unknown")
		public String find(URI uri) {
			return this.http.get().uri(uri).retrieve().body(String.class);
		}

		public String unknown(URI uri, Throwable error) {
			return "fallback";
		}

	}

	static class RestTemplateOrders {

		private final RestTemplate http;

		RestTemplateOrders(RestTemplateBuilder builder) {
			this.http = builder.build();
		}

		@CircuitGuarded(name = "orders", fallbackMethod = "unknown")
		public String find(URI uri) {
			return this.http.getForObject(uri, String.class);
		}

		public String unknown(URI uri, Throwable error) {
			return "fallback";
		}

	}

	static class WebClientOrders {

		private final WebClient http;

		WebClientOrders(WebClient.Builder builder) {
			this.http = builder.build();
		}

		@CircuitGuarded(name = "orders", fallbackMethod = "unknown")
		public Mono<String> find(URI uri) {
			return this.http.get().uri(uri).retrieve().bodyToMono(String.class);
		}

		public Mono<String> unknown(URI uri, Throwable error) {
			return Mono.just("fallback");
		}

	}

}
