package dev.breaker.core;

/** The one {@link Permit} implementation: preallocated per state object, so acquire allocates nothing. */
final class Ticket implements Permit {

    /** The breaker that issued it. */
    final Breaker owner;
    /** The state object (and so the generation) it was issued in; null for a rejection. */
    final BreakerState state;
    final boolean probe;
    /** The parent breaker's permit when a child consults its parent, else null. */
    final Ticket parent;

    Ticket(Breaker owner, BreakerState state, boolean probe, Ticket parent) {
        this.owner = owner;
        this.state = state;
        this.probe = probe;
        this.parent = parent;
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
                : "Permit[" + BreakerNames.printable(owner.name()) + " " + state.state + " generation " + state.generation
                        + (probe ? ", probe]" : "]");
    }
}
