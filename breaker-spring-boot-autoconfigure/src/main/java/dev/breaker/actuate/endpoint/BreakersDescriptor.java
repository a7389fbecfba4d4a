package dev.breaker.actuate.endpoint;

import java.time.Instant;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonInclude;
import org.jspecify.annotations.Nullable;

import dev.breaker.core.Breaker;
import dev.breaker.core.Snapshot;

/**
 * Every top-level breaker by name, each with those of its per-tenant and per-host
 * children that are not CLOSED.
 *
 * @param breakers the top-level breakers, in name order
 * @param shared the status of the store breakers share their state through (fleet mode),
 * null and left out of the JSON when breakers do not share state
 */
public record BreakersDescriptor(Map<String, BreakerSummary> breakers,
		@JsonInclude(JsonInclude.Include.NON_NULL) @Nullable Map<String, @Nullable Object> shared) {

	/**
	 * Breakers that share no state.
	 * @param breakers the top-level breakers, in name order
	 */
	public BreakersDescriptor(Map<String, BreakerSummary> breakers) {
		this(breakers, null);
	}

	/**
	 * What an operator reads first about one breaker.
	 *
	 * @param state the current state; null and left out of the JSON (as are the other
	 * numbers) for a name that has children but no breaker of its own, like {@code http}
	 * @param since when the breaker entered that state
	 * @param failureRate failure rate in the window, percent
	 * @param slowCallRate slow-call rate in the window, percent
	 * @param calls finished calls in the window that count toward the rates
	 * @param children the breaker's children that are not CLOSED, by full name, at most
	 * {@value BreakersEndpoint#MAX_LISTED_CHILDREN} (empty for a child or a breaker
	 * without children)
	 * @param unlistedChildren how many children are not listed, by state; left out of the
	 * JSON when every child is listed
	 */
	@JsonInclude(JsonInclude.Include.NON_NULL)
	public record BreakerSummary(@Nullable String state, @Nullable Instant since, @Nullable Double failureRate,
			@Nullable Double slowCallRate, @Nullable Long calls, Map<String, BreakerSummary> children,
			@JsonInclude(JsonInclude.Include.NON_EMPTY) Map<String, Integer> unlistedChildren) {

		static BreakerSummary of(Breaker breaker, Map<String, BreakerSummary> children) {
			return of(breaker, children, Map.of());
		}

		static BreakerSummary of(Breaker breaker, Map<String, BreakerSummary> children,
				Map<String, Integer> unlistedChildren) {
			Snapshot snapshot = breaker.snapshot();
			return new BreakerSummary(snapshot.state().name(), snapshot.since(), snapshot.failureRate(),
					snapshot.slowCallRate(), snapshot.calls(), children, unlistedChildren);
		}

		static BreakerSummary childrenOnly(Map<String, BreakerSummary> children,
				Map<String, Integer> unlistedChildren) {
			return new BreakerSummary(null, null, null, null, null, children, unlistedChildren);
		}

	}

}
