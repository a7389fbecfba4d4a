package dev.breaker.redis;

import java.time.Duration;

import dev.breaker.core.Breaker;
import dev.breaker.core.Snapshot;
import dev.breaker.core.State;

/**
 * Shares half-open probes out across the fleet: the whole fleet runs at most {@code halfOpenMaxProbes}
 * concurrent probes per episode, not that many per replica.
 *
 * <p>Slots are claimed from Redis as soon as a replica learns the circuit is open (the episode is named by the fleet
 * generation of that open), so the answer is in long before the open wait ends. A replica that gets slots
 * half-opens with its share applied the moment it enters half-open; one that gets none stays open (its wait is
 * extended past the fleet's) and asks again, so it never starts an episode in which a probe could slip through
 * before its share is known. The first replica to ask, normally the one that tripped, gets the slots, and keeps them
 * while it renews a short lease: when it dies, the others get them within one lease. When Redis cannot answer, the
 * breaker's own limit applies.
 */
final class ProbeShare {

    /** How often a replica that got no probe slots asks again (staying open meanwhile), and a holder renews its lease. */
    private static final long RECLAIM_MILLIS = 500;
    /** How long slots stay a replica's without renewal: a replica that dies frees them within this. */
    private static final long LEASE_MILLIS = 3 * RECLAIM_MILLIS;

    private final FleetSync sync;

    ProbeShare(FleetSync sync) {
        this.sync = sync;
    }

    /**
     * The fleet holds the circuit open (sync thread, once the open's generation is known): claim this replica's
     * slots for the coming half-open episode now, long before the open wait ends, so the answer is in when it does.
     */
    void opened(Breaker breaker) {
        FleetEntry entry = sync.entry(breaker.name());
        int episode = entry.newEpisode();
        claimProbes(breaker, entry, episode);
    }

    private void claimProbes(Breaker breaker, FleetEntry entry, int episode) {
        long generation = entry.generation();
        if (sync.closed() || !entry.inEpisode(episode) || !sync.status().up() || generation == 0) {
            return;
        }
        int max = breaker.config().halfOpenMaxProbes();
        long slotsLive = openMillis(breaker) + breaker.config().halfOpenMaxWait().toMillis();
        sync.store().claimProbes(breaker.name(), generation, sync.replicaId(), max, max, LEASE_MILLIS, slotsLive)
                .whenComplete((granted, error) -> sync.submit(() -> applyGrant(breaker, entry, episode, generation,
                        error == null ? granted : -1)));
    }

    private void applyGrant(Breaker breaker, FleetEntry entry, int episode, long generation, int granted) {
        if (!entry.inEpisode(episode)) {
            return;
        }
        if (granted < 0) {
            if (breaker.state() == State.HALF_OPEN) {
                breaker.limitProbes(breaker.config().halfOpenMaxProbes());
            }
            return;
        }
        entry.grant(episode, granted);
        if (granted > 0) {
            sync.schedule(() -> renewLease(breaker, entry, episode, generation), RECLAIM_MILLIS);
        }
        State state = breaker.state(); // a due half-open happens here, and takes the grant
        if (state == State.HALF_OPEN) {
            breaker.limitProbes(granted);
        } else if (state == State.OPEN && granted == 0) {
            // no slot: stay open past the fleet's wait, and ask again just before this extension ends
            long stayOpen = openMillis(breaker) + RECLAIM_MILLIS;
            breaker.retryAfter(Duration.ofMillis(stayOpen));
            sync.schedule(() -> claimProbes(breaker, entry, episode), stayOpen - RECLAIM_MILLIS / 5);
        }
    }

    /** While this replica holds slots for the episode (open or half-open), keeps them from being handed out again. */
    private void renewLease(Breaker breaker, FleetEntry entry, int episode, long generation) {
        State state = breaker.state();
        if (sync.closed() || !entry.inEpisode(episode) || (state != State.OPEN && state != State.HALF_OPEN)) {
            return;
        }
        sync.store().renewProbeLease(breaker.name(), generation, sync.replicaId(), LEASE_MILLIS);
        sync.schedule(() -> renewLease(breaker, entry, episode, generation), RECLAIM_MILLIS);
    }

    /** How much longer the breaker stays open here, 0 if it is not open. */
    private static long openMillis(Breaker breaker) {
        Snapshot snapshot = breaker.snapshot();
        if (snapshot.state() != State.OPEN || snapshot.openUntil() == null) {
            return 0;
        }
        return Math.max(0, Duration.between(breaker.config().clock().instant(), snapshot.openUntil()).toMillis());
    }

    /**
     * Entering half-open (caller's thread, a local call only): probe with the slots the fleet already gave this replica for this episode. If the
     * answer is not in yet, probe not at all until it is; if the fleet cannot answer, fall back to the local limit.
     */
    void halfOpened(Breaker breaker) {
        FleetEntry entry = sync.entry(breaker.name());
        int grant = entry.grant();
        if (grant >= 0) {
            breaker.limitProbes(grant);
            return;
        }
        if (!sync.status().up() || entry.generation() == 0) {
            return; // the fleet never saw this circuit open, or cannot be asked: local limits
        }
        int episode = entry.episode();
        breaker.limitProbes(0);
        if (!sync.submit(() -> claimProbes(breaker, entry, episode))) {
            breaker.limitProbes(breaker.config().halfOpenMaxProbes());
        }
    }
}
