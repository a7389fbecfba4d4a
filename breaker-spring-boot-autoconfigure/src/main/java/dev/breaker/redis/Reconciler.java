package dev.breaker.redis;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

import dev.breaker.core.Breaker;
import dev.breaker.core.State;
import io.lettuce.core.ScanCursor;

/**
 * After a (re)connect, or when Redis answers again after a hang: reads every circuit the
 * fleet holds open and every standing override, then tells the fleet about trips this
 * replica made while it could not (or that Redis forgot because it restarted empty). Runs
 * on the sync thread.
 *
 * <p>
 * The read is a cursor-based SCAN, one page of a couple of hundred keys at a time, each
 * open circuit or override read with a tiny script of its own: Redis is never held up,
 * however many keys it holds. In a Cluster the SCAN walks every primary in turn (each
 * open circuit lives on the primary of its slot). A key under the fleet's prefix that
 * this version cannot read is skipped and named once at WARN (escaped), never retried in
 * a loop.
 */
final class Reconciler {

	private static final System.Logger LOG = System.getLogger(FleetSync.class.getName());

	private static final int MOST_WARNED = 1_000;

	private final FleetSync sync;

	private final Set<String> warned = new LinkedHashSet<>();

	private volatile Consumer<Breaker> beforeOverrideEnd = breaker -> {
	};

	private volatile Consumer<Breaker> afterOverrideEnd = breaker -> {
	};

	private boolean running;

	private boolean again;

	private String serverRunId;

	Reconciler(FleetSync sync) {
		this.sync = sync;
	}

	/**
	 * Starts a full read, or asks for another one when a read is under way (a second
	 * reconnect during the first).
	 */
	void resync() {
		if (running) {
			again = true;
			return;
		}
		running = true;
		again = false;
		sync.store().serverRunId().whenComplete((runId, error) -> sync.thread().submit(() -> {
			if (error != null) {
				failed(error);
				return;
			}
			boolean forgot = serverRunId != null && !serverRunId.equals(runId);
			serverRunId = runId;
			if (forgot) {
				sync.entries().all().forEach(FleetEntry::forget);
			}
			page(ScanCursor.INITIAL, new Pass(forgot, sync.sequence()));
		}));
	}

	/**
	 * Whether a read is under way (sync thread): an untold override waits for its end,
	 * which decides it (the read may end it here, or leave it to be told).
	 */
	boolean reading() {
		return running;
	}

	/**
	 * One pass over the keyspace: what it found, and whether Redis forgot everything
	 * before it.
	 */
	private static final class Pass {

		final boolean redisForgot;

		final long startedAt;

		final Set<String> overrides = new HashSet<>();

		/** The episode found open in Redis, per breaker. */
		final Map<String, String> opens = new HashMap<>();

		Pass(boolean redisForgot, long startedAt) {
			this.redisForgot = redisForgot;
			this.startedAt = startedAt;
		}

	}

	private void page(ScanCursor cursor, Pass pass) {
		long sent = sync.sequence();
		sync.store().scan(cursor).thenCompose(page -> {
			List<CompletableFuture<Void>> reads = new ArrayList<>();
			for (String key : page.keys()) {
				FleetKeys.Found found = sync.store().keys().parse(key);
				if (found != null) {
					reads.add(read(key, found, sent, pass));
				}
			}
			return CompletableFuture.allOf(reads.toArray(CompletableFuture[]::new)).thenApply(done -> page);
		}).whenComplete((page, error) -> sync.thread().submit(() -> {
			if (error != null) {
				failed(error);
			}
			else if (page.finished()) {
				finish(pass);
			}
			else {
				page(page.next(), pass);
			}
		}));
	}

