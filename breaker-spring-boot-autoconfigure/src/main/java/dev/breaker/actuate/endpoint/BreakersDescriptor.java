package dev.breaker.actuate.endpoint;

import java.time.Instant;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import dev.breaker.core.Breaker;
import dev.breaker.core.Snapshot;

/**
 * Every top-level breaker by name, each with its per-tenant and per-host children.
 *
 * @param breakers the top-level breakers, in name order
 */
public record BreakersDescriptor(Map<String, BreakerSummary> breakers) {

	/**
	 * What an operator reads first about one breaker.
	 *
	 * @param state the current state; null (as are the other numbers) for a name that has
	 * children but no breaker of its own, like {@code http}
	 * @param since when the breaker entered that state
	 * @param failureRate failure rate in the window, percent
	 * @param slowCallRate slow-call rate in the window, percent
	 * @param calls finished calls in the window that count toward the rates
	 * @param children the breaker's children by full name (empty for a child or a breaker
	 * without children)
	 */
	public record BreakerSummary(@Nullable String state, @Nullable Instant since, @Nullable Double failureRate,
			@Nullable Double slowCallRate, @Nullable Long calls, Map<String, BreakerSummary> children) {

		static BreakerSummary of(Breaker breaker, Map<String, BreakerSummary> children) {
			Snapshot snapshot = breaker.snapshot();
			return new BreakerSummary(snapshot.state().name(), snapshot.since(), snapshot.failureRate(),
					snapshot.slowCallRate(), snapshot.calls(), children);
		}

		static BreakerSummary childrenOnly(Map<String, BreakerSummary> children) {
			return new BreakerSummary(null, null, null, null, null, children);
		}

	}

}
