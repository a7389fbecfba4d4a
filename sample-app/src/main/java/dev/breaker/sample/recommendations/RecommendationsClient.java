package dev.breaker.sample.recommendations;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;

import dev.breaker.annotation.CircuitGuarded;
import dev.breaker.sample.catalog.Catalog;
import dev.breaker.sample.dependency.Dependencies;
import dev.breaker.sample.dependency.DependencyClients;
import dev.breaker.sample.dependency.DependencyProperties;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Component;
import org.springframework.web.client.RestClient;

/**
 * The app's side of the recommendation service. Each user has a breaker of their own
 * ({@code recommendations:<userId>}), so one user whose recommendations fail does not cut
 * off everybody else; when a user's call fails, the fallbacks are tried in order.
 */
@Component
public class RecommendationsClient {

	/** Last night's batch: the users it covered and what it chose for them. */
	private static final Map<String, List<String>> PRECOMPUTED = Map.of("user-1", List.of("sku-3", "sku-15", "sku-17"),
			"user-2", List.of("sku-2", "sku-5", "sku-8"), "user-3", List.of("sku-1", "sku-14", "sku-24"));

	/** The best sellers: what anybody gets when nothing better is known. */
	private static final List<String> POPULAR = List.of("sku-1", "sku-3", "sku-7", "sku-16");

	private final RestClient client;

	private final Catalog catalog;

	private final RecentAnswers recentAnswers;

	RecommendationsClient(RestClient.Builder builder, Dependencies dependencies, DependencyProperties properties,
			Catalog catalog, @Value("${sample.recommendations.cache-ttl:5m}") Duration cacheTtl) {
		this.client = DependencyClients.restClient(builder, dependencies.recommendations(),
				properties.getRecommendations());
		this.catalog = catalog;
		this.recentAnswers = new RecentAnswers(cacheTtl, 10_000, Clock.systemUTC());
	}

	/**
	 * Asks the recommendation service; a good answer is remembered for the second
	 * fallback.
	 */
	@CircuitGuarded(name = "recommendations", tenant = "#userId",
			fallbackMethod = { "precomputed", "lastGoodAnswer", "popular" })
	public Recommendations recommend(String userId) {
		Answer answer = this.client.get().uri("/recommendations/{userId}", userId).retrieve().body(Answer.class);
		if (answer == null || answer.products() == null) {
			throw new IllegalStateException("recommendation service answered without products");
		}
		Recommendations live = new Recommendations(userId, this.catalog.findAll(answer.products()),
				Recommendations.LIVE);
		this.recentAnswers.remember(live);
		return live;
	}

	/** First fallback: last night's batch, for the users it covered. */
	public Recommendations precomputed(String userId, Throwable cause) {
		List<String> skus = PRECOMPUTED.get(userId);
		if (skus == null) {
			throw new NoSuchElementException("no precomputed recommendations for " + userId);
		}
		return new Recommendations(userId, this.catalog.findAll(skus), Recommendations.PRECOMPUTED);
	}

	/** Second fallback: the user's last good live answer, if it is recent enough. */
	public Recommendations lastGoodAnswer(String userId, Throwable cause) {
		return this.recentAnswers.find(userId)
			.map((answer) -> new Recommendations(userId, answer.products(), Recommendations.CACHED))
			.orElseThrow(() -> new NoSuchElementException("no recent answer for " + userId));
	}

	/** Last fallback: the best sellers, which never fails. */
	public Recommendations popular(String userId, Throwable cause) {
		return new Recommendations(userId, this.catalog.findAll(POPULAR), Recommendations.POPULAR);
	}

	record Answer(List<String> products) {
	}

}
