package dev.breaker.redis;

/**
 * What this replica knows of one breaker's fleet-wide state, for endpoints and logs.
 *
 * @param breaker the breaker's full name
 * @param storeUp whether this replica reaches Redis right now (when false, the breaker decides alone)
 * @param generation the newest fleet generation seen for it (0: never shared)
 * @param fleetOpen whether the fleet holds it open, as last heard
 * @param remainingMillis how much longer the fleet holds it open, 0 when it does not
 * @param replica the replica that made the newest shared transition ("" if none)
 * @param reason that transition's reason ("" if none)
 * @param probeSlots the half-open probe slots the fleet gave this replica for the current episode, -1 when none claimed
 */
public record FleetBreakerView(String breaker, boolean storeUp, long generation, boolean fleetOpen, long remainingMillis,
        String replica, String reason, int probeSlots) {
}
