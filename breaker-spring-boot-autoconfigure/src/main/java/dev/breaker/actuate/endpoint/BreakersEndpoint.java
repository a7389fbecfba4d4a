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
import dev.breaker.actuate.history.BreakerHistory;
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

	private final @Nullable SharedBreakerState shared;

	private final @Nullable BreakerHistory history;

	/**
	 * An endpoint for breakers that share no state with other replicas.
	 * @param registry the breakers
	 * @param tree the breakers grouped by top-level name
	 */
	public BreakersEndpoint(BreakerRegistry registry, BreakerTree tree) {
		this(registry, tree, null);
	}

	/**
	 * An endpoint that also shows the state breakers share with other replicas.
	 * @param registry the breakers
	 * @param tree the breakers grouped by top-level name
	 * @param shared the shared state to show, or null when breakers share none
	 */
	public BreakersEndpoint(BreakerRegistry registry, BreakerTree tree, @Nullable SharedBreakerState shared) {
		this(registry, tree, shared, null);
	}

	/**
	 * An endpoint that also shows each breaker's history.
	 * @param registry the breakers
	 * @param tree the breakers grouped by top-level name
	 * @param shared the shared state to show, or null when breakers share none
	 * @param history the per-second history, or null for none
	 */
	public BreakersEndpoint(BreakerRegistry registry, BreakerTree tree, @Nullable SharedBreakerState shared,
			@Nullable BreakerHistory history) {
		this.registry = registry;
		this.tree = tree;
		this.shared = shared;
		this.history = history;
	}

	/**
	 * Every top-level breaker with its children grouped under it, and the shared store's status
	 * when breakers share state.
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
		return new BreakersDescriptor(breakers, (this.shared != null) ? this.shared.status() : null);
	}

	/**
	 * One breaker's full snapshot, with its shared state when breakers share state.
	 * @param name the breaker's full name ({@code payments}, {@code http:api.acme.com})
	 * @return the snapshot, or null (404) when there is no such breaker
	 */
	@ReadOperation
	public @Nullable SnapshotDescriptor breaker(@Selector String name) {
		return this.registry.find(name).map((breaker) -> describe(name, breaker.snapshot())).orElse(null);
	}

	/**
	 * {@code /actuator/breakers/{name}/history}: one breaker's last five minutes, a summary per second,
	 * oldest first (none for a per-tenant child).
	 * @param name the breaker's full name
	 * @param section {@code history}; anything else is not found
	 * @return the history, or null (404) for an unknown breaker or section
	 */
	@ReadOperation
	public @Nullable HistoryDescriptor history(@Selector String name, @Selector String section) {
		if (this.history == null || !HistoryDescriptor.SECTION.equals(section)) {
			return null;
		}
		return this.registry.find(name).map((breaker) -> HistoryDescriptor.of(name, this.history.of(name))).orElse(null);
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
			return describe(name, snapshot);
		});
	}

	private SnapshotDescriptor describe(String name, Snapshot snapshot) {
		return SnapshotDescriptor.of(snapshot, (this.shared != null) ? this.shared.breaker(name) : null);
	}

	static String invalidStateMessage(@Nullable String state) {
		String given = (state != null) ? "'" + state + "'" : "missing";
		return "'state' must be one of " + String.join(", ", OperatorOverride.ALLOWED) + " but was " + given;
	}

}
