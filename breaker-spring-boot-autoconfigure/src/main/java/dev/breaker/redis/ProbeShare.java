package dev.breaker.redis;

import java.time.Duration;

import dev.breaker.core.Breaker;
import dev.breaker.core.Outcome;
import dev.breaker.core.Snapshot;
import dev.breaker.core.State;
import dev.breaker.core.Totals;
import dev.breaker.core.spi.SharedStateHooks;

/**
 * Shares half-open probes out across the fleet: in one open episode the whole fleet runs
 * at most {@code halfOpenMaxProbes} concurrent probes, not that many per replica.
 *
 * <p>
 * Slots are claimed as soon as a replica's breaker follows an episode, so the answer is
 * in long before the open wait ends. A replica with slots half-opens with its share; one
 * without stays open a little past the fleet's wait and asks again (at once when it has
 * traffic, else as its open wait is about to end). Slots are held by a short lease the
 * holder renews every {@link #RECLAIM_MILLIS}: one that dies loses them within a lease,
 * and one without traffic (no calls, no rejected calls), or still open here well past the
 * episode's end, gives them up as soon as a replica with traffic went without, so the
 * fleet closes as long as any replica has traffic.
 *
 * <p>
 * Slots only matter once the open wait ends, so while it is further off than a few
 * renewal periods nobody claims or renews: the first claim's lease reaches to
 * {@link #RECLAIM_MILLIS} before the next look, which comes {@code 2 * RECLAIM_MILLIS}
 * before the open wait ends (a replica following 100,000 open circuits would otherwise
 * run 200,000 scripts a second). For a holder, that is the earlier of its own open wait's
 * end and the episode's: a replica open here for longer (a {@code Retry-After}, a
 * multiplied open wait) that wins the slots renews them from shortly before the episode
 * ends, when the others' open wait ends, so without traffic it gives them up to one with
 * traffic then, not at the end of its own wait. A holder that dies meanwhile keeps its
 * slots until about the episode's end.
 *
 * <p>
 * Nothing read from Redis can hold a breaker open for good: once it has been open for its
 * {@code max-open-wait} (plus {@link FleetSync#PROBE_GRACE_MILLIS}) in an episode without
 * slots (they are stolen, or held by a replica nobody can see), it probes on its own, one
 * probe at a time, and says so once. When Redis cannot answer, the breaker's own limit
 * applies.
 */
final class ProbeShare {

	/** How often a holder renews its lease, and a replica without slots asks again. */
	static final long RECLAIM_MILLIS = 500;

	/** How long slots stay a replica's without renewal. */
	static final long LEASE_MILLIS = 3 * RECLAIM_MILLIS;

	private static final System.Logger LOG = System.getLogger(FleetSync.class.getName());

	private final FleetSync sync;

	ProbeShare(FleetSync sync) {
		this.sync = sync;
	}

	/**
	 * Sync thread: the breaker now follows an episode (its tie was just made): claim its
	 * slots now.
	 */
	void opened(Breaker breaker, FleetEntry entry) {
		int round = entry.round();
		entry.demand(demand(breaker));
		claim(breaker, entry, round, false);
	}

	/**
	 * Asks for (or renews) this replica's slots; {@code traffic}: it had calls or
	 * rejected calls since the last look.
	 */
	private void claim(Breaker breaker, FleetEntry entry, int round, boolean traffic) {
		if (sync.thread().closed() || !entry.inRound(round)) {
			return;
		}
		if (!sync.status().up()) {
			apply(breaker, entry); // the breaker's own limit while Redis cannot answer
			sync.thread().schedule(() -> tick(breaker, entry, round), RECLAIM_MILLIS);
			return;
		}
		String episode = entry.tied();
		int max = breaker.config().halfOpenMaxProbes();
		long open = openMillis(breaker);
		long slotsLive = open + breaker.config().halfOpenMaxWait().toMillis() + LEASE_MILLIS;
		// the lease outlasts the next look by as much as it does when looking every
		// RECLAIM_MILLIS; a holder's next look comes before the episode ends
		long lease = nextLookMillis(slotsDueMillis(breaker, entry)) + LEASE_MILLIS - RECLAIM_MILLIS;
		sync.store()
			.claim(breaker.name(), episode, sync.replicaId(), max, max, lease, slotsLive,
					sync.trust().claim(breaker.name(), episode, sync.replicaId(), max), traffic, entry.distrusted())
			.whenComplete((reply, error) -> sync.thread()
				.submit(() -> granted(breaker, entry, round, episode, error == null ? reply : null, traffic)));
	}

