package dev.breaker.redis;

import dev.breaker.core.State;

/**
 * What this replica knows of one breaker's fleet-wide state, for endpoints and logs.
 *
 * @param breaker the breaker's full name
 * @param storeUp whether this replica reaches Redis right now (when false, the breaker
 * decides alone)
 * @param generation how many fleet-wide transitions of this breaker this replica has
 * applied (0: none yet)
 * @param fleetOpen whether the fleet holds it open, as last heard
 * @param remainingMillis how much longer the fleet holds it open, 0 when it does not
 * @param replica the replica that made the newest shared transition ("" if none)
 * @param reason that transition's reason ("" if none), escaped and at most 200 characters
 * @param probeSlots the half-open probe slots the fleet gave this replica for the episode
 * it follows, -1 when none were claimed
 * @param episode the fleet-wide open episode this replica's breaker follows ("" when
 * none)
 * @param override an operator's override in force here, fleet-wide or on this replica
 * only; {@code null} when none
 * @param untold this replica's operator's latest fleet-wide override, which Redis did not
 * take (it refused it, or did not answer): the fleet was not told; {@code null} when none
 */
public record FleetBreakerView(String breaker, boolean storeUp, long generation, boolean fleetOpen,
		long remainingMillis, String replica, String reason, int probeSlots, String episode, Override override,
		Untold untold) {

	/** How far an operator's override reaches. */
	public enum Scope {

		/** Every replica, including replicas started later. */
		FLEET,
		/** This replica only. */
		REPLICA

	}

	/**
	 * An operator's override.
	 *
	 * @param state FORCED_OPEN or DISABLED
	 * @param scope how far it reaches
	 * @param replica the replica whose operator made it
	 */
	public record Override(State state, Scope scope, String replica) {
	}

	/**
	 * An operator's fleet-wide override made here that the fleet was not told: Redis did
	 * not take it. While Redis answers and refuses writes it is sent again (until it is
	 * taken, or a later decision supersedes it).
	 *
	 * @param state the override (FORCED_OPEN, DISABLED or CLOSED)
	 * @param error why Redis did not take it, escaped and at most 200 characters
	 */
	public record Untold(State state, String error) {
	}
}
