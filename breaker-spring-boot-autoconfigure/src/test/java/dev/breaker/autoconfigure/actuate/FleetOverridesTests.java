package dev.breaker.autoconfigure.actuate;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.boot.Banner;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

import dev.breaker.core.Breaker;
import dev.breaker.core.BreakerRegistry;
import dev.breaker.core.State;
import dev.breaker.core.Transition;
import dev.breaker.redis.FleetKeys;
import dev.breaker.redis.RedisAdmin;
import dev.breaker.redis.RedisServerHarness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * In fleet mode an operator's override on one replica's endpoint applies on every
 * replica, also on replicas started later, unless it says {@code "scope": "replica"}.
 * Each replica is a whole web application on its own port; the fleet (two replicas) is
 * started once for the class.
 */
class FleetOverridesTests {

	private static final Duration PROPAGATION = Duration.ofSeconds(3);

	private static RedisServerHarness redis;

	private static RedisAdmin admin;

	private static ConfigurableApplicationContext r1;

	private static ConfigurableApplicationContext r2;

	@BeforeAll
	static void startFleet() {
		redis = RedisServerHarness.start();
		admin = new RedisAdmin(redis);
		r1 = replica("r1");
		r2 = replica("r2");
	}

	@AfterAll
	static void stopFleet() {
		r2.close();
		r1.close();
		admin.close();
		redis.close();
	}

	// each test has its own breaker: one's standing fleet overrides never meet another

	@Test
	void aForcedOpenOnOneReplicaAppliesOnEveryReplicaAndOnReplicasStartedLater() {
		Actuator.Response response = actuator(r1).postJson("breakers/forced", "{\"state\": \"FORCED_OPEN\"}");

		assertThat(response.status()).isEqualTo(200);
		assertThat(breaker(r1, "forced").state()).isEqualTo(State.FORCED_OPEN);
		assertThat(response.json().get("fleet").get("override").get("scope").asString()).isEqualTo("fleet");
		await().atMost(PROPAGATION).until(() -> breaker(r2, "forced").state() == State.FORCED_OPEN);
		assertThat(last(breaker(r1, "forced")).reason()).isEqualTo("operator: FORCED_OPEN on every replica");
		assertThat(last(breaker(r2, "forced")).reason()).isEqualTo("operator on r1: FORCED_OPEN on every replica");
		assertThat(last(breaker(r2, "forced")).remote()).isTrue();
		JsonNode override = actuator(r2).get("breakers/forced").json().get("fleet").get("override");
		assertThat(override.get("state").asString()).isEqualTo("FORCED_OPEN");
		assertThat(override.get("scope").asString()).isEqualTo("fleet");
		assertThat(override.get("replica").asString()).isEqualTo("r1");

		actuator(r2).postJson("breakers/late-disabled", "{\"state\": \"DISABLED\"}");
		await().atMost(PROPAGATION).until(() -> admin.redis().exists(KEYS.override("late-disabled")) == 1);

		ConfigurableApplicationContext late = replica("late");
		try {
			assertThat(breaker(late, "forced").state()).isEqualTo(State.FORCED_OPEN);
			assertThat(breaker(late, "late-disabled").state()).isEqualTo(State.DISABLED);
			assertThat(last(breaker(late, "forced")).reason())
				.isEqualTo("operator on r1: FORCED_OPEN on every replica");
		}
		finally {
			late.close();
		}
	}

	@Test
	void aDisabledOnOneReplicaAppliesOnEveryReplica() {
		actuator(r2).postJson("breakers/disabled", "{\"state\": \"DISABLED\"}");

		await().atMost(PROPAGATION).until(() -> breaker(r1, "disabled").state() == State.DISABLED);
		assertThat(admin.redis().hget(KEYS.override("disabled"), "state")).isEqualTo("DISABLED");
	}

	@Test
	void aResetOnAnyReplicaEndsTheOverrideOnEveryReplica() {
		actuator(r1).postJson("breakers/reset", "{\"state\": \"FORCED_OPEN\"}");
		await().atMost(PROPAGATION).until(() -> breaker(r2, "reset").state() == State.FORCED_OPEN);

		Actuator.Response response = actuator(r2).delete("breakers/reset");

		assertThat(response.status()).isEqualTo(200);
		await().atMost(PROPAGATION).until(() -> breaker(r1, "reset").state() == State.CLOSED);
		assertThat(last(breaker(r1, "reset")).reason()).isEqualTo("operator on r2: CLOSED on every replica");
		// replicas started later start CLOSED
		assertThat(admin.redis().exists(KEYS.override("reset"))).isZero();
	}

