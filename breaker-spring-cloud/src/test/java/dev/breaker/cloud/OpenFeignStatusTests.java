package dev.breaker.cloud;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;

import com.sun.net.httpserver.HttpServer;
import dev.breaker.cloud.FeignClients.OrdersClient;
import dev.breaker.core.BreakerRegistry;
import feign.FeignException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.cloud.client.circuitbreaker.CircuitBreakerFactory;
import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * An OpenFeign client's ({@link OrdersClient}) breaker judges Feign's status exceptions
 * as the per-host breakers judge those answers: a user's 404s never open it for everyone,
 * 5xx still do. Only {@code spring.cloud.openfeign.circuitbreaker.enabled=true},
 * breaker's defaults, unless a test says otherwise.
 */
class OpenFeignStatusTests {

	private HttpServer server;

	private ConfigurableApplicationContext context;

	@BeforeEach
	void start() throws IOException {
		this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
		this.server.createContext("/", (exchange) -> {
			String path = exchange.getRequestURI().getPath();
			int status = path.contains("missing") ? 404 : path.contains("broken") ? 500 : 200;
			byte[] body = ((status == 200) ? "order " + path : "status " + status).getBytes(StandardCharsets.UTF_8);
			exchange.sendResponseHeaders(status, body.length);
			try (OutputStream out = exchange.getResponseBody()) {
				out.write(body);
			}
		});
		this.server.start();
	}

	/** The application with these properties, its clients on the loopback server. */
	private OrdersClient orders(String... properties) {
		this.context = FeignClients.run("http://127.0.0.1:" + this.server.getAddress().getPort(), properties);
		return this.context.getBean(OrdersClient.class);
	}

	@AfterEach
	void stop() {
		if (this.context != null) {
			this.context.close();
		}
		this.server.stop(0);
	}

	@Test
	void unknownIdsAUserSendsNeverOpenTheClientsBreakerForEveryone() {
		OrdersClient orders = orders();
		for (int i = 0; i < 20; i++) {
			assertThat(orders.order("missing-" + i)).as("Spring Cloud sends every error to the fallback")
				.isEqualTo("fallback for missing-" + i);
		}
		assertThat(orders.order("42")).as("a real order after a user's 20 unknown ids (breakers: %s)", states())
			.isEqualTo("order /orders/42");
	}

	@Test
	void serverErrorsStillOpenTheClientsBreaker() {
		OrdersClient orders = orders();
		for (int i = 0; i < 5; i++) {
			orders.order("broken-" + i);
		}
		assertThat(orders.order("42")).as("after 5 answers 500 (breakers: %s)", states()).isEqualTo("fallback for 42");
	}

	@Test
	void notFoundListedInRecordExceptionsOpensTheClientsBreaker() {
		OrdersClient orders = orders(
				"breaker.instances[OrdersClientorderString].record-exceptions=feign.FeignException.NotFound",
				"breaker.instances[OrdersClientorderString].consecutive-failures=2");
		orders.order("missing-1");
		orders.order("missing-2");
		assertThat(orders.order("42"))
			.as("after 2 answers 404, FeignException.NotFound listed (breakers: %s)", states())
			.isEqualTo("fallback for 42");
	}

	/**
	 * With breaker's Spring Cloud factory switched off, the Feign client runs without a
	 * circuit breaker (OpenFeign falls back to its plain targeter) and breaker installs
	 * nothing of its own for Feign: no factory, no status reader.
	 */
	@Test
	void withTheFactorySwitchedOffTheFeignClientRunsWithoutBreakersFactoryOrStatusReader() {
		OrdersClient orders = orders("spring.cloud.circuitbreaker.breaker.enabled=false");
		assertThat(this.context.getBeansOfType(CircuitBreakerFactory.class)).isEmpty();
		assertThat(this.context.getBeansOfType(FeignStatus.class)).isEmpty();
		assertThat(orders.order("42")).isEqualTo("order /orders/42");
		assertThatExceptionOfType(FeignException.NotFound.class).isThrownBy(() -> orders.order("missing-1"));
		assertThat(this.context.getBean(BreakerRegistry.class).all()).as("breakers").isEmpty();
	}

	private Object states() {
		return this.context.getBean(BreakerRegistry.class)
			.all()
			.stream()
			.map((breaker) -> breaker.name() + "=" + breaker.state())
			.toList();
	}

}
