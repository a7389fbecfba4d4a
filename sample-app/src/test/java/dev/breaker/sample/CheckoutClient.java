package dev.breaker.sample;

import java.util.List;
import java.util.Map;

import tools.jackson.databind.JsonNode;

import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.client.RestClient;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The sample's HTTP API as the tests drive it: checkouts, recommendations and the chaos
 * API.
 */
final class CheckoutClient {

	private final RestClient http;

	CheckoutClient(int port) {
		this.http = RestClient.builder()
			.baseUrl("http://127.0.0.1:" + port)
			.defaultStatusHandler(HttpStatusCode::isError, (request, response) -> {
			})
			.build();
	}

	RestClient http() {
		return this.http;
	}

	void chaos(String dependency, String mode) {
		ResponseEntity<JsonNode> response = this.http.post()
			.uri("/chaos/{dependency}", dependency)
			.contentType(MediaType.APPLICATION_JSON)
			.body(Map.of("mode", mode))
			.retrieve()
			.toEntity(JsonNode.class);
		assertThat(response.getStatusCode().value()).isEqualTo(200);
		assertThat(response.getBody().path("mode").asString()).isEqualTo(mode);
	}

	JsonNode checkout() {
		ResponseEntity<JsonNode> response = this.http.post()
			.uri("/checkout")
			.contentType(MediaType.APPLICATION_JSON)
			.body(Map.of("userId", "user-1", "items", List.of(Map.of("sku", "sku-3", "quantity", 2))))
			.retrieve()
			.toEntity(JsonNode.class);
		assertThat(response.getStatusCode().value()).isEqualTo(200);
		return response.getBody();
	}

	JsonNode recommendations(String userId) {
		ResponseEntity<JsonNode> response = this.http.get()
			.uri("/recommendations/{userId}", userId)
			.retrieve()
			.toEntity(JsonNode.class);
		assertThat(response.getStatusCode().value()).isEqualTo(200);
		return response.getBody();
	}

}
