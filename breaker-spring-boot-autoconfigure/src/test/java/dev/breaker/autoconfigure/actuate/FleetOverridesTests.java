package dev.breaker.autoconfigure.actuate;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
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
import dev.breaker.redis.RedisServerHarness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * In fleet mode an operator's override on one replica's endpoint applies on every replica, also on replicas started
 * later, unless it says {@code "scope": "replica"}. Each replica is a whole web application on its own port.
 */
class FleetOverridesTests {

	private static final Duration PROPAGATION = Duration.ofSeconds(3);

	private final List<ConfigurableApplicationContext> replicas = new ArrayList<>();

	private RedisServerHarness redis;

	@BeforeEach
	void startRedis() {
		this.redis = RedisServerHarness.start();
	}

	@AfterEach
	void stopAll() {
		this.replicas.forEach(ConfigurableApplicationContext::close);
		this.redis.close();
	}

	@Test
	void aForcedOpenOnOneReplicaAppliesOnEveryReplica() {
		ConfigurableApplicationContext r1 = replica("r1");
		ConfigurableApplicationContext r2 = replica("r2");
		ConfigurableApplicationContext r3 = replica("r3");

		Actuator.Response response = actuator(r1).postJson("breakers/payments", "{\"state\": \"FORCED_OPEN\"}");

		assertThat(response.status()).isEqualTo(200);
		assertThat(payments(r1).state()).isEqualTo(State.FORCED_OPEN);
		await().atMost(PROPAGATION).until(() -> payments(r2).state() == State.FORCED_OPEN
				&& payments(r3).state() == State.FORCED_OPEN);
		assertThat(last(payments(r1)).reason()).isEqualTo("operator: FORCED_OPEN on every replica");
		assertThat(last(payments(r2)).reason()).isEqualTo("operator on r1: FORCED_OPEN on every replica");
		assertThat(last(payments(r2)).remote()).isTrue();
		JsonNode override = actuator(r3).get("breakers/payments").json().get("fleet").get("override");
		assertThat(override.get("state").asString()).isEqualTo("FORCED_OPEN");
		assertThat(override.get("scope").asString()).isEqualTo("fleet");
		assertThat(override.get("replica").asString()).isEqualTo("r1");
	}

	@Test
	void aDisabledOnOneReplicaAppliesOnEveryReplica() {
		ConfigurableApplicationContext r1 = replica("r1");
		ConfigurableApplicationContext r2 = replica("r2");

		actuator(r2).postJson("breakers/payments", "{\"state\": \"DISABLED\"}");

		await().atMost(PROPAGATION).until(() -> payments(r1).state() == State.DISABLED);
	}

	@Test
	void aReplicaStartedLaterHonoursAStandingOverride() {
		ConfigurableApplicationContext r1 = replica("r1");
		actuator(r1).postJson("breakers/payments", "{\"state\": \"FORCED_OPEN\"}");
		actuator(r1).postJson("breakers/quotes", "{\"state\": \"DISABLED\"}");

		ConfigurableApplicationContext late = replica("late");

		assertThat(payments(late).state()).isEqualTo(State.FORCED_OPEN);
		assertThat(registry(late).breaker("quotes").state()).isEqualTo(State.DISABLED);
		assertThat(last(payments(late)).reason()).isEqualTo("operator on r1: FORCED_OPEN on every replica");
	}

	@Test
	void aResetOnAnyReplicaEndsTheOverrideOnEveryReplica() {
		ConfigurableApplicationContext r1 = replica("r1");
		ConfigurableApplicationContext r2 = replica("r2");
		actuator(r1).postJson("breakers/payments", "{\"state\": \"FORCED_OPEN\"}");
		await().atMost(PROPAGATION).until(() -> payments(r2).state() == State.FORCED_OPEN);

		Actuator.Response response = actuator(r2).delete("breakers/payments");

		assertThat(response.status()).isEqualTo(200);
		await().atMost(PROPAGATION).until(() -> payments(r1).state() == State.CLOSED);
		assertThat(last(payments(r1)).reason()).isEqualTo("operator on r2: CLOSED on every replica");
		ConfigurableApplicationContext late = replica("late");
		assertThat(payments(late).state()).isEqualTo(State.CLOSED);
	}

