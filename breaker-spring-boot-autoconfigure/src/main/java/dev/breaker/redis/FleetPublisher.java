package dev.breaker.redis;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

import dev.breaker.core.Breaker;
import dev.breaker.core.State;
import dev.breaker.core.Transition;
import io.lettuce.core.RedisCommandExecutionException;

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

	private static final System.Logger LOG = System.getLogger(FleetSync.class.getName());

	/** A refused trip is sent again at most {@code 2^3} reconnect intervals apart. */
	private static final int MOST_DOUBLINGS = 3;

	private final FleetSync sync;

	/**
	 * A refused trip was logged, and Redis has recorded none since (sync thread only).
	 */
	private boolean refusalLogged;

	/**
	 * How many times in a row Redis refused each breaker's trip (sync thread only; a
	 * breaker leaves it when its trip is recorded or it is no longer open).
	 */
	private final Map<String, Integer> refusedInARow = new HashMap<>();

	/** The breakers whose refused trip is to be sent again (sync thread only). */
	private final Set<String> resendPending = new HashSet<>();

	FleetPublisher(FleetSync sync) {
		this.sync = sync;
	}

	/**
	 * The breaker tripped here; {@code replace} is the episode its failed probes ended,
	 * or null.
	 */
	void trip(String name, String reason, Trip kind, String replace) {
		FleetEntry entry = sync.entries().local(name);
		entry.tripUnpublished(kind);
		entry.publishes()
			.queue(PublishOrder.Publish.TRIP, sync.thread(),
					() -> publishTrip(name, entry, reason, kind, replace).whenComplete((done, error) -> {
						if (error != null) {
							sync.thread().submit(() -> refused(name, reason, kind, replace, error));
						}
					}));
	}

	/**
	 * Redis did not record a trip. When it did not answer, its return re-reads the fleet
	 * and tells the trip then (see {@link Reconciler}). When it answered and refused (a
	 * primary a failover demoted answers READONLY, a Cluster missing a primary
	 * CLUSTERDOWN, a full Redis OOM), nothing else would tell it: it is sent again after
	 * one reconnect interval, then two, four, at most eight apart, while the breaker
	 * stays open and the trip unrecorded. One script call a breaker each time, never a
	 * read of the whole fleet, and one pending resend a breaker however many trips Redis
	 * refused; the first refusal is logged, and then none until Redis records a trip
	 * again.
	 */
	private void refused(String name, String reason, Trip kind, String replace, Throwable error) {
		FleetEntry entry = sync.entries().get(name);
		if (entry != null) {
			// a vote may have been counted and the open refused: the trip is not told
			entry.tripUnpublished(kind);
		}
		if (!sync.status().up()) {
			return;
		}
		if (!refusalLogged && StoreConnection.unwrap(error) instanceof RedisCommandExecutionException) {
			refusalLogged = true;
			LOG.log(System.Logger.Level.WARNING,
					"breaker fleet, replica {0}: Redis refused to record the trip of breaker ''{1}'' ({2}); "
							+ "refused trips are sent again while their breakers are open, "
							+ "and this is not logged again until Redis records one",
					sync.replicaId(), Printable.of(name, Printable.NAME),
					Printable.of(RedisBreakerStore.message(error), Printable.REASON));
		}
		int refusals = refusedInARow.merge(name, 1, Integer::sum);
		if (!resendPending.add(name)) {
			return;
		}
		long pause = sync.settings().reconnectInterval().toMillis() << Math.min(refusals - 1, MOST_DOUBLINGS);
		sync.thread().schedule(() -> {
			resendPending.remove(name);
			FleetEntry unrecorded = sync.entries().get(name);
			Optional<Breaker> breaker = sync.registry().find(name);
			if (unrecorded == null || unrecorded.tripUnpublished() == null || breaker.isEmpty()
					|| breaker.get().state() != State.OPEN) {
				refusedInARow.remove(name);
			}
			else if (sync.status().up()) {
				trip(name, reason, kind, replace);
			}
		}, pause);
	}

	/** Redis recorded a trip of this breaker's. */
	private void recorded(String name, FleetEntry entry) {
		entry.tripUnpublished(null);
		refusedInARow.remove(name);
		refusalLogged = false;
	}

	/**
	 * The breaker closed here (its probes succeeded, or code reset it), into the state of
	 * {@code generation}: withdraw its vote, end its episode. Listeners may hear two
	 * transitions of one breaker in the other order (a slow listener held up the close's
	 * thread while another thread's call tripped it again): a close sent once the breaker
	 * has moved on from that state is not sent, since the episode its breaker follows by
	 * then is the trip's, which the close must not end.
	 */
	void close(String name, String reason, long generation) {
		FleetEntry entry = sync.entries().local(name);
		entry.publishes().queue(PublishOrder.Publish.AFTER_TRIP, sync.thread(), () -> {
			if (movedOn(name, generation)) {
				return CompletableFuture.completedFuture(null);
			}
			String episode = entry.untie();
			FleetMessage announcement = sync.trust()
				.issue(FleetMessage.Kind.CLOSED, name, episode.isEmpty() ? "-" : episode, 0, null, sync.replicaId(),
						reason);
			return sync.store().close(name, episode, announcement);
		});
	}

	/**
	 * Whether this replica's breaker is no longer in the CLOSED state of
	 * {@code generation} (a breaker no longer in the registry has not: its close is
	 * sent).
	 */
	private boolean movedOn(String name, long generation) {
		Optional<Breaker> found = sync.registry().find(name);
		if (found.isEmpty()) {
			return false;
		}
		if (found.get().state() != State.CLOSED) {
			return true;
		}
		// the latest transition by generation: two threads' transitions may be recorded
		// in the other order
		long latest = found.get().snapshot().transitions().stream().mapToLong(Transition::generation).max().orElse(-1);
		return latest > generation;
	}

	private CompletableFuture<?> publishTrip(String name, FleetEntry entry, String reason, Trip kind, String replace) {
		Optional<Breaker> found = sync.registry().find(name);
		if (found.isEmpty() || found.get().state() != State.OPEN) {
			entry.tripUnpublished(null);
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
				recorded(name, entry);
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
			recorded(name, entry);
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
