package dev.breaker.core;

/**
 * The one {@link Permit} implementation: preallocated per state object (or per bucket, or
 * per probe slot), so acquire allocates nothing.
 */
final class Ticket implements Permit {

	/** The breaker that issued it. */
	final Breaker owner;

	/**
	 * The state object (and so the generation) it was issued in; null for a rejection.
	 */
	final BreakerState state;

	final boolean probe;

	/** The parent breaker's permit when a child consults its parent, else null. */
	final Ticket parent;

	/**
	 * With the stall rule on, the bucket (epoch) a CLOSED call started in; for a probe,
	 * its slot's lease (see HalfOpenState); else 0.
	 */
	final long epoch;

	/** A half-open probe's slot, else -1. */
	final int slot;

	Ticket(Breaker owner, BreakerState state, boolean probe, Ticket parent) {
		this(owner, state, probe, parent, 0, -1);
	}

	Ticket(Breaker owner, BreakerState state, boolean probe, Ticket parent, long epoch, int slot) {
		this.owner = owner;
		this.state = state;
		this.probe = probe;
		this.parent = parent;
		this.epoch = epoch;
		this.slot = slot;
	}

	/** This permit bound to a parent's permit. */
	Ticket withParent(Ticket parentPermit) {
		return new Ticket(owner, state, probe, parentPermit, epoch, slot);
	}

	@Override
	public boolean granted() {
		return state != null;
	}

	@Override
	public boolean probe() {
		return probe;
	}

	@Override
	public String toString() {
		return state == null ? "Permit[rejected by " + BreakerNames.printable(owner.name()) + "]"
				: "Permit[" + BreakerNames.printable(owner.name()) + " " + state.state + " generation "
						+ state.generation + (probe ? ", probe]" : "]");
	}

}