	@Test
	void aClosedOnOneReplicaClosesAnOpenCircuitOnEveryReplica() {
		ConfigurableApplicationContext r1 = replica("r1");
		ConfigurableApplicationContext r2 = replica("r2");
		Calls.fail(payments(r2), 3);
		assertThat(payments(r2).state()).isEqualTo(State.OPEN);

		actuator(r1).postJson("breakers/payments", "{\"state\": \"CLOSED\"}");

		await().atMost(PROPAGATION).until(() -> payments(r2).state() == State.CLOSED);
	}

	@Test
	void scopeReplicaKeepsTheOverrideOnThatReplica() {
		ConfigurableApplicationContext r1 = replica("r1");
		ConfigurableApplicationContext r2 = replica("r2");

		Actuator.Response response = actuator(r1).postJson("breakers/payments",
				"{\"state\": \"FORCED_OPEN\", \"scope\": \"replica\"}");

		assertThat(response.status()).isEqualTo(200);
		assertThat(payments(r1).state()).isEqualTo(State.FORCED_OPEN);
		assertThat(last(payments(r1)).reason()).isEqualTo("operator: FORCED_OPEN on this replica only");
		await().pollDelay(Duration.ofMillis(800)).atMost(PROPAGATION).until(() -> true);
		assertThat(payments(r2).state()).isEqualTo(State.CLOSED);
		JsonNode override = response.json().get("fleet").get("override");
		assertThat(override.get("scope").asString()).isEqualTo("replica");
		assertThat(replica("late").getBean(BreakerRegistry.class).breaker("payments").state()).isEqualTo(State.CLOSED);
	}

	@Test
	void anUnknownScopeIsABadRequestThatNamesTheAllowedScopes() {
		ConfigurableApplicationContext r1 = replica("r1");

		Actuator.Response response = actuator(r1).postJson("breakers/payments",
				"{\"state\": \"FORCED_OPEN\", \"scope\": \"galaxy\"}");

		assertThat(response.status()).isEqualTo(400);
		assertThat(response.json().get("error").asString())
			.isEqualTo("'scope' must be one of fleet, replica but was 'galaxy'");
		assertThat(payments(r1).state()).isEqualTo(State.CLOSED);
	}

	private ConfigurableApplicationContext replica(String id) {
		ConfigurableApplicationContext context = new SpringApplicationBuilder(FleetWebApplication.class)
			.web(WebApplicationType.SERVLET)
			.bannerMode(Banner.Mode.OFF)
			.logStartupInfo(false)
			.properties("server.port=0", "management.endpoints.web.exposure.include=breakers",
					"management.endpoint.breakers.access=unrestricted", "breaker.defaults.consecutive-failures=3",
					"breaker.defaults.open-wait=30s", "breaker.shared.redis.enabled=true",
					"breaker.shared.redis.replica-id=" + id, "breaker.shared.redis.reconnect-interval=200ms",
					"breaker.shared.redis.startup-sync-timeout=3s", "spring.data.redis.host=127.0.0.1",
					"spring.data.redis.port=" + this.redis.port())
			.run();
		this.replicas.add(context);
		BreakerRegistry registry = context.getBean(BreakerRegistry.class);
		registry.breaker("payments");
		registry.breaker("quotes");
		return context;
	}

	private static Actuator actuator(ConfigurableApplicationContext context) {
		return new Actuator(((WebServerApplicationContext) context).getWebServer().getPort());
	}

	private static BreakerRegistry registry(ConfigurableApplicationContext context) {
		return context.getBean(BreakerRegistry.class);
	}

	private static Breaker payments(ConfigurableApplicationContext context) {
		return registry(context).breaker("payments");
	}

	private static Transition last(Breaker breaker) {
		List<Transition> transitions = breaker.snapshot().transitions();
		return transitions.get(transitions.size() - 1);
	}

	/** A replica of a service: the starter's auto-configuration, actuator and Redis, nothing of its own. */
	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class FleetWebApplication {

	}

}
