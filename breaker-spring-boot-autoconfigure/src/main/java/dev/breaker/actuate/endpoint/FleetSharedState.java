package dev.breaker.actuate.endpoint;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

import dev.breaker.core.Breaker;
import dev.breaker.core.State;
import dev.breaker.redis.FleetBreakerView;
import dev.breaker.redis.FleetSync;
import dev.breaker.redis.SharedStoreStatus;

/**
 * Fleet mode as the breakers endpoint shows it: the Redis store's status for the replica,
 * and each breaker's fleet view. Both come from this replica's memory
 * ({@link FleetSync#status()}, {@link FleetSync#view(String)}), never from a Redis round
 * trip, so the endpoint answers at once while Redis is slow or down, and says so.
 * Operators' overrides made through the endpoint reach every replica unless they ask for
 * this replica only.
 */
public final class FleetSharedState implements SharedBreakerState {

	private final FleetSync sync;

	public FleetSharedState(FleetSync sync) {
		this.sync = sync;
	}

	@Override
	public Map<String, Object> status() {
		SharedStoreStatus.View view = sync.status().view();
		Map<String, Object> shown = new LinkedHashMap<>();
		shown.put("store", "redis");
		shown.put("replicaId", view.replicaId());
		shown.put("up", view.up());
		shown.put("errors", view.errors());
		shown.put("lastError", view.lastError());
		shown.put("lastErrorAt", view.lastErrorAt());
		shown.put("lastSync", view.lastSync());
		shown.put("quorum", sync.settings().quorum());
		shown.put("signed", !sync.settings().signingKey().isEmpty());
		shown.put("rejectedMessages", view.rejected());
		shown.put("fleetOnlyBreakers", sync.fleetOnlyBreakers());
		return shown;
	}

	@Override
	public Map<String, Object> breaker(String name) {
		FleetBreakerView view = sync.view(name);
		Map<String, Object> shown = new LinkedHashMap<>();
		shown.put("storeUp", view.storeUp());
		shown.put("generation", view.generation());
		shown.put("open", view.fleetOpen());
		shown.put("remainingMillis", view.remainingMillis());
		shown.put("replica", view.replica());
		shown.put("reason", view.reason());
		shown.put("episode", view.episode());
		shown.put("probeSlots", view.probeSlots());
		Map<String, Object> override = null;
		if (view.override() != null) {
			override = new LinkedHashMap<>();
			override.put("state", view.override().state().name());
			override.put("scope", view.override().scope().name().toLowerCase(Locale.ROOT));
			override.put("replica", view.override().replica());
		}
		shown.put("override", override);
		Map<String, Object> untold = null;
		if (view.untold() != null) {
			// this replica's operator's fleet-wide override that Redis did not take
			untold = new LinkedHashMap<>();
			untold.put("state", view.untold().state().name());
			untold.put("error", view.untold().error());
		}
		shown.put("untold", untold);
		return shown;
	}

	@Override
	public boolean override(Breaker breaker, OperatorOverride override, boolean fleetWide) {
		State state = switch (override) {
			case FORCED_OPEN -> State.FORCED_OPEN;
			case DISABLED -> State.DISABLED;
			case HALF_OPEN -> State.HALF_OPEN;
			case CLOSED -> State.CLOSED;
		};
		sync.override(breaker, state, fleetWide);
		return true;
	}

}
