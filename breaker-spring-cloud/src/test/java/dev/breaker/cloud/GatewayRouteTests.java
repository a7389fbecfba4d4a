package dev.breaker.cloud;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import dev.breaker.core.BreakerRegistry;
import dev.breaker.core.State;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.RouterFunctions;
import org.springframework.web.reactive.function.server.ServerResponse;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A real Spring Cloud Gateway on loopback, its route wrapped in the
 * {@code CircuitBreaker} filter with a {@code fallbackUri}, in front of a backend that
 * can be made to fail.
 */
class GatewayRouteTests {

	private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

	private Backend backend;

	private ConfigurableApplicationContext gateway;

	private String base;

	@BeforeEach
	void start() throws Exception {
		this.backend = new Backend();
		String route = "spring.cloud.gateway.server.webflux.routes[0].";
		this.gateway = new SpringApplicationBuilder(GatewayApplication.class).web(WebApplicationType.REACTIVE)
			.properties("server.port=0", "server.address=127.0.0.1", route + "id=inventory",
					route + "uri=" + this.backend.url(), route + "predicates[0]=Path=/stock/**",
					route + "filters[0].name=CircuitBreaker", route + "filters[0].args.name=inventory",
					route + "filters[0].args.fallbackUri=forward:/fallback", route + "filters[0].args.statusCodes=500",
					"breaker.instances.inventory.consecutive-failures=2",
					"breaker.instances.inventory.failure-rate-threshold=0", "breaker.instances.inventory.open-wait=1h",
					"breaker.instances.inventory.max-open-wait=1h",
					"management.endpoints.web.exposure.include=breakers")
			.run();
		this.base = "http://127.0.0.1:" + this.gateway.getEnvironment().getProperty("local.server.port");
	}

	@AfterEach
	void stop() {
		this.gateway.close();
		this.backend.close();
	}

	@Test
	void opensOnAFailingBackendServesTheFallbackAndListsTheBreaker() throws Exception {
		assertThat(get("/stock/sku-1").body()).isEqualTo("stock of /stock/sku-1");
		this.backend.fail(true);
		assertThat(get("/stock/sku-1").body()).isEqualTo("fallback stock");
		assertThat(get("/stock/sku-1").body()).isEqualTo("fallback stock");
		assertThat(this.backend.requests()).isEqualTo(3);
		BreakerRegistry registry = this.gateway.getBean(BreakerRegistry.class);
		assertThat(registry.breaker("inventory").state()).isEqualTo(State.OPEN);

		HttpResponse<String> whileOpen = get("/stock/sku-1");
		assertThat(whileOpen.statusCode()).isEqualTo(200);
		assertThat(whileOpen.body()).isEqualTo("fallback stock");
		assertThat(this.backend.requests()).as("an open breaker does not call the backend").isEqualTo(3);
		assertThat(registry.breaker("inventory").totals().rejected()).isEqualTo(1);

		HttpResponse<String> breakers = get("/actuator/breakers");
		assertThat(breakers.statusCode()).isEqualTo(200);
		JsonNode inventory = JsonMapper.builder().build().readTree(breakers.body()).path("breakers").path("inventory");
		assertThat(inventory.path("state").asString()).isEqualTo("OPEN");
		assertThat(inventory.path("calls").asLong()).isEqualTo(3);
	}

	private HttpResponse<String> get(String path) throws Exception {
		return this.http.send(
				HttpRequest.newBuilder(URI.create(this.base + path)).timeout(Duration.ofSeconds(30)).build(),
				HttpResponse.BodyHandlers.ofString());
	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class GatewayApplication {

		@Bean
		RouterFunction<ServerResponse> fallback() {
			return RouterFunctions.route()
				.GET("/fallback", (request) -> ServerResponse.ok().bodyValue("fallback stock"))
				.build();
		}

	}

}
