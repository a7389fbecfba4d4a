package dev.breaker.autoconfigure.http;

import java.util.Map;

import dev.breaker.autoconfigure.BreakerProperties.OpenHealth;
import dev.breaker.core.Breaker;
import org.jspecify.annotations.Nullable;

/**
 * The {@code health-when-open} of each host configured under
 * {@code breaker.http.instances}, which the health contributor reports while that host's
 * breaker is open.
 */
public final class HostHealthWhenOpen {

	private final Map<String, OpenHealth> byBreaker;

	HostHealthWhenOpen(Map<String, OpenHealth> byBreaker) {
		this.byBreaker = Map.copyOf(byBreaker);
	}

	/**
	 * The health a breaker reports while open, if it is a host configured under
	 * {@code breaker.http.instances}.
	 * @param breaker a breaker of the registry
	 * @return the host's setting, or {@code null} for any other breaker
	 */
	public @Nullable OpenHealth of(Breaker breaker) {
		return this.byBreaker.get(breaker.name());
	}

}
