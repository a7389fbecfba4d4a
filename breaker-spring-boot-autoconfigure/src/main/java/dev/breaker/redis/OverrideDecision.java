package dev.breaker.redis;

import dev.breaker.core.Breaker;
import dev.breaker.core.State;
import org.jspecify.annotations.Nullable;

/**
 * One decision about a breaker's override on this replica, immutable: an operator's here,
 * a peer's (heard on the channel or read from Redis), or the reconnect read's end of one
 * nobody re-announced. The entry keeps the latest ({@link FleetEntry#decide}); each is a
 * new instance, told apart by identity, and numbered by the fleet sync's counter.
 *
 * <p>
 * A decision is applied to the breaker outside any lock (the breaker runs its listeners,
 * which may override again), so two decisions made at once may reach the breaker in the
 * other order. Whoever applied one looks at the latest afterwards and applies that too
 * when the breaker is not in its state ({@link #settle}): the breaker ends in the latest
 * decision, whichever thread came last.
 */
final class OverrideDecision {

	/** No decision yet. */
	static final OverrideDecision NONE = new OverrideDecision(Source.NONE, State.CLOSED, "", true, 0, null, null);

	enum Source {

		/** Nothing decided yet. */
		NONE,

		/** This replica's operator (either scope). */
		OPERATOR,

		/**
		 * A peer's override, heard or read, or this replica's own told back by the fleet.
		 */
		FLEET,

		/**
		 * The reconnect read ended a standing override it did not find: the breaker
		 * closes only if it is still FORCED_OPEN or DISABLED.
		 */
		UNHEARD_END

	}

	private final Source source;

	private final State state;

	private final String reason;

	private final boolean remote;

	private final long sequence;

	private final @Nullable FleetMessage announcement;

	private final @Nullable FleetMessage lastOwn;

	private OverrideDecision(Source source, State state, String reason, boolean remote, long sequence,
			@Nullable FleetMessage announcement, @Nullable FleetMessage lastOwn) {
		this.source = source;
		this.state = state;
		this.reason = reason;
		this.remote = remote;
		this.sequence = sequence;
		this.announcement = announcement;
		this.lastOwn = lastOwn;
	}

	/**
	 * This decision made after {@code previous}: a new instance, which carries this
	 * replica's operator's last fleet-wide announcement on.
	 */
	OverrideDecision after(OverrideDecision previous) {
		FleetMessage own = (announcement != null) ? announcement : previous.lastOwn;
		return new OverrideDecision(source, state, reason, remote, sequence, announcement, own);
	}

	/**
	 * This replica's operator's override; {@code announcement} its fleet-wide
	 * announcement (null: this replica only).
	 */
	static OverrideDecision operator(State state, String reason, long sequence, @Nullable FleetMessage announcement) {
		return new OverrideDecision(Source.OPERATOR, state, reason, false, sequence, announcement, null);
	}

	/** An override the fleet says (a peer's, or this replica's own told back). */
	static OverrideDecision fleet(State state, String reason, boolean remote, long sequence) {
		return new OverrideDecision(Source.FLEET, state, reason, remote, sequence, null, null);
	}

	static OverrideDecision unheardEnd(long sequence) {
		return new OverrideDecision(Source.UNHEARD_END, State.CLOSED,
				"operator: CLOSED on every replica (heard on reconnect)", true, sequence, null, null);
	}

	Source source() {
		return source;
	}

	/**
	 * The announcement of this replica's operator's last fleet-wide override, this one's
	 * or an earlier one's (null: none).
	 */
	@Nullable FleetMessage lastOwn() {
		return lastOwn;
	}

	/**
	 * This decision with {@code fresh}, the same override announced again (newly issued:
	 * Redis refused the one before), as its announcement: its echo is then this replica's
	 * own last one. The same decision, made when it was.
	 */
	OverrideDecision reissued(FleetMessage fresh) {
		// its own announcement stays as it was (null for an override on this replica
		// only, made after the refused one): only what its echo is compared with changes
		return new OverrideDecision(source, state, reason, remote, sequence, announcement, fresh);
	}

	/** Whether it is this replica's operator's override on this replica only. */
	boolean replicaOnly() {
		return source == Source.OPERATOR && announcement == null;
	}

	/** The fleet sync's counter when it was made. */
	long sequence() {
		return sequence;
	}

	/**
	 * Whether {@code echo}, this replica's own announcement told back on the channel, is
	 * to be applied to the breaker again: it is the announcement of this replica's
	 * operator's last fleet-wide override, and a peer's override (or the reconnect read's
	 * end of one) was decided after that, which Redis therefore published before it. An
	 * operator's decision after it stands: its own announcement comes later.
	 */
	boolean toldBackOver(FleetMessage echo) {
		return (source == Source.FLEET || source == Source.UNHEARD_END) && echo.equals(lastOwn);
	}

	/**
	 * Applies {@code decision} to the breaker, unless a later one was made already; then,
	 * while a later one was made meanwhile, applies the latest too if the breaker is not
	 * in its state (it may have reached the breaker before this one). Holds no lock;
	 * returns once the latest decision it saw is the one it applied.
	 */
	static void settle(Breaker breaker, FleetEntry entry, OverrideDecision decision) {
		OverrideDecision applied = null;
		for (OverrideDecision latest = entry.decided(); latest != applied; latest = entry.decided()) {
			if (latest == decision || latest.movesAwayFrom(breaker.state())) {
				latest.applyTo(breaker);
			}
			applied = latest;
		}
	}

	/** Whether applying it would change a breaker in {@code current}. */
	private boolean movesAwayFrom(State current) {
		if (source == Source.NONE) {
			return false;
		}
		// a CLOSED decision is left by traffic after it (a trip, a peer's open): only an
		// older FORCED_OPEN or DISABLED landing after it moves the breaker away from it
		return (source == Source.UNHEARD_END || state == State.CLOSED) ? forced(current) : current != state;
	}

	private void applyTo(Breaker breaker) {
		if (source == Source.NONE || (source == Source.UNHEARD_END && !forced(breaker.state()))) {
			return;
		}
		if (remote) {
			breaker.override(state, reason, true);
		}
		else {
			FleetOverrides.applyingHere(() -> breaker.override(state, reason, false));
		}
	}

	private static boolean forced(State state) {
		return state == State.FORCED_OPEN || state == State.DISABLED;
	}

}