	private CompletableFuture<Void> read(String key, FleetKeys.Found found, long sent, Pass pass) {
		String name = found.breaker();
		CompletableFuture<Void> read = found.kind() == FleetKeys.Found.Kind.STATE
				? sync.store().readOpen(name).thenAccept(stored -> sync.thread().submit(() -> {
					if (stored.circuit() != null && sync.trust().acceptStored(stored.circuit())) {
						pass.opens.put(name, stored.circuit().episode());
						sync.applyStored(stored, sent);
					}
				})) : sync.store().readStanding(name).thenAccept(standing -> sync.thread().submit(() -> {
					FleetMessage override = standing == null ? null : standing.override();
					if (override != null && sync.trust().acceptStanding(standing)) {
						pass.overrides.add(name);
						FleetEntry entry = sync.entries().get(name);
						if (entry != null && entry.untoldLatest() != null) {
							// this replica's operator decided while Redis did not take
							// it: which decision is later is decided once the pass is
							// done, with when Redis's latest was made
							return;
						}
						if (entry == null || !entry.changedSince(sent)) {
							sync.peers().apply(override, sync.nextSequence(), Long.MAX_VALUE, false);
						}
					}
				}));
		return read.exceptionally(error -> skipMalformed(key, error, null));
	}

	/**
	 * A key this version cannot read is warned of once and read as {@code none}; any
	 * other error fails the read.
	 */
	private <T> T skipMalformed(String key, Throwable error, T none) {
		if (StoreReplies.malformed(error)) {
			sync.thread().submit(() -> warnOnce(key, error));
			return none;
		}
		throw RedisBreakerStore.rethrow(error);
	}

	private void warnOnce(String key, Throwable error) {
		if (warned.size() < MOST_WARNED && warned.add(key)) {
			LOG.log(System.Logger.Level.WARNING,
					"breaker fleet, replica {0}: skipped malformed fleet key ''{1}'' ({2}); "
							+ "it is left alone, and not named again",
					sync.replicaId(), Printable.of(key, Printable.NAME),
					Printable.of(RedisBreakerStore.message(error), Printable.REASON));
		}
	}

	/**
	 * The read is complete: end overrides that ended while this replica was away, and
	 * tell the fleet what it missed.
	 */
	private void finish(Pass pass) {
		List<CompletableFuture<Void>> reads = new ArrayList<>();
		for (FleetEntry entry : sync.entries().all()) {
			FleetMessage untold = entry.untold();
			if (untold != null && entry.untoldLatest() != null) {
				String name = untold.breaker();
				// a malformed key, as in the pass: no override, no decision time known
				// (so it does not outdo this one)
				reads.add(sync.store()
					.readOverrideDecided(name)
					.exceptionally(error -> skipMalformed(sync.store().keys().override(name), error,
							new StoreReplies.OverrideRead(null, -1, "")))
					.thenAccept(read -> sync.thread().submit(() -> untold(name, entry, read, pass))));
			}
		}
		CompletableFuture.allOf(reads.toArray(CompletableFuture[]::new))
			.whenComplete((done, error) -> sync.thread().submit(() -> {
				if (error != null) {
					failed(error);
				}
				else {
					complete(pass);
				}
			}));
	}

	/**
	 * An override this replica's operator decided while Redis did not take it, still the
	 * latest decision here, meets what Redis holds: the later in time wins. Redis's
	 * latest decision (a stored override, or a reset, which leaves a decided time and no
	 * override) made after it stands and is applied here (a reset: by the end of
	 * overrides the pass did not find); one made before it (or none known) is neither
	 * applied over it nor drops it, and the untold one is sent again after the pass.
	 */
	private void untold(String name, FleetEntry entry, StoreReplies.OverrideRead read, Pass pass) {
		FleetMessage stored = read.override();
		entry.knowUntoldDecidedAt(sync.trust().clock());
		long takenAt = read.decidedAt() >= 0 ? read.decidedAt() : (stored != null) ? stored.issuedAt() : -1;
		if (entry.untoldLatest() == null || !entry.untoldOutdoneAt(takenAt)) {
			pass.overrides.add(name);
			return;
		}
		if (stored != null && sync.trust().acceptStanding(new StoreReplies.StandingOverride(stored, read.taken()))) {
			pass.overrides.add(name);
			sync.peers().apply(stored, sync.nextSequence(), Long.MAX_VALUE, false);
		}
		else {
			pass.overrides.remove(name);
		}
	}

