package dev.breaker.actuate.metrics;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;

import dev.breaker.redis.SharedStoreStatus;

/**
 * Publishes the shared store's health: {@code breaker_shared_store_up} (1 or 0),
 * {@code breaker_shared_store_errors_total} and
 * {@code breaker_shared_store_rejected_messages_total} in Prometheus.
 */
public final class SharedStoreMetrics implements MeterBinder {

	private final SharedStoreStatus status;

	public SharedStoreMetrics(SharedStoreStatus status) {
		this.status = status;
	}

	@Override
	public void bindTo(MeterRegistry registry) {
		Gauge.builder("breaker.shared.store.up", status, s -> s.up() ? 1 : 0)
			.description("1 while this replica reaches the shared Redis store, 0 while its breakers decide alone")
			.register(registry);
		FunctionCounter.builder("breaker.shared.store.errors", status, SharedStoreStatus::errors)
			.description("Shared store commands that failed or timed out, and connections lost")
			.register(registry);
		FunctionCounter.builder("breaker.shared.store.rejected.messages", status, SharedStoreStatus::rejected)
			.description(
					"Messages and stored values dropped: not the fleet's format, malformed, or (with a signing key) "
							+ "unsigned, forged or stale")
			.register(registry);
	}

}
