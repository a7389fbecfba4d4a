package dev.breaker.core;

import java.util.EnumMap;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;

/**
 * The one table of allowed moves between states; every transition is checked against it.
 */
final class TransitionTable {

	private static final Map<State, Set<State>> ALLOWED = new EnumMap<>(State.class);

	static {
		// from to: rules and operators
		ALLOWED.put(State.CLOSED,
				EnumSet.of(State.OPEN, State.CLOSED, State.HALF_OPEN, State.FORCED_OPEN, State.DISABLED));
		ALLOWED.put(State.OPEN, EnumSet.of(State.HALF_OPEN, State.CLOSED, State.FORCED_OPEN, State.DISABLED));
		ALLOWED.put(State.HALF_OPEN,
				EnumSet.of(State.CLOSED, State.OPEN, State.HALF_OPEN, State.FORCED_OPEN, State.DISABLED));
		ALLOWED.put(State.FORCED_OPEN, EnumSet.of(State.CLOSED, State.HALF_OPEN, State.DISABLED));
		ALLOWED.put(State.DISABLED, EnumSet.of(State.CLOSED, State.HALF_OPEN, State.FORCED_OPEN));
	}

	private TransitionTable() {
	}

	static boolean allowed(State from, State to) {
		return ALLOWED.get(from).contains(to);
	}

	static void check(State from, State to) {
		if (!allowed(from, to)) {
			throw new IllegalStateException("a breaker never moves from " + from + " to " + to);
		}
	}

}
