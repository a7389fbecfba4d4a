package dev.breaker.redis;

import java.time.Duration;
import java.util.Optional;

import dev.breaker.core.Breaker;
import dev.breaker.core.State;

/**
 * Applies what the fleet says (announcements from the channel, and what the reconnect read or a script's reply finds)
 * to this replica's mirror and breakers, on the sync thread.
 *
 * <p>Announcements are applied in the order Redis published them, which every subscriber sees alike; no counter
 * decides which is newer, so a lost, expired or forged counter cannot make a replica deaf. A read or a reply is older
 * than any announcement for the same breaker applied after it was sent, and is then dropped. What is applied is
 * bounded: an open never lasts longer than the local breaker's {@code max-open-wait}, reasons and replica ids are
 * cut and escaped ({@link Printable}), and breakers this replica does not have are tracked only within the bounds of
 * {@link FleetEntries}.
 */
final class PeerMessages {

    private final FleetSync sync;

    PeerMessages(FleetSync sync) {
        this.sync = sync;
    }

    /** A message from the channel (a Lettuce thread handed it to the sync thread as it came). */
    void received(String text) {
        FleetMessage message = FleetMessage.decode(text);
        if (sync.trust().accept(message, text)) {
            apply(message, sync.nextSequence(), Long.MAX_VALUE);
        }
    }

    /**
     * Applies an announcement, or an open circuit or override read from Redis.
     *
     * @param remainingMillis for a stored open, how much longer Redis holds it; {@code Long.MAX_VALUE} for a message
     *     (its own TTL counts)
     */
    void apply(FleetMessage message, long sequence, long remainingMillis) {
        Optional<Breaker> found = sync.registry().find(message.breaker());
        FleetEntry entry = found.isPresent() ? sync.entries().local(message.breaker()) : sync.entries().fleetOnly(message.breaker());
        if (entry == null) {
            return; // too many breakers this replica does not have: bounded
        }
        boolean own = message.replica().equals(sync.replicaId());
        switch (message.kind()) {
            case OPEN -> opened(message, entry, found, own, sequence, remainingMillis);
            case CLOSED -> closed(message, entry, found, own, sequence);
            case OVERRIDE -> overridden(message, entry, found, own, sequence);
        }
    }

    private void opened(FleetMessage message, FleetEntry entry, Optional<Breaker> found, boolean own, long sequence,
            long remainingMillis) {
        if (entry.known(message.episode())) {
            // heard already (or closed already): a duplicate or a replay; a breaker that does not follow it yet does now
            if (found.isPresent() && message.episode().equals(entry.episode()) && !message.episode().equals(entry.tied())) {
                follow(found.get(), entry, message.episode(), own);
            }
            return;
        }
        long ceiling = found.map(b -> b.config().maxOpenWait().toMillis()).orElse(FleetEntries.FLEET_ONLY_OPEN_CEILING_MILLIS);
        long remaining = Math.min(Math.min(message.ttlMillis(), remainingMillis), ceiling);
        if (remaining <= 0) {
            return;
        }
        entry.opened(message, System.nanoTime() + remaining * 1_000_000L, sequence);
        found.ifPresent(breaker -> follow(breaker, entry, message.episode(), own));
    }

    /**
     * The fleet holds the breaker open in {@code episode}: open here too (or stay open at least as long), follow the
     * episode, and claim its probe slots. An operator's FORCED_OPEN or DISABLED here is left alone.
     */
    void follow(Breaker breaker, FleetEntry entry, String episode, boolean own) {
        long remaining = entry.remainingMillis(System.nanoTime());
        State state = breaker.state();
        if (remaining <= 0 || state == State.FORCED_OPEN || state == State.DISABLED) {
            return;
        }
        long deadline = sync.deadline(breaker);
        if (state == State.OPEN) {
            long toDeadline = Math.max(1, (deadline - System.nanoTime()) / 1_000_000L);
            breaker.retryAfter(Duration.ofMillis(Math.min(remaining, toDeadline)));
        } else if (!own) {
            breaker.openFromPeer(Duration.ofMillis(remaining), sync.peerReason(entry.replica(), entry.reason()));
            deadline = sync.deadline(breaker);
        } else if (state == State.CLOSED) {
            // this replica's own announcement, but its breaker has closed meanwhile: follow it only so its close ends it
            entry.tie(episode, deadline);
            return;
        }
        entry.tie(episode, deadline);
        sync.probes().opened(breaker, entry);
    }

    private void closed(FleetMessage message, FleetEntry entry, Optional<Breaker> found, boolean own, long sequence) {
        entry.closed(message, sequence);
        if (own || found.isEmpty() || !message.episode().equals(entry.tied())) {
            return; // a close ends only the episode it names, on the replicas that follow it
        }
        Breaker breaker = found.get();
        State state = breaker.state();
        if (state == State.OPEN || state == State.HALF_OPEN) {
            entry.untie();
            breaker.closeFromPeer(sync.peerReason(entry.replica(), entry.reason()));
        }
    }

    private void overridden(FleetMessage message, FleetEntry entry, Optional<Breaker> found, boolean own, long sequence) {
        if (!entry.newer(message)) {
            return;
        }
        entry.overridden(message, sequence);
        if (message.override() == State.CLOSED) {
            entry.untie();
        }
        if (own || found.isEmpty()) {
            return;
        }
        found.get().override(message.override(), FleetOverrides.fromPeer(message.replica(), message.override()), true);
    }
}
