package dev.breaker.redis;

import java.time.Duration;
import java.util.List;

import dev.breaker.core.Breaker;
import dev.breaker.core.Snapshot;
import dev.breaker.core.State;
import dev.breaker.core.Transition;
import dev.breaker.core.spi.SharedStateHooks;
import org.jspecify.annotations.Nullable;

/**
 * Listens to this replica's breakers, on the caller's thread: it never talks to Redis
 * there, it only hands work to the sync thread (and, entering half-open, applies the
 * probe share the fleet already gave: a local call).
 *
 * <p>
 * Transitions a peer caused ({@link Transition#remote()}) and operators' overrides made
 * through fleet mode are never published again: no echo loops.
 */
final class LocalTransitions {

	/**
	 * Set while the fleet window trips a breaker on this thread: that trip opens the
	 * fleet at once.
	 */
	private static final ThreadLocal<Boolean> FLEET_WINDOW = ThreadLocal.withInitial(() -> false);

	private final FleetSync sync;

	LocalTransitions(FleetSync sync) {
		this.sync = sync;
	}

	/**
	 * The fleet window judged the fleet's failure rate too high: trip the breaker as its
	 * own rule would.
	 */
	static void tripFromFleetWindow(Breaker breaker, String reason) {
		FLEET_WINDOW.set(true);
		try {
			SharedStateHooks.tripNow(breaker, reason);
		}
		finally {
			FLEET_WINDOW.set(false);
		}
	}

	void transitioned(Transition transition) {
		if (sync.thread().closed() || transition.remote() || FleetOverrides.applying()) {
			return;
		}
		String name = transition.breaker();
		switch (transition.to()) {
			case OPEN -> {
				FleetEntry entry = sync.entries().local(name);
				String probedFor = entry.probing().probingFor();
				if (FLEET_WINDOW.get()) {
					sync.publisher().trip(name, transition.reason(), FleetPublisher.Trip.FLEET, null);
				}
				else if (transition.from() == State.HALF_OPEN && !probedFor.isEmpty()) {
					// this replica probed for the fleet and its probes failed: the fleet
					// reopens, in a new episode
					sync.publisher().trip(name, transition.reason(), FleetPublisher.Trip.FLEET, probedFor);
				}
				else {
					sync.publisher().trip(name, transition.reason(), FleetPublisher.Trip.VOTE, null);
				}
			}
			case CLOSED -> {
				if (transition.from() == State.OPEN || transition.from() == State.HALF_OPEN) {
					sync.publisher().close(name, transition.reason(), transition.generation());
				}
			}
			case HALF_OPEN -> sync.registry().find(name).ifPresent(sync.probes()::halfOpened);
			default -> {
			}
		}
	}

	/**
	 * A breaker was created here: it starts as the fleet holds it (a standing override,
	 * or an open episode).
	 */
	void created(Breaker breaker) {
		if (sync.thread().closed()) {
			return;
		}
		FleetEntry entry = sync.entries().get(breaker.name());
		if (entry == null) {
			return;
		}
		entry = sync.entries().local(breaker.name());
		FleetMessage override = entry.override();
		if (override != null) {
			breaker.override(override.override(), FleetOverrides.fromPeer(override.replica(), override.override()),
					true);
			return;
		}
		FleetHeard.HeldOpen open = entry.heldOpen(System.nanoTime());
		if (open != null) {
			FleetEntry opened = entry;
			SharedStateHooks.openFromPeer(breaker,
					Duration.ofMillis(Math.min(open.remainingMillis(), breaker.config().maxOpenWait().toMillis())),
					open.peerReason());
			Transition peerOpen = peerOpen(breaker);
			sync.thread().submit(() -> {
				if (breaker.state() != State.OPEN || !opened.tied().isEmpty()) {
					return;
				}
				if (opened.ended(open.episode())) {
					// the episode's close came before this: it passed the breaker by,
					// which followed nothing yet. Only the peer's open is undone (the
					// close names its generation): a breaker that moved on by itself
					// since, or does so as this runs (its own probes failed), stays open,
					// and its own trip is told
					if (peerOpen != null) {
						SharedStateHooks.closeFromPeer(breaker, opened.peerReason(), peerOpen.generation());
					}
					return;
				}
				opened.tie(open.episode(), sync.deadline(breaker));
				sync.probes().opened(breaker, opened);
			});
		}
	}

	/**
	 * The peer's open just applied to a breaker created here, or null when the breaker is
	 * not in it (it was not closed, or it tripped on its own in between).
	 */
	private static @Nullable Transition peerOpen(Breaker breaker) {
		Transition last = last(breaker.snapshot());
		return last != null && last.remote() && last.to() == State.OPEN ? last : null;
	}

	private static @Nullable Transition last(Snapshot snapshot) {
		List<Transition> transitions = snapshot.transitions();
		return transitions.isEmpty() ? null : transitions.get(transitions.size() - 1);
	}

	void removed(Breaker breaker) {
		sync.entries().removed(breaker.name());
	}

}
