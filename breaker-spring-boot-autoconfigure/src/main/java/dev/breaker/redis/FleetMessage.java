package dev.breaker.redis;

import java.util.Objects;

/**
 * One transition as the fleet sees it, published on the Redis channel and stored under the breaker's key.
 *
 * <p>{@code ttlMillis} is relative (how long the circuit stays open from when Redis handled the
 * message), so replica clocks never have to agree; {@code generation} is the fleet-wide counter
 * Redis bumps on every shared transition, so a receiver can tell newer state from older.
 */
public record FleetMessage(Kind kind, String breaker, long generation, long ttlMillis, String replica, String reason) {

    /** What a replica announces. */
    public enum Kind { OPEN, CLOSED }

    public FleetMessage {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(breaker, "breaker");
        Objects.requireNonNull(replica, "replica");
        reason = reason == null ? "" : reason;
    }

    /**
     * Decodes the wire form written by the Lua scripts of {@link RedisBreakerStore}:
     * {@code kind \n generation \n ttlMillis \n replica \n breaker \n reason} (the reason is last, so it may hold anything).
     *
     * @return the message, or {@code null} when the text is not one of ours
     */
    public static FleetMessage decode(String text) {
        String[] parts = text.split("\n", 6);
        if (parts.length != 6) {
            return null;
        }
        try {
            return new FleetMessage(Kind.valueOf(parts[0]), parts[4], Long.parseLong(parts[1]),
                    Long.parseLong(parts[2]), parts[3], parts[5]);
        } catch (IllegalArgumentException notOurs) {
            return null;
        }
    }
}
