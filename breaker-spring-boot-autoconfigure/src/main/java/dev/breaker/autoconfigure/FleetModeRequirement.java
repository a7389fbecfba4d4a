package dev.breaker.autoconfigure;

import org.springframework.util.ClassUtils;

/**
 * Fleet mode asked for ({@code breaker.shared.redis.enabled=true}) needs Spring Data
 * Redis with Lettuce; without them every replica would quietly run alone, so start-up
 * stops instead.
 */
final class FleetModeRequirement {

	static final String PROPERTY = "breaker.shared.redis.enabled";

	private static final String[] REQUIRED = { "io.lettuce.core.RedisClient",
			"org.springframework.boot.data.redis.autoconfigure.DataRedisConnectionDetails" };

	private FleetModeRequirement() {
	}

	/**
	 * Checks that fleet mode can run.
	 * @param classLoader the application's class loader
	 * @return the satisfied requirement
	 * @throws InvalidBreakerPropertyException when a required library is missing
	 */
	static FleetModeRequirement check(ClassLoader classLoader) {
		for (String type : REQUIRED) {
			if (!ClassUtils.isPresent(type, classLoader)) {
				throw new InvalidBreakerPropertyException(PROPERTY, true,
						"false, unless Spring Data Redis with Lettuce is on the classpath "
								+ "(org.springframework.boot:spring-boot-starter-data-redis; " + type + " is missing)");
			}
		}
		return new FleetModeRequirement();
	}

}
