package dev.breaker.sample.recommendations;

import java.util.List;

import dev.breaker.sample.catalog.Product;

/**
 * Products recommended to a user, and where they came from.
 *
 * @param userId the user
 * @param products the recommended products
 * @param source {@code live} (the recommendation service), {@code precomputed} (last
 * night's batch), {@code cached} (the last good live answer, at most 5 minutes old) or
 * {@code popular}
 */
public record Recommendations(String userId, List<Product> products, String source) {

	public static final String LIVE = "live";

	public static final String PRECOMPUTED = "precomputed";

	public static final String CACHED = "cached";

	public static final String POPULAR = "popular";

}
