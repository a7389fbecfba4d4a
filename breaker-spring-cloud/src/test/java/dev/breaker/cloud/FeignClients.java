package dev.breaker.cloud;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.cloud.openfeign.EnableFeignClients;
import org.springframework.cloud.openfeign.FeignClient;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;

/**
 * The OpenFeign clients of this module's tests, both on the backend a test names, and the
 * application that runs them: {@code spring.cloud.openfeign.circuitbreaker.enabled}, no
 * web server, each client's fallback a bean.
 */
final class FeignClients {

	private FeignClients() {
	}

	/**
	 * Runs the clients against the backend at {@code backendUrl}.
	 * @param backendUrl where both clients send their requests
	 * @param properties more properties (breaker's, Spring Cloud's)
	 * @return the running application
	 */
	static ConfigurableApplicationContext run(String backendUrl, String... properties) {
		return new SpringApplicationBuilder(FeignApplication.class).web(WebApplicationType.NONE)
			.properties("backend.url=" + backendUrl, "spring.cloud.openfeign.circuitbreaker.enabled=true",
					// the Gateway on this module's test class path needs a web server;
					// these clients have none
					"spring.cloud.gateway.server.webflux.enabled=false")
			.properties(properties)
			.run();
	}

	@FeignClient(name = "inventory", url = "${backend.url}", fallback = Fallbacks.class)
	interface InventoryClient {

		@GetMapping("/stock/{sku}")
		String stock(@PathVariable("sku") String sku);

	}

	@FeignClient(name = "orders", url = "${backend.url}", fallback = Fallbacks.class)
	interface OrdersClient {

		@GetMapping("/orders/{id}")
		String order(@PathVariable("id") String id);

	}

	/**
	 * What each client answers instead, on a failed call or while its breaker is open.
	 */
	static class Fallbacks implements InventoryClient, OrdersClient {

		@Override
		public String stock(String sku) {
			return "fallback stock of " + sku;
		}

		@Override
		public String order(String id) {
			return "fallback for " + id;
		}

	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	@EnableFeignClients(clients = { InventoryClient.class, OrdersClient.class })
	static class FeignApplication {

		@Bean
		Fallbacks fallbacks() {
			return new Fallbacks();
		}

	}

}
