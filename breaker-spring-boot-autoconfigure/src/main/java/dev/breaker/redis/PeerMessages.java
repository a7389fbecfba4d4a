package dev.breaker.redis;

import java.time.Duration;
import java.util.Optional;

import dev.breaker.core.Breaker;
import dev.breaker.core.State;
import dev.breaker.core.spi.SharedStateHooks;
import org.jspecify.annotations.Nullable;

/**
 * Applies what the fleet says (announcements from the channel, and what the reconnect
 * read or a script's reply finds) to this replica's mirror and breakers, on the sync
 * thread.
 *
 * <p>
 * Announcements are applied in the order Redis published them, which every subscriber
 * sees alike; no counter decides which is newer, so a lost, expired or forged counter
 * cannot make a replica deaf. A read or a reply is older than any announcement for the
 * same breaker applied after it was sent, and is then dropped. A replica's own
 * announcements come back on the channel too, on another connection than its script's
 * reply and possibly many episodes late: they update the mirror in channel order but
 * never its breaker, whose part in the episode the reply settled already
 * ({@link #openedHere}).
 *
 * <p>
 * What is applied is bounded: an open never lasts longer than the local breaker's
 * {@code max-open-wait}, reasons and replica ids are cut and escaped ({@link Printable}),
 * and breakers this replica does not have are tracked only within the bounds of
 * {@link FleetEntries}.
 */
final class PeerMessages {

	/** How many times a message is applied again when its entry was swept meanwhile. */
	private static final int MOST_ATTEMPTS = 3;

	private final FleetSync sync;

	PeerMessages(FleetSync sync) {
		this.sync = sync;
	}

	/**
	 * A message from the channel (a Lettuce thread handed it to the sync thread as it
	 * came).
	 */
	void received(String text) {
		FleetMessage message = FleetMessage.decode(text);
		if (sync.trust().accept(message, text)) {
			long remaining = message.kind() == FleetMessage.Kind.OPEN ? sync.trust().remainingAnnounced(message)
					: Long.MAX_VALUE;
			apply(message, sync.nextSequence(), remaining, true);
		}
	}

	/**
	 * Applies an announcement from the channel, or an open circuit or override read from
	 * Redis.
	 * @param remainingMillis how much longer the open runs: for a stored open, as long as
	 * Redis holds it; for an announcement, its TTL or, signed, until its episode ends
	 * ({@link Trust#remainingAnnounced}); {@code Long.MAX_VALUE}: the message's own TTL
	 * counts
	 * @param channel whether it came from the channel (a replica's own announcements then
	 * touch only the mirror)
	 */
	void apply(FleetMessage message, long sequence, long remainingMillis, boolean channel) {
		String name = message.breaker();
		for (int attempt = 0; attempt < MOST_ATTEMPTS; attempt++) {
			FleetEntry used = applyOnce(message, sequence, remainingMillis, channel);
			if (used == null || sync.entries().get(name) == used) {
				return;
			}
			// the entry was swept away as it was used (the removal of an evicted child
			// was told just then): the mirror must hold what the fleet said, for the
			// next child of that name starts as it holds it
		}
	}

	/**
	 * Applies the message once; returns the entry it went to, or null when there is no
	 * room for another breaker this replica does not have.
	 */
	private @Nullable FleetEntry applyOnce(FleetMessage message, long sequence, long remainingMillis, boolean channel) {
		String name = message.breaker();
		// this replica's breaker is held while the message is applied (a child is then
		// neither expired nor evicted): applied to a child evicted after its lookup, a
		// FORCED_OPEN would be lost with it, and the host's next call would get a fresh
		// CLOSED child
		Optional<FleetEntry> here = sync.registry().override(name, breaker -> {
			FleetEntry entry = sync.entries().local(name);
			applyTo(message, entry, Optional.of(breaker), sequence, remainingMillis, channel);
			return entry;
		});
		if (here.isPresent()) {
			return here.get();
		}
		FleetEntry entry = sync.entries().fleetOnly(name);
		if (entry == null) {
			return null; // too many breakers this replica does not have: bounded
		}
		applyTo(message, entry, Optional.empty(), sequence, remainingMillis, channel);
		boolean own = message.replica().equals(sync.replicaId());
		if (message.kind() == FleetMessage.Kind.OVERRIDE && !(own && channel)) {
			// a breaker created meanwhile started as the mirror held it before this one
			sync.registry()
				.override(name, breaker -> decideOverride(message, sync.entries().local(name), breaker, own, false));
		}
		return entry;
	}

