package dev.breaker.redis;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

import dev.breaker.core.Breaker;
import dev.breaker.core.State;

/**
 * An operator's override in fleet mode: applied on this replica at once, and for the
 * whole fleet announced and (for FORCED_OPEN and DISABLED) stored, so replicas started
 * later honour it too. With the replica scope it stays on this replica. HALF_OPEN ("probe
 * now") is always this replica's only: probes are shared out by the fleet anyway.
 *
 * <p>
 * An override Redis does not take (it refuses the write: READONLY, NOREPLICAS, OOM,
 * CLUSTERDOWN; or it does not answer) is logged at WARN and shown in the breaker's fleet
 * state ({@link FleetBreakerView#untold()}) until it is taken or superseded. It is
 * announced again (newly issued, so signing accepts it) one reconnect interval later,
 * then two, four, at most eight apart (refused or not answered alike: an unanswered one
 * is sent again once Redis answers), as long as it is still the latest decision here and
 * no peer's announcement was heard since it was made. Redis takes one sent again only if
 * no decision it took was decided after it (the override script compares decision times),
 * so a later decision, a peer's not yet heard here or this operator's next, is never
 * overruled by an old one sent again, and one Redis ran though its answer timed out is at
 * most taken twice, harmlessly, while it is still the latest.
 */
final class FleetOverrides {

	private static final System.Logger LOG = System.getLogger(FleetSync.class.getName());

	/** A refused override is sent again at most {@code 2^3} reconnect intervals apart. */
	private static final int MOST_DOUBLINGS = 3;

	/**
	 * Set while an override is being applied here, so the transition it causes is not
	 * published as a trip or close.
	 */
	private static final ThreadLocal<Boolean> APPLYING = ThreadLocal.withInitial(() -> false);

	private final FleetSync sync;

	/**
	 * How many times in a row Redis did not take each breaker's override (sync thread
	 * only).
	 */
	private final Map<String, Integer> failedInARow = new HashMap<>();

	/** The breakers whose untold override is to be sent again (sync thread only). */
	private final Set<String> resendPending = new HashSet<>();

	private volatile Consumer<Breaker> beforeResend = breaker -> {
	};

	FleetOverrides(FleetSync sync) {
		this.sync = sync;
	}

	/**
	 * Whether the transition being reported on this thread is an operator's override
	 * applied through fleet mode.
	 */
	static boolean applying() {
		return APPLYING.get();
	}

	/**
	 * Runs {@code change} (an operator's override applied to a breaker here) so the
	 * transition it causes is not published as a trip or close.
	 */
	static void applyingHere(Runnable change) {
		boolean outer = APPLYING.get();
		APPLYING.set(true);
		try {
			change.run();
		}
		finally {
			APPLYING.set(outer);
		}
	}

	/** The reason a replica's own transition carries. */
	static String here(State state, boolean fleetWide) {
		return "operator: " + state + (fleetWide ? " on every replica" : " on this replica only");
	}

	/**
	 * The reason a peer's transition carries, naming the replica whose operator made it.
	 */
	static String fromPeer(String replica, State state) {
		return Printable.of("operator on " + replica + ": " + state + " on every replica", Printable.REASON);
	}

	/**
	 * Applies the override here (caller's thread) and, when {@code fleetWide}, tells
	 * every replica.
	 */
	void apply(Breaker breaker, State state, boolean fleetWide) {
		// held while it is applied (the endpoint holds it already): an override landing
		// on a child evicted meanwhile, with the mirror entry the eviction swept away,
		// would be lost to the next call, which gets a fresh CLOSED child
		boolean held = sync.registry().override(breaker.name(), live -> {
			applyHeld(live, state, fleetWide);
			return true;
		}).orElse(false);
		if (!held) {
			applyHeld(breaker, state, fleetWide);
		}
	}

	private void applyHeld(Breaker breaker, State state, boolean fleetWide) {
		boolean shared = fleetWide && state != State.HALF_OPEN;
		FleetEntry entry = sync.entries().local(breaker.name());
		String reason = here(state, shared);
		FleetMessage announcement = shared
				? sync.trust().issue(FleetMessage.Kind.OVERRIDE, breaker.name(), "", 0, state, sync.replicaId(), reason)
				: null;
		if (state == State.HALF_OPEN) {
			// "probe now" is no standing decision: nothing to keep in step with
			applyingHere(() -> breaker.override(state, reason, false));
		}
		else {
			OverrideDecision decided;
			// the decision and its publish in one order (the entry's lock calls nothing
			// out): Redis publishes this replica's overrides in the order they were
			// decided
			synchronized (entry) {
				decided = entry.decide(OverrideDecision.operator(state, reason, sync.nextSequence(), announcement));
				if (announcement != null) {
					long since = sync.nextSequence();
					entry.overridden(announcement, since);
					publish(entry, announcement, since, announcement.issuedAt(), false);
				}
			}
			// outside any lock: the breaker runs its listeners, which may override again
			OverrideDecision.settle(breaker, entry, decided);
			if (announcement != null) {
				superseded(entry);
			}
		}
		if (state == State.CLOSED || state == State.HALF_OPEN) {
			entry.localOverride(null);
		}
		else {
			entry.localOverride(shared ? null : state);
		}
		if (announcement == null) {
			if (state == State.CLOSED) {
				entry.untie();
			}
			return;
		}
		if (state == State.CLOSED) {
			entry.untie();
		}
	}

