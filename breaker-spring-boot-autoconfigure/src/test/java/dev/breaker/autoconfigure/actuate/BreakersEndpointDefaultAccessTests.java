package dev.breaker.autoconfigure.actuate;

import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;

import dev.breaker.core.State;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Without {@code management.endpoint.breakers.access}, the endpoint reads but never
 * writes.
 */
@SpringBootTest(classes = ObservedApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT, properties = {
		"management.endpoints.web.exposure.include=breakers", "breaker.defaults.consecutive-failures=3" })
class BreakersEndpointDefaultAccessTests extends RunningActuator {

	@Test
	void readsAreAllowedByDefault() {
		this.registry.breaker("payments");

		assertThat(this.actuator.get("breakers").status()).isEqualTo(200);
		assertThat(this.actuator.get("breakers/payments").status()).isEqualTo(200);
	}

	@Test
	void anOverrideIsRefusedByDefault() {
		this.registry.breaker("payments");

		Actuator.Response response = this.actuator.postJson("breakers/payments", "{\"state\": \"FORCED_OPEN\"}");

		assertThat(response.status()).isEqualTo(405);
		assertThat(this.registry.breaker("payments").state()).isEqualTo(State.CLOSED);
	}

	@Test
	void aResetIsRefusedByDefault() {
		Calls.fail(this.registry.breaker("search"), 3);

		assertThat(this.actuator.delete("breakers/search").status()).isEqualTo(405);
		assertThat(this.registry.breaker("search").state()).isEqualTo(State.OPEN);
	}

}