	private void applyTo(FleetMessage message, FleetEntry entry, Optional<Breaker> found, long sequence,
			long remainingMillis, boolean channel) {
		boolean own = message.replica().equals(sync.replicaId());
		entry.knowUntoldDecidedAt(sync.trust().clock());
		if (!own && entry.beforeUntold(message.issuedAt()) && (message.kind() == FleetMessage.Kind.OVERRIDE
				|| (message.kind() == FleetMessage.Kind.OPEN && entry.untoldLatest() == State.CLOSED))) {
			// decided before this replica's operator's override that Redis did not take
			// (an override, or an episode opened before a reset), which is the latest
			// decision: neither applied over it nor dropping it; that one is sent again,
			// and Redis takes it, as nothing it took was decided later
			return;
		}
		if (!own && (channel || (message.kind() == FleetMessage.Kind.OPEN && entry.untoldLatest() == State.CLOSED))) {
			// the fleet moved on (a trip by traffic after a reset stands): an override
			// decided here before it and not taken by Redis is not told over it
			entry.heardFromPeer(sequence, message.issuedAt());
		}
		else if (channel && message.kind() == FleetMessage.Kind.OVERRIDE) {
			// Redis published it: told, even when its reply was lost
			entry.told(message);
		}
		Optional<Breaker> here = found;
		if (own && channel) {
			// its breaker took part already; only the mirror learns, in channel order
			found = Optional.empty();
		}
		switch (message.kind()) {
			case OPEN -> opened(message, entry, found, own, sequence, remainingMillis);
			case CLOSED -> closed(message, entry, found, own, sequence);
			case OVERRIDE -> overridden(message, entry, here, own, own && channel, sequence);
		}
		sync.overrides().superseded(entry);
	}

	private void opened(FleetMessage message, FleetEntry entry, Optional<Breaker> found, boolean own, long sequence,
			long remainingMillis) {
		if (entry.ended(message.episode())) {
			return; // closed already: a late duplicate or a replay
		}
		if (entry.current(message.episode())) {
			// the mirror holds it already (a duplicate, or a read of it); a breaker that
			// does not follow it yet does now
			found.ifPresent(breaker -> follow(breaker, entry, message.episode(), own));
			return;
		}
		long ceiling = found.map(b -> b.config().maxOpenWait().toMillis())
			.orElse(FleetEntries.FLEET_ONLY_OPEN_CEILING_MILLIS);
		long remaining = Math.min(Math.min(message.ttlMillis(), remainingMillis), ceiling);
		if (remaining <= 0) {
			return;
		}
		entry.opened(message, System.nanoTime() + remaining * 1_000_000L, sequence);
		found.ifPresent(breaker -> follow(breaker, entry, message.episode(), own));
	}

	/**
	 * This replica's own script opened {@code announcement}'s episode (its reply said
	 * so): its breaker follows the episode (so its close ends it) and claims its probe
	 * slots; the mirror learns of it from the channel. Announcements may overtake the
	 * reply on the channel: if the episode ended meanwhile, the breaker closes; if the
	 * breaker took up another episode meanwhile, it keeps that one.
	 * @param followedWhenSent the episode the breaker followed when the script was sent
	 * ("" none)
	 */
	void openedHere(Breaker breaker, FleetEntry entry, FleetMessage announcement, String followedWhenSent) {
		String episode = announcement.episode();
		String followed = entry.tied();
		boolean movedOn = !followed.isEmpty() && !followed.equals(followedWhenSent) && !followed.equals(episode);
		if (movedOn) {
			return;
		}
		if (entry.ended(episode)) {
			entry.untie();
			State state = breaker.state();
			if (state == State.OPEN || state == State.HALF_OPEN) {
				SharedStateHooks.closeFromPeer(breaker, entry.peerReason());
			}
			return;
		}
		entry.tie(episode, sync.deadline(breaker));
		State state = breaker.state();
		if (state == State.OPEN || state == State.HALF_OPEN) {
			sync.probes().opened(breaker, entry);
		}
	}