	/**
	 * Queues the publish of {@code announcement}, decided at {@code since} (this
	 * replica's sequence) and {@code decidedAt} (Redis's time as this replica estimated
	 * it), and sent {@code again} or not; what Redis answers is handled on the sync
	 * thread. Called under the entry's lock: it only hands work on.
	 */
	private void publish(FleetEntry entry, FleetMessage announcement, long since, long decidedAt, boolean again) {
		long decidedNanos = System.nanoTime();
		entry.publishes()
			.queue(PublishOrder.Publish.AFTER_TRIP, sync.thread(),
					() -> sync.store()
						.override(announcement, decidedAt, again)
						.whenComplete((took, error) -> sync.thread().submit(() -> {
							if (error != null) {
								notTaken(entry, announcement, since, decidedNanos, error);
							}
							else if (took) {
								taken(entry, announcement);
							}
							else {
								outdone(entry, announcement);
							}
						})));
	}

	/** Redis took the override (sync thread). */
	private void taken(FleetEntry entry, FleetMessage announcement) {
		String name = announcement.breaker();
		boolean wasRefused = failedInARow.remove(name) != null;
		if (entry.told(announcement) && wasRefused) {
			LOG.log(System.Logger.Level.INFO,
					"breaker fleet, replica {0}: Redis took the override {1} of breaker ''{2}'' on every replica "
							+ "it refused before; the fleet is told",
					sync.replicaId(), announcement.override(), Printable.of(name, Printable.NAME));
		}
	}

	/**
	 * Redis did not take the override sent again: a decision it took was decided after it
	 * (another replica's, not yet heard here), and stands (sync thread).
	 */
	private void outdone(FleetEntry entry, FleetMessage announcement) {
		failedInARow.remove(announcement.breaker());
		if (entry.told(announcement)) {
			neverTold(announcement);
		}
	}

	/**
	 * Redis did not take the override (sync thread): kept, logged and sent again later
	 * while it is the latest decision here.
	 */
	private void notTaken(FleetEntry entry, FleetMessage announcement, long since, long decidedNanos, Throwable error) {
		String name = announcement.breaker();
		boolean first = !announcement.equals(entry.untold());
		if (!entry.untold(announcement, since, decidedNanos, RedisBreakerStore.message(error))) {
			failedInARow.remove(name);
			return; // a later decision was made, or the fleet moved on: nothing to tell
		}
		if (first && !failedInARow.containsKey(name)) {
			LOG.log(System.Logger.Level.WARNING,
					"breaker fleet, replica {0}: Redis did not take the override {1} of breaker ''{2}'' on every "
							+ "replica ({3}); it stands here, the fleet was not told{4}",
					sync.replicaId(), announcement.override(), Printable.of(name, Printable.NAME),
					Printable.of(RedisBreakerStore.message(error), Printable.REASON),
					"; it is sent again while it is the latest decision, until Redis takes it");
		}
		failedInARow.merge(name, 1, Integer::sum);
		scheduleResend(entry, name);
	}

	/**
	 * One pending resend a breaker, however many of its overrides Redis did not take:
	 * after one reconnect interval, then two, four, at most eight (sync thread).
	 */
	private void scheduleResend(FleetEntry entry, String name) {
		if (!resendPending.add(name)) {
			return;
		}
		int refusals = failedInARow.getOrDefault(name, 1);
		long pause = sync.settings().reconnectInterval().toMillis() << Math.min(refusals - 1, MOST_DOUBLINGS);
		sync.thread().schedule(() -> {
			resendPending.remove(name);
			resend(entry, name);
		}, pause);
	}

	/**
	 * Sends the untold override again, newly issued, if it is still the latest decision
	 * here and no peer's announcement was heard since it was made (sync thread); while
	 * Redis is unreachable or a reconnect read is under way, waits for the next pause.
	 */
	private void resend(FleetEntry entry, String name) {
		sync.registry().find(name).ifPresent(beforeResend);
		superseded(entry);
		FleetMessage untold = entry.untold();
		if (untold == null || sync.entries().get(name) != entry) {
			failedInARow.remove(name);
			return;
		}
		if (!sync.status().up() || sync.reconciler().reading()) {
			// Redis went away (or never answered): the reconnect read, once Redis
			// answers,
			// decides first (it ends here an override the fleet never heard, or leaves
			// the
			// untold one standing over its own older one stored); try again after it
			scheduleResend(entry, name);
			return;
		}
		entry.knowUntoldDecidedAt(sync.trust().clock());
		FleetMessage fresh = sync.trust().issueAgain(untold, entry.untoldDecidedAt());
		synchronized (entry) {
			// as an operator's decision: checked, made the latest's announcement and
			// queued in one step, so its publish keeps the order of the decisions here
			if (!entry.reissue(untold, fresh)) {
				failedInARow.remove(name);
				return;
			}
			// taken only if no decision Redis took was decided after this one
			publish(entry, fresh, entry.untoldSince(), entry.untoldDecidedAt(), true);
		}
	}

	/**
	 * Drops the entry's untold override if a later decision or a peer's announcement came
	 * after it, and says so when another replica's decision superseded it (any thread: a
	 * resend still pending finds nothing to send).
	 */
	void superseded(FleetEntry entry) {
		FleetMessage dropped = entry.supersededUntold();
		if (dropped != null) {
			neverTold(dropped);
		}
	}

	private void neverTold(FleetMessage dropped) {
		LOG.log(System.Logger.Level.WARNING,
				"breaker fleet, replica {0}: the override {1} of breaker ''{2}'' on every replica, which Redis "
						+ "did not take, was never told to the fleet; a later decision of the fleet stands",
				sync.replicaId(), dropped.override(), Printable.of(dropped.breaker(), Printable.NAME));
	}

	/**
	 * For tests only: runs (on the sync thread) as the pause after a refused override
	 * ends, before it is checked and sent again, so a test can land a decision exactly
	 * there.
	 */
	void beforeResend(Consumer<Breaker> hook) {
		beforeResend = hook;
	}

}
