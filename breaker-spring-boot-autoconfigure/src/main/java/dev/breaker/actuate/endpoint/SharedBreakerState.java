package dev.breaker.actuate.endpoint;

import java.util.Map;

import org.jspecify.annotations.Nullable;

import dev.breaker.core.Breaker;

/**
 * What the breakers endpoint shows of state shared with other replicas, when breakers
 * share it (fleet mode). Without an implementation the endpoint's JSON has no shared or
 * fleet sections.
 * <p>
 * Both methods are called on every endpoint read: they must answer from memory, never by
 * asking the shared store, so a slow or unreachable store cannot slow the endpoint down.
 */
public interface SharedBreakerState {

	/**
	 * The shared store's status for the whole replica, shown as {@code shared} in
	 * {@code /actuator/breakers}.
	 * @return the status by name, in display order (values render as plain JSON)
	 */
	Map<String, @Nullable Object> status();

	/**
	 * What this replica knows of one breaker's shared state, shown as {@code fleet} in
	 * {@code /actuator/breakers/{name}}.
	 * @param name the breaker's full name
	 * @return the details by name, in display order, or null to show none for this
	 * breaker
	 */
	@Nullable Map<String, @Nullable Object> breaker(String name);

	/**
	 * Puts a breaker in the state an operator asked for, on this replica and, when
	 * {@code fleetWide}, on every replica sharing state with it. Called on the endpoint's
	 * thread; it must not wait on the shared store.
	 * @param breaker the breaker, on this replica
	 * @param override the state asked for
	 * @param fleetWide whether every replica should apply it
	 * ({@link OverrideScope#FLEET})
	 * @return true when it applied the override; false (the default) to let the endpoint
	 * apply it on this replica only, as without shared state
	 */
	default boolean override(Breaker breaker, OperatorOverride override, boolean fleetWide) {
		return false;
	}

}