	/**
	 * The fleet holds the breaker open in {@code episode}: open here too (or stay open at
	 * least as long), follow the episode, and claim its probe slots. An operator's
	 * FORCED_OPEN or DISABLED here is left alone.
	 */
	void follow(Breaker breaker, FleetEntry entry, String episode, boolean own) {
		if (episode.equals(entry.tied())) {
			return; // follows it already
		}
		long remaining = entry.remainingMillis(System.nanoTime());
		State state = breaker.state();
		if (remaining <= 0 || state == State.FORCED_OPEN || state == State.DISABLED) {
			return;
		}
		if (state == State.OPEN) {
			long toDeadline = Math.max(1, (sync.deadline(breaker) - System.nanoTime()) / 1_000_000L);
			SharedStateHooks.holdOpen(breaker, Duration.ofMillis(Math.min(remaining, toDeadline)));
		}
		else if (!own) {
			// first the open (the call path waits for nothing), then the bookkeeping
			SharedStateHooks.openFromPeer(breaker, Duration.ofMillis(remaining), entry.peerReason());
		}
		else if (state == State.CLOSED) {
			// a read of this replica's own episode, but its breaker has closed meanwhile:
			// follow it so its close ends it
			entry.tie(episode, sync.deadline(breaker));
			return;
		}
		entry.tie(episode, sync.deadline(breaker));
		sync.probes().opened(breaker, entry);
	}

	private void closed(FleetMessage message, FleetEntry entry, Optional<Breaker> found, boolean own, long sequence) {
		entry.closed(message, sequence);
		if (found.isEmpty() || !message.episode().equals(entry.tied())) {
			// a close ends only the episode it names, on the replicas that follow it
			return;
		}
		Breaker breaker = found.get();
		State state = breaker.state();
		if (state == State.OPEN || state == State.HALF_OPEN) {
			entry.untie();
			SharedStateHooks.closeFromPeer(breaker, entry.peerReason());
		}
	}

	/**
	 * An operator's override. This replica's own, applied here as it was made, comes back
	 * on the channel: no news for the breaker, unless a peer's override was decided here
	 * since, which Redis published before it: then the fleet ends in this one, and so
	 * does the breaker here ({@link OverrideDecision#toldBackOver}).
	 * @param here this replica's breaker of that name, if any
	 * @param echo whether it is this replica's own, heard on the channel
	 */
	private void overridden(FleetMessage message, FleetEntry entry, Optional<Breaker> here, boolean own, boolean echo,
			long sequence) {
		boolean news = entry.newer(message);
		if (news) {
			entry.overridden(message, sequence);
		}
		// this replica's own, told back, may be no news to the mirror (the operator
		// wrote it there) and still be news to the breaker
		if (here.isEmpty() || (!news && !echo)) {
			return;
		}
		decideOverride(message, entry, here.get(), own, echo);
	}

	/**
	 * Makes the override the latest decision here and applies it to {@code breaker} (held
	 * by the caller), unless a later one stands; returns null.
	 */
	private @Nullable Void decideOverride(FleetMessage message, FleetEntry entry, Breaker breaker, boolean own,
			boolean echo) {
		// a reset sent again leaves an episode opened after it was decided open, and the
		// breaker following it in it; one an older override holds (it followed the
		// episode before that override came) is lifted out of it, and follows it again
		String newer = entry.openedAfter(message);
		State held = breaker.state();
		if (!newer.isEmpty() && newer.equals(entry.tied()) && held != State.FORCED_OPEN && held != State.DISABLED) {
			return null;
		}
		String reason = own ? FleetOverrides.here(message.override(), true)
				: FleetOverrides.fromPeer(message.replica(), message.override());
		OverrideDecision decision = OverrideDecision.fleet(message.override(), reason, true, sync.nextSequence());
		OverrideDecision made = echo ? entry.decideToldBack(message, decision) : entry.decide(decision);
		if (made == null) {
			return null;
		}
		if (message.override() == State.CLOSED) {
			entry.untie();
		}
		OverrideDecision.settle(breaker, entry, made);
		if (!newer.isEmpty()) {
			follow(breaker, entry, newer, own);
		}
		return null;
	}

}
