package dev.breaker.autoconfigure.actuate;

import java.net.URI;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.context.annotation.Bean;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.RestClientException;

import dev.breaker.http.HostBreakers;
import dev.breaker.http.LoopbackServer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Hosts the application reached while it started, before the actuator's breaker tree was
 * built (a bean that fetches something over HTTP as it is made, with the auto-configured
 * {@code RestClient}): their breakers were made before the tree could hear of them, and
 * {@code /actuator/breakers} must list them all the same, as it lists the hosts reached
 * later. Over real HTTP on loopback, both ways.
 */
@SpringBootTest(classes = BreakersEndpointStartupHostsTests.StartupTrafficApplication.class,
		webEnvironment = WebEnvironment.RANDOM_PORT, properties = "management.endpoints.web.exposure.include=breakers")
class BreakersEndpointStartupHostsTests extends RunningActuator {

	/** A host that fails the request made at start-up, configured to trip on it. */
	private static final LoopbackServer failing = LoopbackServer.start();

	/** A host that answers the request made at start-up. */
	private static final LoopbackServer answering = LoopbackServer.start();

	@DynamicPropertySource
	static void hosts(DynamicPropertyRegistry properties) {
		properties.add("breaker.http.instances[127.0.0.1:" + failing.uri("/").getPort() + "].consecutive-failures",
				() -> "1");
		properties.add("startup.failing", () -> failing.uri("/status/503").toString());
		properties.add("startup.answering", () -> answering.uri("/status/200").toString());
	}

	@AfterAll
	static void stopServers() {
		failing.close();
		answering.close();
	}

	@Test
	void hostsReachedWhileTheApplicationStartedAreListedUnderTheirGroup() {
		assertThat(failing.requests()).as("requests to the failing host at start-up").isOne();
		assertThat(answering.requests()).as("requests to the answering host at start-up").isOne();

		JsonNode breakers = this.actuator.get("breakers").json().get("breakers");

		assertThat(breakers.has(HostBreakers.GROUP)).as("the http group in %s", breakers).isTrue();
		JsonNode http = breakers.get(HostBreakers.GROUP);
		assertThat(http.get("children").get(failing.breakerName()).get("state").asString()).isEqualTo("OPEN");
		assertThat(http.get("unlistedChildren").get("CLOSED").asInt()).as("the answering host, closed").isOne();
		assertThat(this.actuator.get("breakers/" + answering.breakerName()).status()).isEqualTo(200);
	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class StartupTrafficApplication {

		/** Reaches both hosts as it is made: before the breaker tree exists. */
		@Bean
		StartupFetch startupFetch(RestClient.Builder clients, org.springframework.core.env.Environment environment) {
			RestClient client = clients.build();
			get(client, URI.create(environment.getRequiredProperty("startup.failing")));
			get(client, URI.create(environment.getRequiredProperty("startup.answering")));
			return new StartupFetch();
		}

		private static void get(RestClient client, URI uri) {
			try {
				client.get().uri(uri).retrieve().toBodilessEntity();
			}
			catch (RestClientException failed) {
				// the failing host's 503: what trips its breaker
			}
		}

	}

	static final class StartupFetch {

	}

}
