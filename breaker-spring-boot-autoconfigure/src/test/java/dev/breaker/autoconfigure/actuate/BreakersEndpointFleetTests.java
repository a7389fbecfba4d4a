package dev.breaker.autoconfigure.actuate;

import java.time.Duration;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import dev.breaker.core.Breaker;
import dev.breaker.core.State;
import dev.breaker.redis.RedisServerHarness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The breakers endpoint of a replica in fleet mode, against a real Redis server that a
 * test stops and starts again: the list shows the shared store's status, a breaker's
 * snapshot its fleet view.
 */
@SpringBootTest(classes = ObservedApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "management.endpoints.web.exposure.include=breakers", "breaker.defaults.consecutive-failures=3",
				"breaker.defaults.open-wait=30s", "breaker.defaults.open-wait-jitter=0",
				"breaker.shared.redis.enabled=true", "breaker.shared.redis.replica-id=endpoint-replica",
				"breaker.shared.redis.reconnect-interval=200ms", "breaker.shared.redis.startup-sync-timeout=3s",
				// this replica's own trip is the fleet's: the view of a shared trip is
				// what is shown here
				"breaker.shared.redis.quorum=1", "spring.data.redis.host=127.0.0.1" })
// the replica goes with its Redis server: no cached context reconnects to a closed port
@DirtiesContext
class BreakersEndpointFleetTests extends RunningActuator {

	private static final Duration BOUND = Duration.ofSeconds(10);

	private static final RedisServerHarness redis = RedisServerHarness.start();

	@DynamicPropertySource
	static void redisPort(DynamicPropertyRegistry properties) {
		properties.add("spring.data.redis.port", redis::port);
	}

	@AfterAll
	static void stopRedis() {
		redis.close();
	}

	@BeforeEach
	void awaitTheSharedStore() {
		await().atMost(BOUND).until(() -> shared().get("up").asBoolean());
	}

	@Test
	void listsTheSharedStoreAsUpAndShowsABreakersFleetView() {
		Breaker ledger = this.registry.breaker("fleet-ledger");
		Calls.fail(ledger, 3);
		assertThat(ledger.state()).isEqualTo(State.OPEN);

		JsonNode shared = shared();
		assertThat(shared.get("store").asString()).isEqualTo("redis");
		assertThat(shared.get("replicaId").asString()).isEqualTo("endpoint-replica");
		assertThat(shared.get("up").asBoolean()).isTrue();
		assertThat(shared.get("lastSync").asString()).isNotEmpty();
		assertThat(shared.get("quorum").asInt()).isEqualTo(1);
		assertThat(shared.get("signed").asBoolean()).isFalse();
		assertThat(shared.get("rejectedMessages").asLong()).isZero();
		assertThat(shared.get("fleetOnlyBreakers").asInt()).isZero();
		// the trip reaches Redis on the sync thread; the fleet view shows the generation
		// Redis gave it
		await().atMost(BOUND).until(() -> fleet("fleet-ledger").get("generation").asLong() > 0);
		Actuator.Response response = this.actuator.get("breakers/fleet-ledger");
		assertThat(response.status()).isEqualTo(200);
		assertThat(response.json().get("state").asString()).isEqualTo("OPEN");
		JsonNode fleet = response.json().get("fleet");
		assertThat(fleet.get("storeUp").asBoolean()).isTrue();
		assertThat(fleet.get("open").asBoolean()).isTrue();
		assertThat(fleet.get("remainingMillis").asLong()).isBetween(1L, 30_000L);
		assertThat(fleet.get("replica").asString()).isEqualTo("endpoint-replica");
		assertThat(fleet.get("reason").asString()).isEqualTo("consecutive failures 3 >= 3");
		assertThat(fleet.get("episode").asString()).isNotEmpty();
		assertThat(fleet.get("override").isNull()).isTrue();
		assertThat(this.actuator.get("breakers").json().get("breakers").get("fleet-ledger").get("state").asString())
			.isEqualTo("OPEN");
	}

	@Test
	void saysTheStoreIsDownWhileRedisIsStoppedAndCallsStillFlow() throws Exception {
		Breaker orders = this.registry.breaker("fleet-orders");
		long errorsBefore = shared().get("errors").asLong();

		redis.stop();
		try {
			await().atMost(BOUND).until(() -> !shared().get("up").asBoolean());
			JsonNode shared = shared();
			assertThat(shared.get("errors").asLong()).isGreaterThan(errorsBefore);
			assertThat(shared.get("lastError").asString()).isNotEmpty();
			assertThat(shared.get("lastErrorAt").asString()).isNotEmpty();
			assertThat(fleet("fleet-orders").get("storeUp").asBoolean()).isFalse();

			assertThat(orders.call(() -> "served without Redis")).isEqualTo("served without Redis");
			Calls.fail(orders, 3);
			Actuator.Response response = this.actuator.get("breakers/fleet-orders");
			assertThat(response.status()).isEqualTo(200);
			assertThat(response.json().get("state").asString()).isEqualTo("OPEN");
			assertThat(response.json().get("fleet").get("storeUp").asBoolean()).isFalse();
		}
		finally {
			redis.restart();
		}
		await().atMost(BOUND).until(() -> shared().get("up").asBoolean());
	}

	private JsonNode shared() {
		Actuator.Response response = this.actuator.get("breakers");
		assertThat(response.status()).isEqualTo(200);
		return response.json().get("shared");
	}

	private JsonNode fleet(String breaker) {
		Actuator.Response response = this.actuator.get("breakers/" + breaker);
		assertThat(response.status()).isEqualTo(200);
		return response.json().get("fleet");
	}

}