	private void granted(Breaker breaker, FleetEntry entry, int round, String episode, StoreReplies.ClaimReply reply,
			boolean traffic) {
		if (!entry.inRound(round)) {
			return;
		}
		if (reply != null) {
			if (sync.trust().signing()) {
				reply.others().forEach((holder, value) -> {
					if (!sync.trust().genuineHolder(breaker.name(), episode, holder, value)) {
						entry.distrust(holder); // dropped by the next claim
					}
				});
			}
			boolean idle = !traffic && probesInFlight(breaker) == 0;
			// open here well past the episode's end (a Retry-After, a multiplied open
			// wait): it cannot probe before one the fleet holds open could (held a
			// little past that end)
			long episodeLeft = Math.max(0, entry.tiedRemainingMillis(System.nanoTime()));
			boolean stillOpenHere = openMillis(breaker) > episodeLeft + 3 * RECLAIM_MILLIS;
			if (reply.grant() > 0 && reply.wanted() && (idle || stillOpenHere)) {
				// a replica with traffic went without slots, and this one has none or
				// cannot probe yet: give them up to it
				entry.grant(round, 0);
				sync.store().release(breaker.name(), episode, sync.replicaId());
			}
			else {
				entry.grant(round, reply.grant());
			}
		}
		apply(breaker, entry);
		sync.thread().schedule(() -> tick(breaker, entry, round), nextLookMillis(quietMillis(breaker, entry)));
	}

	/**
	 * How long the slots do not matter: for a holder, until its own open wait or the
	 * episode ends, whichever comes first (the others half-open at the episode's end, and
	 * a holder renewing by then gives its slots up to one with traffic if it has none);
	 * for a replica without slots, until its own open wait ends.
	 */
	private static long quietMillis(Breaker breaker, FleetEntry entry) {
		return entry.grant() > 0 ? slotsDueMillis(breaker, entry) : openMillis(breaker);
	}

	/**
	 * Until the slots start to matter fleet-wide: the breaker's open wait here, or the
	 * episode's remaining open wait when that ends first (as long as the mirror holds the
	 * episode open).
	 */
	private static long slotsDueMillis(Breaker breaker, FleetEntry entry) {
		long open = openMillis(breaker);
		long episode = entry.tiedRemainingMillis(System.nanoTime());
		return episode < 0 ? open : Math.min(open, episode);
	}

	/**
	 * When to look again, given how long the breaker stays open here: every
	 * {@link #RECLAIM_MILLIS}, or, while the open wait ends later than
	 * {@code 3 * RECLAIM_MILLIS} from now, {@code 2 * RECLAIM_MILLIS} before it ends.
	 */
	static long nextLookMillis(long openMillis) {
		return openMillis > 3 * RECLAIM_MILLIS ? openMillis - 2 * RECLAIM_MILLIS : RECLAIM_MILLIS;
	}

	/**
	 * Puts the slots into effect: half-open with that many probes, or held open without
	 * any.
	 */
	private void apply(Breaker breaker, FleetEntry entry) {
		State state = breaker.state();
		int slots = slots(breaker, entry);
		if (state == State.HALF_OPEN) {
			SharedStateHooks.limitProbes(breaker, slots);
		}
		else if (state == State.OPEN && slots == 0) {
			// without a slot, stay open until a little past the fleet's wait (renewed
			// every tick), never past the deadline
			long now = System.nanoTime();
			long toDeadline = (entry.tieDeadlineNanos() - now) / 1_000_000L;
			long hold = Math.min(entry.remainingMillis(now) + 2 * RECLAIM_MILLIS, toDeadline);
			if (hold > 0) {
				SharedStateHooks.holdOpen(breaker, Duration.ofMillis(hold));
			}
		}
	}

	/**
	 * The probes this replica may run now: its grant, or its own limit when alone or
	 * Redis cannot answer.
	 */
	private int slots(Breaker breaker, FleetEntry entry) {
		int grant = entry.grant();
		if (entry.alone()) {
			return 1;
		}
		return grant < 0 || !sync.status().up() ? breaker.config().halfOpenMaxProbes() : grant;
	}

