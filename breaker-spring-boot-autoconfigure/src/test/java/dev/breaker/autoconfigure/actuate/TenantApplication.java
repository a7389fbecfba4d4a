package dev.breaker.autoconfigure.actuate;

import java.util.List;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;

import dev.breaker.annotation.CircuitGuarded;
import dev.breaker.core.ManualTicker;

/**
 * A service with one breaker per user, the way the README's Quick start sets it up: a
 * user id taken from the request path is the tenant. Users whose id starts with
 * {@code down-} or {@code loud} fail; the others get their own recommendations.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
class TenantApplication {

	@Bean
	ManualTicker breakerTicker() {
		return new ManualTicker();
	}

	@Bean
	Recommendations recommendations() {
		return new Recommendations();
	}

	/** The guarded dependency. */
	static class Recommendations {

		@CircuitGuarded(name = "recommendations", tenant = "#userId", fallbackMethod = "popular")
		public List<String> recommend(String userId) {
			if (userId.startsWith("down-") || userId.startsWith("loud")) {
				throw new IllegalStateException("recommender down for this user's shard");
			}
			return List.of("for " + userId);
		}

		List<String> popular(String userId) {
			return List.of("popular");
		}

	}

	/** Registered as a member class of this configuration. */
	@RestController
	static class RecommendationsController {

		private final Recommendations recommendations;

		RecommendationsController(Recommendations recommendations) {
			this.recommendations = recommendations;
		}

		@GetMapping("/recommendations/{userId}")
		List<String> recommend(@PathVariable String userId) {
			return this.recommendations.recommend(userId);
		}

	}

}
