package dev.breaker.actuate.endpoint;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.actuate.endpoint.Access;
import org.springframework.boot.actuate.endpoint.annotation.DeleteOperation;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;

import dev.breaker.actuate.BreakerTree;
import dev.breaker.actuate.endpoint.BreakersDescriptor.BreakerSummary;
import dev.breaker.core.Breaker;
import dev.breaker.core.BreakerRegistry;
import dev.breaker.core.Snapshot;

/**
 * {@code /actuator/breakers}: every breaker's state, one breaker's snapshot, and operator
 * overrides; read-only unless write access is granted.
 */
@Endpoint(id = "breakers", defaultAccess = Access.READ_ONLY)
public class BreakersEndpoint {

	private static final Log logger = LogFactory.getLog(BreakersEndpoint.class);

	private final BreakerRegistry registry;

	private final BreakerTree tree;

	public BreakersEndpoint(BreakerRegistry registry, BreakerTree tree) {
		this.registry = registry;
		this.tree = tree;
	}

	/**
	 * Every top-level breaker with its children grouped under it.
	 * @return the breakers in name order
	 */
	@ReadOperation
	public BreakersDescriptor breakers() {
		Map<String, BreakerSummary> breakers = new LinkedHashMap<>();
		for (BreakerTree.Group group : this.tree.groups()) {
			Map<String, BreakerSummary> children = new LinkedHashMap<>();
			group.children().forEach((child) -> children.put(child.name(), BreakerSummary.of(child, Map.of())));
			breakers.put(group.name(), (group.breaker() != null) ? BreakerSummary.of(group.breaker(), children)
					: BreakerSummary.childrenOnly(children));
		}
		return new BreakersDescriptor(breakers);
	}

	/**
	 * One breaker's full snapshot.
	 * @param name the breaker's full name ({@code payments}, {@code http:api.acme.com})
	 * @return the snapshot, or null (404) when there is no such breaker
	 */
	@ReadOperation
	public @Nullable SnapshotDescriptor breaker(@Selector String name) {
		return this.registry.find(name).map(Breaker::snapshot).map(SnapshotDescriptor::of).orElse(null);
	}

	/**
	 * Puts a breaker in the state an operator asked for.
	 * @param name the breaker's full name
	 * @param state one of {@link OperatorOverride#ALLOWED}
	 * @return the new snapshot, or null when there is no such breaker
	 * @throws IllegalArgumentException when {@code state} is not one of
	 * {@link OperatorOverride#ALLOWED}
	 */
	@WriteOperation
	public @Nullable SnapshotDescriptor override(@Selector String name, @Nullable String state) {
		OperatorOverride override = OperatorOverride.parse(state);
		if (override == null) {
			throw new IllegalArgumentException(invalidStateMessage(state));
		}
		return override(name, override).orElse(null);
	}

	/**
	 * Resets a breaker: CLOSED, with an empty window.
	 * @param name the breaker's full name
	 * @return the new snapshot, or null when there is no such breaker
	 */
	@DeleteOperation
	public @Nullable SnapshotDescriptor reset(@Selector String name) {
		return override(name, OperatorOverride.CLOSED).orElse(null);
	}

	Optional<SnapshotDescriptor> override(String name, OperatorOverride override) {
		return this.registry.find(name).map((breaker) -> {
			override.applyTo(breaker);
			Snapshot snapshot = breaker.snapshot();
			logger.warn("Breaker '" + name + "' set to " + override + " by an operator through the breakers endpoint;"
					+ " it is now " + snapshot.state());
			return SnapshotDescriptor.of(snapshot);
		});
	}

	static String invalidStateMessage(@Nullable String state) {
		String given = (state != null) ? "'" + state + "'" : "missing";
		return "'state' must be one of " + String.join(", ", OperatorOverride.ALLOWED) + " but was " + given;
	}

}