	/**
	 * Every {@link #RECLAIM_MILLIS} while the breaker follows the episode: renew, give
	 * back, ask again, or go alone.
	 */
	private void tick(Breaker breaker, FleetEntry entry, int round) {
		if (sync.thread().closed() || !entry.inRound(round)) {
			return;
		}
		State state = breaker.state();
		if (state != State.OPEN && state != State.HALF_OPEN) {
			return;
		}
		if (entry.alone()) {
			return;
		}
		if (entry.grant() <= 0 && System.nanoTime() - entry.tieDeadlineNanos() >= 0) {
			alone(breaker, entry);
			return;
		}
		long open = openMillis(breaker);
		long quiet = quietMillis(breaker, entry);
		if (state == State.OPEN && quiet > 3 * RECLAIM_MILLIS) {
			// the open wait was extended (held without slots): the slots matter from its
			// end on (a holder's: from the episode's end on, if that comes first), the
			// lease holds until then
			apply(breaker, entry);
			sync.thread().schedule(() -> tick(breaker, entry, round), nextLookMillis(quiet));
			return;
		}
		boolean traffic = entry.demandSince(demand(breaker)) || probesInFlight(breaker) > 0;
		if (entry.grant() != 0 || traffic || open <= 2 * RECLAIM_MILLIS) {
			// a holder renews its lease; a replica without slots asks again when it has
			// traffic, or when its open
			// wait is about to end (the slots matter from then on)
			claim(breaker, entry, round, traffic);
		}
		else {
			apply(breaker, entry);
			sync.thread().schedule(() -> tick(breaker, entry, round), RECLAIM_MILLIS);
		}
	}

	private void alone(Breaker breaker, FleetEntry entry) {
		entry.alone(true);
		LOG.log(System.Logger.Level.WARNING,
				"breaker ''{0}'': no fleet probe slot within its max-open-wait of {1} ms ({2}); "
						+ "probing on its own, one probe at a time, for this episode",
				Printable.of(breaker.name(), Printable.NAME), breaker.config().maxOpenWait().toMillis(),
				entry.distrusted().isEmpty()
						? "the slots stayed taken by holders that keep renewing, or by something that is not a replica"
						: "holders not signed with the fleet's key: "
								+ Printable.of(entry.distrusted().toString(), Printable.NAME));
		if (breaker.state() == State.HALF_OPEN) {
			SharedStateHooks.limitProbes(breaker, 1);
		}
	}

	/**
	 * Entering half-open (caller's thread, a local call only): probe with the slots the
	 * fleet already gave this replica for the episode it follows. If the answer is not in
	 * yet, probe not at all until it is; if the fleet cannot answer, use the local limit;
	 * if the episode has held it open past its max-open-wait, one probe.
	 */
	void halfOpened(Breaker breaker) {
		FleetEntry entry = sync.entries().get(breaker.name());
		FleetParticipation.Probing probing = (entry != null) ? entry.probing() : null;
		if (probing == null || probing.tie().isEmpty()) {
			return; // a local episode (a trip short of the quorum): local limits
		}
		if (probing.alone() || !sync.status().up()) {
			return;
		}
		if (probing.grant() <= 0 && System.nanoTime() - probing.deadlineNanos() >= 0) {
			sync.thread().submit(() -> alone(breaker, entry));
			return;
		}
		int grant = probing.grant();
		if (grant >= 0) {
			SharedStateHooks.limitProbes(breaker, grant);
			return;
		}
		int round = probing.round();
		SharedStateHooks.limitProbes(breaker, 0);
		if (!sync.thread().submit(() -> claim(breaker, entry, round, false))) {
			SharedStateHooks.limitProbes(breaker, breaker.config().halfOpenMaxProbes());
		}
	}

	/** Calls finished and rejected so far: it moves while the breaker has traffic. */
	private static long demand(Breaker breaker) {
		Totals totals = breaker.totals();
		long calls = totals.rejected();
		for (Outcome outcome : Outcome.values()) {
			calls += totals.calls(outcome);
		}
		return calls;
	}

	private static int probesInFlight(Breaker breaker) {
		return breaker.snapshot().probes().inFlight();
	}

	/** How much longer the breaker stays open here, 0 if it is not open. */
	static long openMillis(Breaker breaker) {
		Snapshot snapshot = breaker.snapshot();
		if (snapshot.state() != State.OPEN || snapshot.openUntil() == null) {
			return 0;
		}
		return Math.max(0, Duration.between(breaker.config().clock().instant(), snapshot.openUntil()).toMillis());
	}

}