	@Test
	void aClosedOnOneReplicaClosesAnOpenCircuitOnEveryReplica() {
		Calls.fail(breaker(r2, "tripped"), 3);
		assertThat(breaker(r2, "tripped").state()).isEqualTo(State.OPEN);

		actuator(r1).postJson("breakers/tripped", "{\"state\": \"CLOSED\"}");

		await().atMost(PROPAGATION).until(() -> breaker(r2, "tripped").state() == State.CLOSED);
	}

	@Test
	void scopeReplicaKeepsTheOverrideOnThatReplica() {
		Actuator.Response response = actuator(r1).postJson("breakers/local-only",
				"{\"state\": \"FORCED_OPEN\", \"scope\": \"replica\"}");

		assertThat(response.status()).isEqualTo(200);
		assertThat(breaker(r1, "local-only").state()).isEqualTo(State.FORCED_OPEN);
		assertThat(last(breaker(r1, "local-only")).reason()).isEqualTo("operator: FORCED_OPEN on this replica only");
		JsonNode override = response.json().get("fleet").get("override");
		assertThat(override.get("scope").asString()).isEqualTo("replica");
		await().pollDelay(Duration.ofMillis(800)).atMost(PROPAGATION).until(() -> true);
		assertThat(breaker(r2, "local-only").state()).isEqualTo(State.CLOSED);
		assertThat(admin.redis().exists(KEYS.override("local-only"))).isZero();
	}

	@Test
	void anUnknownScopeIsABadRequestThatNamesTheAllowedScopes() {
		Actuator.Response response = actuator(r1).postJson("breakers/galaxy",
				"{\"state\": \"FORCED_OPEN\", \"scope\": \"galaxy\"}");

		assertThat(response.status()).isEqualTo(400);
		assertThat(response.json().get("error").asString())
			.isEqualTo("'scope' must be one of fleet, replica but was 'galaxy'");
		assertThat(breaker(r1, "galaxy").state()).isEqualTo(State.CLOSED);
	}

	private static final FleetKeys KEYS = new FleetKeys("breaker:");

	private static ConfigurableApplicationContext replica(String id) {
		ConfigurableApplicationContext context = new SpringApplicationBuilder(FleetWebApplication.class)
			.web(WebApplicationType.SERVLET)
			.bannerMode(Banner.Mode.OFF)
			.logStartupInfo(false)
			.properties("server.port=0", "management.endpoints.web.exposure.include=breakers",
					"management.endpoint.breakers.access=unrestricted", "breaker.defaults.consecutive-failures=3",
					"breaker.defaults.open-wait=30s", "breaker.shared.redis.enabled=true",
					"breaker.shared.redis.replica-id=" + id, "breaker.shared.redis.reconnect-interval=200ms",
					"breaker.shared.redis.startup-sync-timeout=3s", "spring.data.redis.host=127.0.0.1",
					"spring.data.redis.port=" + redis.port())
			.run();
		BreakerRegistry registry = context.getBean(BreakerRegistry.class);
		for (String name : List.of("forced", "late-disabled", "disabled", "reset", "tripped", "local-only", "galaxy")) {
			registry.breaker(name);
		}
		return context;
	}

	private static Actuator actuator(ConfigurableApplicationContext context) {
		return new Actuator(((WebServerApplicationContext) context).getWebServer().getPort());
	}

	private static Breaker breaker(ConfigurableApplicationContext context, String name) {
		return context.getBean(BreakerRegistry.class).breaker(name);
	}

	private static Transition last(Breaker breaker) {
		List<Transition> transitions = breaker.snapshot().transitions();
		return transitions.get(transitions.size() - 1);
	}

	/**
	 * A replica of a service: the starter's auto-configuration, actuator and Redis,
	 * nothing of its own.
	 */
	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class FleetWebApplication {

	}

}
