package dev.breaker.actuate.endpoint;

import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * What the breakers endpoint shows of state shared with other replicas, when breakers share it
 * (fleet mode). Without an implementation the endpoint's JSON has no shared or fleet sections.
 * <p>
 * Both methods are called on every endpoint read: they must answer from memory, never by asking
 * the shared store, so a slow or unreachable store cannot slow the endpoint down.
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
	 * @return the details by name, in display order, or null to show none for this breaker
	 */
	@Nullable Map<String, @Nullable Object> breaker(String name);

}