	private void complete(Pass pass) {
		for (Breaker breaker : sync.registry().all()) {
			FleetEntry entry = sync.entries().get(breaker.name());
			if (entry != null && !pass.overrides.contains(breaker.name())) {
				endOverrideUnheard(breaker, entry, pass.startedAt, pass.opens.getOrDefault(breaker.name(), ""));
			}
			if (entry != null) {
				sync.overrides().superseded(entry);
			}
			republish(breaker, entry, pass.redisForgot);
		}
		running = false;
		sync.synced();
		if (again) {
			resync();
		}
	}

	/**
	 * The operator's reset reached the others while this replica was deaf: the standing
	 * override ends, and the breaker closes if still FORCED_OPEN or DISABLED, unless an
	 * operator here decided otherwise since (then that decision stands). Closed so, it
	 * follows the episode the read found open ({@code found}, "" none), as a replica that
	 * heard the reset does: the reset left that one open.
	 */
	private void endOverrideUnheard(Breaker breaker, FleetEntry entry, long unheardSince, String found) {
		// an operator's override on another thread may land here, and end it first
		beforeOverrideEnd.accept(breaker);
		OverrideDecision end = entry.endOverrideUnheardSince(unheardSince, found, sync::nextSequence);
		if (end != null) {
			afterOverrideEnd.accept(breaker);
			OverrideDecision.settle(breaker, entry, end);
			if (!found.isEmpty() && entry.current(found) && breaker.state() == State.CLOSED) {
				// the override held it out of the episode (it may have followed it
				// before)
				entry.untie();
				sync.peers().follow(breaker, entry, found, false);
			}
		}
	}

	/**
	 * For tests only: runs (on the sync thread) as a breaker's standing override, not
	 * found by the pass, is about to be ended, so a test can land an operator's override
	 * exactly there.
	 */
	void beforeOverrideEnd(Consumer<Breaker> hook) {
		beforeOverrideEnd = hook;
	}

	/**
	 * For tests only: runs (on the sync thread) once a breaker's standing override, not
	 * found by the pass, has been ended in the mirror and before its breaker is closed
	 * here, so a test can land an operator's override exactly there.
	 */
	void afterOverrideEnd(Consumer<Breaker> hook) {
		afterOverrideEnd = hook;
	}

	private void republish(Breaker breaker, FleetEntry entry, boolean redisForgot) {
		if (breaker.state() != State.OPEN || (entry != null && entry.remainingMillis(System.nanoTime()) > 0)) {
			return;
		}
		FleetPublisher.Trip unpublished = (entry != null) ? entry.tripUnpublished() : null;
		boolean followed = entry != null && !entry.tied().isEmpty();
		if (redisForgot && followed) {
			// the fleet had agreed on it: put it back as it was, whatever the quorum
			sync.publisher().trip(breaker.name(), "re-sync: " + entry.reason(), FleetPublisher.Trip.FLEET, null);
		}
		else if (unpublished != null || redisForgot) {
			// a trip that was to open the fleet at once (its window, failed probes for
			// it)
			// still does: sent as a vote it would wait for a quorum that may never come
			FleetPublisher.Trip kind = (unpublished != null) ? unpublished : FleetPublisher.Trip.VOTE;
			sync.publisher().trip(breaker.name(), "re-sync: " + lastOpenReason(breaker), kind, null);
		}
	}

	private void failed(Throwable error) {
		running = false;
		LOG.log(System.Logger.Level.DEBUG, "fleet re-sync failed; trying again when Redis answers", error);
		// the store calls onReachable when Redis answers again; if it never stopped
		// answering, try again shortly
		sync.thread().schedule(() -> {
			if (sync.status().up()) {
				resync();
			}
		}, sync.settings().reconnectInterval().toMillis());
	}

	private static String lastOpenReason(Breaker breaker) {
		var transitions = breaker.snapshot().transitions();
		for (int i = transitions.size() - 1; i >= 0; i--) {
			if (transitions.get(i).to() == State.OPEN) {
				return transitions.get(i).reason();
			}
		}
		return "open";
	}

}
