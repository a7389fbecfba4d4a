package dev.breaker.cloud;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;

import com.sun.net.httpserver.HttpServer;
import dev.breaker.cloud.FeignClients.OrdersClient;
import dev.breaker.core.BreakerRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An OpenFeign client's ({@link OrdersClient}) breaker judges Feign's status exceptions
 * as the per-host breakers judge those answers: a user's 404s never open it for everyone,
 * 5xx still do. Only {@code spring.cloud.openfeign.circuitbreaker.enabled=true},
 * breaker's defaults.
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
		this.context = FeignClients.run("http://127.0.0.1:" + this.server.getAddress().getPort());
	}

	@AfterEach
	void stop() {
		this.context.close();
		this.server.stop(0);
	}

	@Test
	void unknownIdsAUserSendsNeverOpenTheClientsBreakerForEveryone() {
		OrdersClient orders = this.context.getBean(OrdersClient.class);
		for (int i = 0; i < 20; i++) {
			assertThat(orders.order("missing-" + i)).as("Spring Cloud sends every error to the fallback")
				.isEqualTo("fallback for missing-" + i);
		}
		assertThat(orders.order("42")).as("a real order after a user's 20 unknown ids (breakers: %s)", states())
			.isEqualTo("order /orders/42");
	}

	@Test
	void serverErrorsStillOpenTheClientsBreaker() {
		OrdersClient orders = this.context.getBean(OrdersClient.class);
		for (int i = 0; i < 5; i++) {
			orders.order("broken-" + i);
		}
		assertThat(orders.order("42")).as("after 5 answers 500 (breakers: %s)", states()).isEqualTo("fallback for 42");
	}

	private Object states() {
		return this.context.getBean(BreakerRegistry.class)
			.all()
			.stream()
			.map((breaker) -> breaker.name() + "=" + breaker.state())
			.toList();
	}

}
