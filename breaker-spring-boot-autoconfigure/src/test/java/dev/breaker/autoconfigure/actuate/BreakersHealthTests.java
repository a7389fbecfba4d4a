package dev.breaker.autoconfigure.actuate;

import java.time.Duration;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;

import dev.breaker.core.Breaker;
import dev.breaker.core.ManualTicker;
import dev.breaker.core.State;

import static org.assertj.core.api.Assertions.assertThat;

@SpringBootTest(classes = ObservedApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "management.endpoints.web.exposure.include=health",
				"management.endpoint.health.show-details=always", "management.health.redis.enabled=false",
				"breaker.defaults.consecutive-failures=3", "breaker.defaults.open-wait=30s",
				"breaker.defaults.open-wait-jitter=0", "breaker.instances.payments.consecutive-failures=3",
				"breaker.instances.inventory.health-when-open=down",
				"breaker.instances.shipping.health-when-open=out-of-service",
				"breaker.instances.recommendations.tenants.max=100",
				"breaker.instances.recommendations.health-when-open=down" })
class BreakersHealthTests extends RunningActuator {

	@Autowired
	private ManualTicker ticker;

	@BeforeEach
	void createTheBreakers() {
		this.registry.breaker("payments");
		this.registry.breaker("inventory");
		this.registry.breaker("shipping");
	}

	@AfterEach
	void closeEveryBreaker() {
		for (Breaker breaker : this.registry.breakers()) {
			breaker.reset();
			this.registry.children(breaker.name()).forEach(Breaker::reset);
		}
	}

	@Test
	void detailsListEveryBreakersState() {
		Calls.fail(this.registry.breaker("payments"), 3);

		JsonNode details = breakersHealth().get("details");

		assertThat(details.get("payments").asString()).isEqualTo("OPEN");
		assertThat(details.get("inventory").asString()).isEqualTo("CLOSED");
		assertThat(details.get("shipping").asString()).isEqualTo("CLOSED");
	}

	@Test
	void detailsNameOnlyChildrenThatAreNotClosedAndCountTheRest() {
		this.registry.breaker("recommendations");
		for (int i = 0; i < 30; i++) {
			this.registry.breaker("recommendations", "user-" + i).forceOpen();
		}
		for (int i = 30; i < 40; i++) {
			this.registry.breaker("recommendations", "user-" + i);
		}

		JsonNode details = breakersHealth().get("details");

		assertThat(details.get("recommendations").asString()).isEqualTo("CLOSED");
		assertThat(details.propertyNames().stream().filter((name) -> name.startsWith("recommendations:"))).hasSize(20)
			.allSatisfy((name) -> assertThat(details.get(name).asString()).isEqualTo("FORCED_OPEN"));
		assertThat(details.get("unlistedChildren").get("recommendations").asInt()).isEqualTo(20);
	}

	@Test
	void anOpenBreakerLeavesHealthUpByDefault() {
		Calls.fail(this.registry.breaker("payments"), 3);

		Actuator.Response health = this.actuator.get("health");

		assertThat(health.status()).isEqualTo(200);
		assertThat(health.json().get("status").asString()).isEqualTo("UP");
		assertThat(breakersHealth().get("status").asString()).isEqualTo("UP");
	}

	@Test
	void anOpenBreakerReportsDownWhenItsInstanceAsks() {
		Calls.fail(this.registry.breaker("inventory"), 3);

		Actuator.Response health = this.actuator.get("health");

		assertThat(health.status()).isEqualTo(503);
		assertThat(health.json().get("status").asString()).isEqualTo("DOWN");
		assertThat(breakersHealth().get("status").asString()).isEqualTo("DOWN");
	}

	@Test
	void anOpenBreakerReportsOutOfServiceWhenItsInstanceAsks() {
		Calls.fail(this.registry.breaker("shipping"), 3);

		assertThat(breakersHealth().get("status").asString()).isEqualTo("OUT_OF_SERVICE");
	}

	@Test
	void downWinsOverOutOfService() {
		Calls.fail(this.registry.breaker("shipping"), 3);
		Calls.fail(this.registry.breaker("inventory"), 3);

		assertThat(breakersHealth().get("status").asString()).isEqualTo("DOWN");
	}

	@Test
	void onlyOpenChangesHealthNotHalfOpenOrAnOperatorsOverride() {
		Calls.fail(this.registry.breaker("inventory"), 3);
		this.ticker.advance(Duration.ofSeconds(30));
		assertThat(this.registry.breaker("inventory").state()).isEqualTo(State.HALF_OPEN);
		this.registry.breaker("shipping").forceOpen();

		assertThat(breakersHealth().get("status").asString()).isEqualTo("UP");
	}

	@Test
	void aChildFollowsItsParentsSetting() {
		this.registry.breaker("recommendations");
		Calls.fail(this.registry.breaker("recommendations", "user-7"), 3);

		JsonNode breakers = breakersHealth();

		assertThat(breakers.get("details").get("recommendations:user-7").asString()).isEqualTo("OPEN");
		assertThat(breakers.get("status").asString()).isEqualTo("DOWN");
	}

	@Test
	void theBreakerClosingAgainRestoresHealth() {
		Calls.fail(this.registry.breaker("inventory"), 3);
		assertThat(this.actuator.get("health").status()).isEqualTo(503);

		this.registry.breaker("inventory").reset();

		assertThat(this.actuator.get("health").status()).isEqualTo(200);
	}

	private JsonNode breakersHealth() {
		return this.actuator.get("health").json().get("components").get("breakers");
	}

}
