package dev.breaker.redis;

import java.time.Duration;

import dev.breaker.core.Breaker;
import dev.breaker.core.State;
import dev.breaker.core.Transition;
import dev.breaker.core.spi.SharedStateHooks;

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
				String followed = entry.tied();
				if (FLEET_WINDOW.get()) {
					sync.publisher().trip(name, transition.reason(), FleetPublisher.Trip.FLEET, null);
				}
				else if (transition.from() == State.HALF_OPEN && !followed.isEmpty() && entry.grant() > 0) {
					// this replica probed for the fleet and its probes failed: the fleet
					// reopens, in a new episode
					sync.publisher().trip(name, transition.reason(), FleetPublisher.Trip.FLEET, followed);
				}
				else {
					sync.publisher().trip(name, transition.reason(), FleetPublisher.Trip.VOTE, null);
				}
			}
			case CLOSED -> {
				if (transition.from() == State.OPEN || transition.from() == State.HALF_OPEN) {
					sync.publisher().close(name, transition.reason());
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
		FleetEntry.HeldOpen open = entry.heldOpen(System.nanoTime());
		if (open != null) {
			FleetEntry opened = entry;
			SharedStateHooks.openFromPeer(breaker,
					Duration.ofMillis(Math.min(open.remainingMillis(), breaker.config().maxOpenWait().toMillis())),
					open.peerReason());
			sync.thread().submit(() -> {
				if (breaker.state() != State.OPEN || !opened.tied().isEmpty()) {
					return;
				}
				if (opened.ended(open.episode())) {
					// the episode's close came before this: it passed the breaker by,
					// which followed nothing yet
					SharedStateHooks.closeFromPeer(breaker, opened.peerReason());
					return;
				}
				opened.tie(open.episode(), sync.deadline(breaker));
				sync.probes().opened(breaker, opened);
			});
		}
	}

	void removed(Breaker breaker) {
		sync.entries().removed(breaker.name());
	}

}
