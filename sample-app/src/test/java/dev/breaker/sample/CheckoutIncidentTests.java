package dev.breaker.sample;

import java.time.Duration;
import java.util.Map;

import dev.breaker.core.Breaker;
import dev.breaker.core.State;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.test.context.ActiveProfiles;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The checkout app against its real dependency servers, driven through the chaos API. */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@ActiveProfiles("test")
class CheckoutIncidentTests extends RunningCheckout {

	@Test
	void checkoutsArePaidWhileTheGatewayIsHealthy() {
		assertThat(this.client.checkout().path("payment").path("status").asString()).isEqualTo("PAID");
		assertThat(this.registry.breaker("payments").state()).isEqualTo(State.CLOSED);
	}

	@Test
	void catalogStaysUpWhilePaymentsIsWedged() {
		this.client.chaos("payments", "wedged");
		for (int i = 0; i < 3; i++) {
			this.client.checkout();
		}
		ResponseEntity<JsonNode> catalog = this.client.http().get().uri("/catalog").retrieve().toEntity(JsonNode.class);
		assertThat(catalog.getStatusCode().value()).isEqualTo(200);
		assertThat(catalog.getBody()).hasSize(24);
	}

	@Test
	void paymentsBreakerClosesOnceTheGatewayRecovers() {
		this.client.chaos("payments", "down");
		for (int i = 0; i < 3; i++) {
			this.client.checkout();
		}
		assertThat(this.registry.breaker("payments").state()).isEqualTo(State.OPEN);
		this.client.chaos("payments", "healthy");
		await().atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(100)).untilAsserted(() -> {
			this.client.checkout();
			assertThat(this.registry.breaker("payments").state()).isEqualTo(State.CLOSED);
		});
		assertThat(this.client.checkout().path("payment").path("status").asString()).isEqualTo("PAID");
	}

	@Test
	void recommendationsFallBackTierByTier() {
		assertThat(this.client.recommendations("user-9").path("source").asString()).isEqualTo("live");
		this.client.chaos("recommendations", "down");
		assertThat(this.client.recommendations("user-1").path("source").asString()).isEqualTo("precomputed");
		assertThat(this.client.recommendations("user-9").path("source").asString()).isEqualTo("cached");
		assertThat(this.client.recommendations("user-77").path("source").asString()).isEqualTo("popular");
		assertThat(this.client.recommendations("user-77").path("products")).isNotEmpty();
	}

	@Test
	void eachUserHasABreakerOfTheirOwn() {
		for (int user = 10; user < 20; user++) {
			assertThat(this.client.recommendations("user-" + user).path("source").asString()).isEqualTo("live");
		}
		this.client.chaos("recommendations", "down");
		for (int i = 0; i < 3; i++) {
			this.client.recommendations("user-42");
		}
		assertThat(this.registry.find("recommendations:user-42")).map(Breaker::state).contains(State.OPEN);
		assertThat(this.registry.breaker("recommendations").state()).as("3 failures in 13 calls")
			.isEqualTo(State.CLOSED);
		this.client.chaos("recommendations", "healthy");
		assertThat(this.client.recommendations("user-5").path("source").asString()).isEqualTo("live");
		assertThat(this.client.recommendations("user-42").path("source").asString()).isEqualTo("popular");
	}

	@Test
	void chaosApiRejectsAnUnknownModeAndAnUnknownDependency() {
		ResponseEntity<String> badMode = this.client.http()
			.post()
			.uri("/chaos/payments")
			.contentType(MediaType.APPLICATION_JSON)
			.body(Map.of("mode", "melting"))
			.retrieve()
			.toEntity(String.class);
		assertThat(badMode.getStatusCode().value()).isEqualTo(400);
		assertThat(badMode.getBody()).contains("use one of healthy, slow, wedged, down, flaky");
		ResponseEntity<String> unknown = this.client.http()
			.post()
			.uri("/chaos/inventory")
			.contentType(MediaType.APPLICATION_JSON)
			.body(Map.of("mode", "down"))
			.retrieve()
			.toEntity(String.class);
		assertThat(unknown.getStatusCode().value()).isEqualTo(404);
	}

	@Test
	void chaosApiShowsTheModeOfEveryDependency() {
		this.client.chaos("recommendations", "slow");
		JsonNode chaos = this.client.http().get().uri("/chaos").retrieve().body(JsonNode.class);
		assertThat(chaos.path("payments").path("mode").asString()).isEqualTo("healthy");
		assertThat(chaos.path("recommendations").path("mode").asString()).isEqualTo("slow");
	}

	@Test
	void aUserIdLongerThan128CharactersIsRefusedBeforeAnythingKeepsIt() {
		ResponseEntity<JsonNode> response = this.client.http()
			.get()
			.uri("/recommendations/{userId}", "u".repeat(7000))
			.retrieve()
			.toEntity(JsonNode.class);

		assertThat(response.getStatusCode().value()).isEqualTo(400);
		assertThat(response.getBody().path("error").asString())
			.isEqualTo("a user id has at most 128 characters, but this one has 7000");
		assertThat(this.registry.children("recommendations")).noneMatch((child) -> child.key().startsWith("uuu"));
	}

}
