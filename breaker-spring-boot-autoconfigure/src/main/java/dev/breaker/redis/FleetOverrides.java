package dev.breaker.redis;

import dev.breaker.core.Breaker;
import dev.breaker.core.State;

/**
 * An operator's override in fleet mode: applied on this replica at once, and for the
 * whole fleet announced and (for FORCED_OPEN and DISABLED) stored, so replicas started
 * later honour it too. With the replica scope it stays on this replica. HALF_OPEN ("probe
 * now") is always this replica's only: probes are shared out by the fleet anyway.
 */
final class FleetOverrides {

	/**
	 * Set while an override is being applied here, so the transition it causes is not
	 * published as a trip or close.
	 */
	private static final ThreadLocal<Boolean> APPLYING = ThreadLocal.withInitial(() -> false);

	private final FleetSync sync;

	FleetOverrides(FleetSync sync) {
		this.sync = sync;
	}

	/**
	 * Whether the transition being reported on this thread is an operator's override
	 * applied through fleet mode.
	 */
	static boolean applying() {
		return APPLYING.get();
	}

	/**
	 * Runs {@code change} (an operator's override applied to a breaker here) so the
	 * transition it causes is not published as a trip or close.
	 */
	static void applyingHere(Runnable change) {
		boolean outer = APPLYING.get();
		APPLYING.set(true);
		try {
			change.run();
		}
		finally {
			APPLYING.set(outer);
		}
	}

	/** The reason a replica's own transition carries. */
	static String here(State state, boolean fleetWide) {
		return "operator: " + state + (fleetWide ? " on every replica" : " on this replica only");
	}

	/**
	 * The reason a peer's transition carries, naming the replica whose operator made it.
	 */
	static String fromPeer(String replica, State state) {
		return Printable.of("operator on " + replica + ": " + state + " on every replica", Printable.REASON);
	}

	/**
	 * Applies the override here (caller's thread) and, when {@code fleetWide}, tells
	 * every replica.
	 */
	void apply(Breaker breaker, State state, boolean fleetWide) {
		boolean shared = fleetWide && state != State.HALF_OPEN;
		FleetEntry entry = sync.entries().local(breaker.name());
		String reason = here(state, shared);
		FleetMessage announcement = shared
				? sync.trust().issue(FleetMessage.Kind.OVERRIDE, breaker.name(), "", 0, state, sync.replicaId(), reason)
				: null;
		if (state == State.HALF_OPEN) {
			// "probe now" is no standing decision: nothing to keep in step with
			applyingHere(() -> breaker.override(state, reason, false));
		}
		else {
			OverrideDecision decided;
			// the decision and its publish in one order (the entry's lock calls nothing
			// out): Redis publishes this replica's overrides in the order they were
			// decided
			synchronized (entry) {
				decided = entry.decide(OverrideDecision.operator(state, reason, sync.nextSequence(), announcement));
				if (announcement != null) {
					entry.overridden(announcement, sync.nextSequence());
					entry.publishes()
						.queue(PublishOrder.Publish.AFTER_TRIP, sync.thread(),
								() -> sync.store().override(announcement));
				}
			}
			// outside any lock: the breaker runs its listeners, which may override again
			OverrideDecision.settle(breaker, entry, decided);
		}
		if (state == State.CLOSED || state == State.HALF_OPEN) {
			entry.localOverride(null);
		}
		else {
			entry.localOverride(shared ? null : state);
		}
		if (announcement == null) {
			if (state == State.CLOSED) {
				entry.untie();
			}
			return;
		}
		if (state == State.CLOSED) {
			entry.untie();
		}
	}

}
