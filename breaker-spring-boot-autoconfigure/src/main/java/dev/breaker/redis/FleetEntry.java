package dev.breaker.redis;

/**
 * What this replica knows of one breaker's fleet-wide state: the newest generation seen, and
 * whether (and until when, on this replica's monotonic clock) the fleet holds it open.
 *
 * <p>Read and written by the sync thread, Lettuce's reply threads and callers' threads (a transition
 * listener); every method is synchronized, none calls out.
 */
final class FleetEntry {

    private long generation;
    private boolean open;
    private long openUntilNanos;
    private String replica = "";
    private String reason = "";
    private boolean unpublishedTrip;
    private int episode;
    private int grant = -1;

    /** Takes a message into account if it is newer than what was seen; returns whether it was. */
    synchronized boolean advance(FleetMessage message, long nowNanos) {
        if (message.generation() <= generation) {
            return false;
        }
        generation = message.generation();
        open = message.kind() == FleetMessage.Kind.OPEN;
        openUntilNanos = open ? nowNanos + message.ttlMillis() * 1_000_000L : 0;
        replica = message.replica();
        reason = message.reason();
        return true;
    }

    synchronized long generation() {
        return generation;
    }

    /**
     * Redis lost its data (it restarted empty): generations start again from 1, and what we heard of open
     * circuits is no longer stored anywhere, so forget both; local breakers keep their own state.
     */
    synchronized void forget() {
        generation = 0;
        open = false;
        openUntilNanos = 0;
    }

    /** Milliseconds the fleet still holds the circuit open, 0 if it does not. */
    synchronized long remainingMillis(long nowNanos) {
        return open ? Math.max(0, (openUntilNanos - nowNanos) / 1_000_000L) : 0;
    }

    synchronized String replica() {
        return replica;
    }

    synchronized String reason() {
        return reason;
    }

    synchronized void tripUnpublished(boolean unpublished) {
        this.unpublishedTrip = unpublished;
    }

    synchronized boolean tripUnpublished() {
        return unpublishedTrip;
    }

    /**
     * Starts a new open episode (the circuit opened, or a newer open arrived): earlier probe claims no longer
     * apply. Returns its number, so answers that arrive after it ended are dropped.
     */
    synchronized int newEpisode() {
        grant = -1;
        return ++episode;
    }

    synchronized boolean inEpisode(int number) {
        return episode == number;
    }

    synchronized int episode() {
        return episode;
    }

    /** Probe slots the fleet gave this replica for the current episode, -1 when none were claimed. */
    synchronized int grant() {
        return grant;
    }

    synchronized void grant(int episodeNumber, int slots) {
        if (episode == episodeNumber) {
            grant = slots;
        }
    }
}
