package dev.breaker.sample;

import java.time.Duration;
import java.util.Map;

import dev.breaker.core.Breaker;
import dev.breaker.core.BreakerRegistry;
import dev.breaker.core.State;
import dev.breaker.sample.checkout.PaymentQueue;
import dev.breaker.sample.checkout.QueuedPayments;
import dev.breaker.sample.dependency.ChaosMode;
import dev.breaker.sample.dependency.Dependencies;
import dev.breaker.sample.dependency.DependencyServer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.web.client.RestClient;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The checkout app against its real dependency servers, driven through the chaos API. */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@ActiveProfiles("test")
class CheckoutIncidentTests {

	@LocalServerPort
	private int port;

	@Autowired
	private BreakerRegistry registry;

	@Autowired
	private Dependencies dependencies;

	@Autowired
	private PaymentQueue paymentQueue;

	@Autowired
	private QueuedPayments queuedPayments;

	private RestClient http;

	@BeforeEach
	void healthyAndClosed() {
		this.http = RestClient.builder()
			.baseUrl("http://127.0.0.1:" + this.port)
			.defaultStatusHandler(HttpStatusCode::isError, (request, response) -> {
			})
			.build();
		for (DependencyServer dependency : this.dependencies.all()) {
			dependency.chaos(dependency.chaos().withMode(ChaosMode.HEALTHY));
		}
		for (Breaker breaker : this.registry.breakers()) {
			breaker.reset();
			this.registry.children(breaker.name()).forEach(Breaker::reset);
		}
		this.registry.children("http").forEach(Breaker::reset);
	}

	@Test
	void checkoutsArePaidWhileTheGatewayIsHealthy() {
		assertThat(checkout().path("payment").path("status").asString()).isEqualTo("PAID");
		assertThat(this.registry.breaker("payments").state()).isEqualTo(State.CLOSED);
	}

	@Test
	void wedgedGatewayTripsThePaymentsBreakerAndCheckoutsAreQueued() {
		chaos("payments", "wedged");
		int queuedBefore = this.paymentQueue.size();
		for (int i = 0; i < 3; i++) {
			assertThat(checkout().path("payment").path("status").asString()).isEqualTo("QUEUED");
		}
		assertThat(this.registry.breaker("payments").state()).isEqualTo(State.OPEN);
		assertThat(this.registry.breaker("payments").snapshot().transitions()).last()
			.satisfies((transition) -> assertThat(transition.reason()).contains("3"));

		long reachedGateway = this.dependencies.payments().counts().wedged();
		JsonNode rejected = checkout();
		assertThat(this.dependencies.payments().counts().wedged()).as("an open breaker does not call the gateway")
			.isEqualTo(reachedGateway);
		assertThat(rejected.path("payment").path("status").asString()).isEqualTo("QUEUED");
		assertThat(rejected.path("payment").path("reason").asString()).contains("OPEN");
		assertThat(this.paymentQueue.size()).isEqualTo(queuedBefore + 4);
	}

	@Test
	void catalogStaysUpWhilePaymentsIsWedged() {
		chaos("payments", "wedged");
		for (int i = 0; i < 3; i++) {
			checkout();
		}
		ResponseEntity<JsonNode> catalog = this.http.get().uri("/catalog").retrieve().toEntity(JsonNode.class);
		assertThat(catalog.getStatusCode().value()).isEqualTo(200);
		assertThat(catalog.getBody()).hasSize(24);
	}

