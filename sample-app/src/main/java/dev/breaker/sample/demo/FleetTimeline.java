package dev.breaker.sample.demo;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import dev.breaker.core.BreakerConfig;
import dev.breaker.core.State;
import dev.breaker.sample.dependency.DependencyServer;

/**
 * What the fleet demo notes while its script runs, for the closing table: when each event
 * happened (the wedge, Redis killed and started again, every store back, the heal), what
 * each replica's payments breaker had done by the wedge and the heal, whether each store
 * saw Redis gone, and the requests that reached the gateway between the heal and the
 * first close after it (the recovery's probes).
 */
final class FleetTimeline {

	private final List<FleetReplica> fleet;

	private final DependencyServer gateway;

	private final long start;

	private final long[] probesAtWedge;

	private final long[] probesAtHeal;

	private final boolean[] closedAtWedge;

	private final boolean[] seenDown;

	private long wedgeAt;

	private long downAt;

	private long upAt;

	private long backAt;

	private long healAt;

	private final AtomicLong receivedAtHeal = new AtomicLong(-1);

	private final AtomicLong receivedAtClose = new AtomicLong(-1);

	/**
	 * Starts noting, from {@code start} on: the first close after the heal is heard from
	 * every replica's payments breaker.
	 */
	FleetTimeline(List<FleetReplica> fleet, DependencyServer gateway, long start) {
		this.fleet = fleet;
		this.gateway = gateway;
		this.start = start;
		int n = fleet.size();
		this.probesAtWedge = new long[n];
		this.probesAtHeal = new long[n];
		this.closedAtWedge = new boolean[n];
		this.seenDown = new boolean[n];
		for (FleetReplica replica : fleet) {
			replica.onPaymentsTransition((transition) -> {
				if (transition.to() == State.CLOSED && this.receivedAtHeal.get() >= 0) {
					this.receivedAtClose.compareAndSet(-1, gateway.received());
				}
			});
		}
	}

	/** The replica at {@code index} says whether its store sees Redis. */
	void store(int index, boolean up) {
		this.seenDown[index] |= (this.downAt != 0 && !up);
	}

	/**
	 * Notes the moment every store sees Redis again, once, after the restart.
	 * @return nanoseconds from the start to that moment if it is now, else -1
	 */
	long everyStoreBack() {
		if (this.upAt != 0 && this.backAt == 0 && this.fleet.stream().allMatch((replica) -> replica.store().up())) {
			this.backAt = System.nanoTime();
			return this.backAt - this.start;
		}
		return -1;
	}

	/** Just before the gateway wedges: which breakers are closed, the probes so far. */
	void wedging() {
		for (int i = 0; i < this.fleet.size(); i++) {
			this.closedAtWedge[i] = this.fleet.get(i).payments() == State.CLOSED;
			this.probesAtWedge[i] = this.fleet.get(i).breakers().probes("payments");
		}
	}

	/** The gateway wedged: nanoseconds from the start. */
	long wedged() {
		this.wedgeAt = System.nanoTime();
		return this.wedgeAt - this.start;
	}

	/** Redis was killed: nanoseconds from the start. */
	long redisDown() {
		this.downAt = System.nanoTime();
		return this.downAt - this.start;
	}

	/** Redis was started again: nanoseconds from the start. */
	long redisUp() {
		this.upAt = System.nanoTime();
		return this.upAt - this.start;
	}

	/** Just before the gateway heals: the probes so far, the requests it has had. */
	void healing() {
		for (int i = 0; i < this.fleet.size(); i++) {
			this.probesAtHeal[i] = this.fleet.get(i).breakers().probes("payments");
		}
		this.receivedAtHeal.set(this.gateway.received());
	}

	/** The gateway healed: nanoseconds from the start. */
	long healed() {
		this.healAt = System.nanoTime();
		return this.healAt - this.start;
	}

	/**
	 * What the run measured, once the load has stopped.
	 * @param warmup seconds of warm-up from the start, which the checkouts do not count
	 */
	FleetResult result(int warmup) {
		long outageEnd = (this.backAt != 0) ? this.backAt : Long.MAX_VALUE;
		List<FleetResult.Replica> results = new ArrayList<>();
		for (int i = 0; i < this.fleet.size(); i++) {
			FleetReplica replica = this.fleet.get(i);
			results.add(replica.result(this.start + TimeUnit.SECONDS.toNanos(warmup), this.wedgeAt,
					this.closedAtWedge[i], this.healAt, this.probesAtHeal[i] - this.probesAtWedge[i],
					replica.breakers().probes("payments") - this.probesAtHeal[i], this.downAt, outageEnd,
					this.seenDown[i]));
		}
		BreakerConfig payments = this.fleet.get(0).paymentsConfig();
		long recoveryProbes = (this.receivedAtClose.get() >= 0) ? this.receivedAtClose.get() - this.receivedAtHeal.get()
				: -1;
		// A half-open round that failed (reopened) before the first close started another
		// round of probes.
		long firstClose = this.healAt + results.stream()
			.mapToLong(FleetResult.Replica::closedMillis)
			.filter((millis) -> millis >= 0)
			.min()
			.stream()
			.map(TimeUnit.MILLISECONDS::toNanos)
			.findFirst()
			.orElse(Long.MAX_VALUE - this.healAt);
		int rounds = 1;
		for (FleetReplica replica : this.fleet) {
			rounds += replica.breakers().countOwn("payments", State.HALF_OPEN, State.OPEN, this.healAt, firstClose);
		}
		return new FleetResult(results, recoveryProbes, rounds, payments.halfOpenMaxProbes(),
				payments.halfOpenSuccessesToClose(), payments.halfOpenFailuresToReopen(),
				TimeUnit.NANOSECONDS.toMillis(this.upAt - this.downAt),
				(this.backAt != 0) ? TimeUnit.NANOSECONDS.toMillis(this.backAt - this.upAt) : -1);
	}

}
