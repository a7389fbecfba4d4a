package dev.breaker.sample.recommendations;

import java.util.Map;

import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.client.RestClientException;

/**
 * {@code GET /recommendations/{userId}}: products for a user, from the service or a
 * fallback.
 */
@RestController
class RecommendationsController {

	private final RecommendationsClient recommendations;

	RecommendationsController(RecommendationsClient recommendations) {
		this.recommendations = recommendations;
	}

	/**
	 * Longer ids are no user's: refused before the breakers or the cache of answers keep
	 * them.
	 */
	static final int MAX_USER_ID_LENGTH = 128;

	@GetMapping("/recommendations/{userId}")
	ResponseEntity<?> recommendations(@PathVariable String userId) {
		if (userId.length() > MAX_USER_ID_LENGTH) {
			return ResponseEntity.badRequest()
				.body(Map.of("error", "a user id has at most " + MAX_USER_ID_LENGTH + " characters, but this one has "
						+ userId.length()));
		}
		return ResponseEntity.ok(this.recommendations.recommend(userId));
	}

	/** Without a breaker (breaker.enabled=false) a failed call reaches the customer. */
	@ExceptionHandler(RestClientException.class)
	ResponseEntity<Map<String, String>> serviceFailed(RestClientException ex) {
		return ResponseEntity.status(HttpStatus.BAD_GATEWAY)
			.body(Map.of("error", "recommendation service failed: " + ex.getMessage()));
	}

}
