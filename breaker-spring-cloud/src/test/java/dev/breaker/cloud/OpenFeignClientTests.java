package dev.breaker.cloud;

import dev.breaker.cloud.FeignClients.InventoryClient;
import dev.breaker.core.Breaker;
import dev.breaker.core.BreakerRegistry;
import dev.breaker.core.State;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A real Spring Cloud OpenFeign client ({@link InventoryClient}) with
 * {@code spring.cloud.openfeign.circuitbreaker.enabled}, its circuit breakers grouped by
 * client name: each method is a child of the client's breaker, configured by
 * {@code breaker.instances.inventory}.
 */
class OpenFeignClientTests {

	private Backend backend;

	private ConfigurableApplicationContext context;

	@BeforeEach
	void start() throws Exception {
		this.backend = new Backend();
		this.context = FeignClients.run(this.backend.url(), "spring.cloud.openfeign.circuitbreaker.group.enabled=true",
				"breaker.instances.inventory.consecutive-failures=2",
				// one method is the whole client here: let one child's failures trip
				// the client's breaker
				"breaker.instances.inventory.tenants.min-failing=1",
				"breaker.instances.inventory.failure-rate-threshold=0", "breaker.instances.inventory.open-wait=1h",
				"breaker.instances.inventory.max-open-wait=1h");
	}

	@AfterEach
	void stop() {
		this.context.close();
		this.backend.close();
	}

	@Test
	void usesTheFallbackClassWhileTheBreakerIsOpen() {
		InventoryClient inventory = this.context.getBean(InventoryClient.class);
		assertThat(inventory.stock("sku-1")).isEqualTo("stock of /stock/sku-1");
		this.backend.fail(true);
		assertThat(inventory.stock("sku-1")).isEqualTo("fallback stock of sku-1");
		assertThat(inventory.stock("sku-1")).isEqualTo("fallback stock of sku-1");
		assertThat(this.backend.requests()).isEqualTo(3);

		BreakerRegistry registry = this.context.getBean(BreakerRegistry.class);
		Breaker client = registry.breaker("inventory");
		assertThat(registry.children("inventory")).singleElement().satisfies((method) -> {
			assertThat(method.name()).startsWith("inventory:InventoryClient");
			assertThat(method.state()).isEqualTo(State.OPEN);
		});
		assertThat(client.state()).isEqualTo(State.OPEN);

		this.backend.fail(false);
		assertThat(inventory.stock("sku-1")).isEqualTo("fallback stock of sku-1");
		assertThat(this.backend.requests()).as("an open breaker does not call the backend").isEqualTo(3);
	}

}
