package dev.breaker.redis;

import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

import dev.breaker.core.Breaker;
import dev.breaker.core.State;

/**
 * Tells the fleet what this replica's breakers did, on the sync thread: a trip counts
 * toward the quorum (or opens the fleet at once when the fleet window or this replica's
 * probes for the fleet decided it), a close ends the episode the breaker followed. The
 * publishes of one breaker reach Redis in the order they were made, and a close is sent
 * only once the trip before it was answered, so it always knows which episode its trip
 * ended up in.
 */
final class FleetPublisher {

	/** How a trip reaches the fleet. */
	enum Trip {

		/**
		 * A local rule fired: one vote toward the quorum (with a quorum of 1, the fleet
		 * opens at once).
		 */
		VOTE,
		/**
		 * The fleet window fired, or this replica's probes for the fleet failed: the
		 * fleet opens at once.
		 */
		FLEET

	}

	private final FleetSync sync;

	FleetPublisher(FleetSync sync) {
		this.sync = sync;
	}

	/**
	 * The breaker tripped here; {@code replace} is the episode its failed probes ended,
	 * or null.
	 */
	void trip(String name, String reason, Trip kind, String replace) {
		FleetEntry entry = sync.entries().local(name);
		entry.tripUnpublished(true);
		entry.publishes()
			.queue(PublishOrder.Publish.TRIP, sync.thread(), () -> publishTrip(name, entry, reason, kind, replace));
	}

	/**
	 * The breaker closed here (its probes succeeded, or code reset it): withdraw its
	 * vote, end its episode.
	 */
	void close(String name, String reason) {
		FleetEntry entry = sync.entries().local(name);
		entry.publishes().queue(PublishOrder.Publish.AFTER_TRIP, sync.thread(), () -> {
			String episode = entry.untie();
			FleetMessage announcement = sync.trust()
				.issue(FleetMessage.Kind.CLOSED, name, episode.isEmpty() ? "-" : episode, 0, null, sync.replicaId(),
						reason);
			return sync.store().close(name, episode, announcement);
		});
	}

	private CompletableFuture<?> publishTrip(String name, FleetEntry entry, String reason, Trip kind, String replace) {
		Optional<Breaker> found = sync.registry().find(name);
		if (found.isEmpty() || found.get().state() != State.OPEN) {
			entry.tripUnpublished(false);
			// moved on already; its own transition follows
			return CompletableFuture.completedFuture(null);
		}
		Breaker breaker = found.get();
		long ttl = Math.max(1, ProbeShare.openMillis(breaker));
		if (kind == Trip.FLEET || sync.settings().quorum() == 1) {
			return open(breaker, entry, reason, ttl, replace, true);
		}
		long sent = sync.sequence();
		return sync.store()
			.vote(name, sync.replicaId(), ttl, sync.trust().vote(name, sync.replicaId(), ttl))
			.thenCompose(reply -> sync.thread().supply(() -> {
				entry.tripUnpublished(false);
				FleetMessage current = reply.current().circuit();
				if (current != null && !entry.changedSince(sent) && !entry.ended(current.episode())
						&& sync.trust().acceptStored(current)) {
					sync.applyStored(reply.current(), sent);
					return CompletableFuture.completedFuture(null);
				}
				int votes = genuineVotes(name, reply.votes());
				int quorum = sync.settings().quorum();
				if (votes < quorum) {
					// stays local until more replicas trip
					return CompletableFuture.completedFuture(null);
				}
				String stale = current != null && entry.ended(current.episode()) ? current.episode() : null;
				return open(breaker, entry, reason + " (" + votes + " replicas tripped, quorum " + quorum + ")", ttl,
						stale, true);
			}));
	}

	private CompletableFuture<?> open(Breaker breaker, FleetEntry entry, String reason, long ttl, String replace,
			boolean retry) {
		String name = breaker.name();
		FleetMessage announcement = sync.trust()
			.issue(FleetMessage.Kind.OPEN, name, newEpisode(), ttl, null, sync.replicaId(), reason);
		long sent = sync.sequence();
		String followedWhenSent = entry.tied();
		return sync.store().open(announcement, replace).thenCompose(reply -> sync.thread().supply(() -> {
			entry.tripUnpublished(false);
			if (reply.opened()) {
				sync.peers().openedHere(breaker, entry, announcement, followedWhenSent);
				return CompletableFuture.completedFuture(null);
			}
			FleetMessage current = reply.current().circuit();
			if (entry.changedSince(sent)) {
				// an announcement newer than this reply came meanwhile
				return CompletableFuture.completedFuture(null);
			}
			if (!entry.ended(current.episode()) && sync.trust().acceptStored(current)) {
				// another episode is open: follow it
				sync.applyStored(reply.current(), sent);
				return CompletableFuture.completedFuture(null);
			}
			// what is stored is not a genuine open (forged, unsigned, or an episode heard
			// to have ended): replace it, once
			return retry ? open(breaker, entry, reason, ttl, current.episode(), false)
					: CompletableFuture.completedFuture(null);
		}));
	}

	/**
	 * The distinct replicas whose votes are genuine (with signing on: signed with the
	 * fleet's key and current).
	 */
	private int genuineVotes(String name, Map<String, String> votes) {
		Set<String> replicas = new HashSet<>();
		votes.forEach((replica, value) -> {
			if (sync.trust().countsVote(name, replica, value)) {
				replicas.add(replica);
			}
		});
		return replicas.size();
	}

	/**
	 * A fresh episode name: random, so nobody can take the next episode's probe slots
	 * before it begins.
	 */
	private static String newEpisode() {
		return UUID.randomUUID().toString().replace("-", "").substring(0, 20);
	}

}