	@Test
	void paymentsBreakerClosesOnceTheGatewayRecovers() {
		chaos("payments", "down");
		for (int i = 0; i < 3; i++) {
			checkout();
		}
		assertThat(this.registry.breaker("payments").state()).isEqualTo(State.OPEN);
		chaos("payments", "healthy");
		await().atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(100)).untilAsserted(() -> {
			checkout();
			assertThat(this.registry.breaker("payments").state()).isEqualTo(State.CLOSED);
		});
		assertThat(checkout().path("payment").path("status").asString()).isEqualTo("PAID");
	}

	@Test
	void queuedPaymentsAreTakenOnceTheBreakerIsClosedAgain() {
		chaos("payments", "down");
		for (int i = 0; i < 3; i++) {
			checkout();
		}
		assertThat(this.paymentQueue.size()).isGreaterThanOrEqualTo(3);
		assertThat(this.queuedPayments.retryQueued()).as("nothing is taken while the breaker is open").isZero();
		chaos("payments", "healthy");
		this.registry.breaker("payments").reset();
		long takenBefore = this.paymentQueue.settledCount();
		while (this.paymentQueue.size() > 0) {
			assertThat(this.queuedPayments.retryQueued()).isPositive();
		}
		assertThat(this.paymentQueue.settledCount()).isGreaterThanOrEqualTo(takenBefore + 3);
	}

	@Test
	void recommendationsFallBackTierByTier() {
		assertThat(recommendations("user-9").path("source").asString()).isEqualTo("live");
		chaos("recommendations", "down");
		assertThat(recommendations("user-1").path("source").asString()).isEqualTo("precomputed");
		assertThat(recommendations("user-9").path("source").asString()).isEqualTo("cached");
		assertThat(recommendations("user-77").path("source").asString()).isEqualTo("popular");
		assertThat(recommendations("user-77").path("products")).isNotEmpty();
	}

	@Test
	void eachUserHasABreakerOfTheirOwn() {
		for (int user = 10; user < 20; user++) {
			assertThat(recommendations("user-" + user).path("source").asString()).isEqualTo("live");
		}
		chaos("recommendations", "down");
		for (int i = 0; i < 3; i++) {
			recommendations("user-42");
		}
		assertThat(this.registry.find("recommendations:user-42")).map(Breaker::state).contains(State.OPEN);
		assertThat(this.registry.breaker("recommendations").state()).as("3 failures in 13 calls")
			.isEqualTo(State.CLOSED);
		chaos("recommendations", "healthy");
		assertThat(recommendations("user-5").path("source").asString()).isEqualTo("live");
		assertThat(recommendations("user-42").path("source").asString()).isEqualTo("popular");
	}

	@Test
	void chaosApiRejectsAnUnknownModeAndAnUnknownDependency() {
		ResponseEntity<String> badMode = this.http.post()
			.uri("/chaos/payments")
			.contentType(MediaType.APPLICATION_JSON)
			.body(Map.of("mode", "melting"))
			.retrieve()
			.toEntity(String.class);
		assertThat(badMode.getStatusCode().value()).isEqualTo(400);
		assertThat(badMode.getBody()).contains("use one of healthy, slow, wedged, down, flaky");
		ResponseEntity<String> unknown = this.http.post()
			.uri("/chaos/inventory")
			.contentType(MediaType.APPLICATION_JSON)
			.body(Map.of("mode", "down"))
			.retrieve()
			.toEntity(String.class);
		assertThat(unknown.getStatusCode().value()).isEqualTo(404);
	}

	@Test
	void chaosApiShowsTheModeOfEveryDependency() {
		chaos("recommendations", "slow");
		JsonNode chaos = this.http.get().uri("/chaos").retrieve().body(JsonNode.class);
		assertThat(chaos.path("payments").path("mode").asString()).isEqualTo("healthy");
		assertThat(chaos.path("recommendations").path("mode").asString()).isEqualTo("slow");
	}

	private void chaos(String dependency, String mode) {
		ResponseEntity<JsonNode> response = this.http.post()
			.uri("/chaos/{dependency}", dependency)
			.contentType(MediaType.APPLICATION_JSON)
			.body(Map.of("mode", mode))
			.retrieve()
			.toEntity(JsonNode.class);
		assertThat(response.getStatusCode().value()).isEqualTo(200);
		assertThat(response.getBody().path("mode").asString()).isEqualTo(mode);
	}

	private JsonNode checkout() {
		ResponseEntity<JsonNode> response = this.http.post()
			.uri("/checkout")
			.contentType(MediaType.APPLICATION_JSON)
			.body(Map.of("userId", "user-1", "items", java.util.List.of(Map.of("sku", "sku-3", "quantity", 2))))
			.retrieve()
			.toEntity(JsonNode.class);
		assertThat(response.getStatusCode().value()).isEqualTo(200);
		return response.getBody();
	}

	@Test
	void aUserIdLongerThan128CharactersIsRefusedBeforeAnythingKeepsIt() {
		ResponseEntity<JsonNode> response = this.http.get()
			.uri("/recommendations/{userId}", "u".repeat(7000))
			.retrieve()
			.toEntity(JsonNode.class);

		assertThat(response.getStatusCode().value()).isEqualTo(400);
		assertThat(response.getBody().path("error").asString())
			.isEqualTo("a user id has at most 128 characters, but this one has 7000");
		assertThat(this.registry.children("recommendations")).noneMatch((child) -> child.key().startsWith("uuu"));
	}

	private JsonNode recommendations(String userId) {
		ResponseEntity<JsonNode> response = this.http.get()
			.uri("/recommendations/{userId}", userId)
			.retrieve()
			.toEntity(JsonNode.class);
		assertThat(response.getStatusCode().value()).isEqualTo(200);
		return response.getBody();
	}

}
