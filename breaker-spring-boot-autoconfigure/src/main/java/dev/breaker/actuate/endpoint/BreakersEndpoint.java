package dev.breaker.actuate.endpoint;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

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
import dev.breaker.core.Breaker;
import dev.breaker.core.BreakerNames;
import dev.breaker.core.BreakerRegistry;
import dev.breaker.core.Snapshot;
import dev.breaker.core.State;

/**
 * {@code /actuator/breakers}: every breaker's state, one breaker's snapshot, and operator
 * overrides; read-only unless write access is granted. Names in answers and log lines are
 * printable ({@link BreakerNames#printable}).
 */
@Endpoint(id = "breakers", defaultAccess = Access.READ_ONLY)
public class BreakersEndpoint {

	/**
	 * Per-tenant children can number ten thousand: a group lists only its children that
	 * are not CLOSED, at most this many, and counts the rest by state under
	 * {@code unlistedChildren}.
	 */
	static final int MAX_LISTED_CHILDREN = 100;

	private static final int MAX_SHOWN = 200;

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
	 * Every top-level breaker with its children grouped under it, and the shared store's
	 * status when breakers share state.
	 * @return the breakers in name order
	 */
	@ReadOperation
	public BreakersDescriptor breakers() {
		Map<String, BreakerSummary> breakers = new LinkedHashMap<>();
		for (BreakerTree.Group group : this.tree.groups()) {
			Map<String, BreakerSummary> children = new LinkedHashMap<>();
			Map<String, Integer> unlisted = new TreeMap<>();
			for (Breaker child : group.children()) {
				State state = child.state();
				if (state != State.CLOSED && children.size() < MAX_LISTED_CHILDREN) {
					children.put(BreakerNames.printable(child.name()), BreakerSummary.of(child, Map.of()));
				}
				else {
					unlisted.merge(state.name(), 1, Integer::sum);
				}
			}
			breakers.put(BreakerNames.printable(group.name()),
					(group.breaker() != null) ? BreakerSummary.of(group.breaker(), children, unlisted)
							: BreakerSummary.childrenOnly(children, unlisted));
		}
		return new BreakersDescriptor(breakers, (this.shared != null) ? this.shared.status() : null);
	}

	/**
	 * One breaker's full snapshot, with its shared state when breakers share state.
	 * @param name the breaker's full name ({@code payments}, {@code http:api.acme.com}),
	 * a child's also with its key as the user sent it
	 * @return the snapshot, or null (404) when there is no such breaker
	 */
	@ReadOperation
	public @Nullable SnapshotDescriptor breaker(@Selector String name) {
		return find(name).orElse(null);
	}

	Optional<SnapshotDescriptor> find(String name) {
		return this.registry.find(name).map((breaker) -> describe(breaker, breaker.snapshot()));
	}

	/**
	 * {@code /actuator/breakers/{name}/history}: one breaker's last five minutes, a
	 * summary per second, oldest first (none for a per-tenant child).
	 * @param name the breaker's full name
	 * @param section {@code history}; anything else is not found
	 * @return the history, or null (404) for an unknown breaker or section
	 */
	@ReadOperation
	public @Nullable HistoryDescriptor history(@Selector String name, @Selector String section) {
		if (this.history == null || !HistoryDescriptor.SECTION.equals(section)) {
			return null;
		}
		BreakerHistory history = this.history;
		return this.registry.find(name)
			.map((breaker) -> HistoryDescriptor.of(BreakerNames.printable(breaker.name()), history.of(breaker.name())))
			.orElse(null);
	}

	/**
	 * Puts a breaker in the state an operator asked for; when breakers share state, on
	 * every replica unless {@code scope} is {@code replica}.
	 * @param name the breaker's full name
	 * @param state one of {@link OperatorOverride#ALLOWED}
	 * @param scope one of {@link OverrideScope#ALLOWED}, {@code fleet} when missing
	 * @return the new snapshot, or null when there is no such breaker
	 * @throws IllegalArgumentException when {@code state} is not one of
	 * {@link OperatorOverride#ALLOWED} or {@code scope} not one of
	 * {@link OverrideScope#ALLOWED}
	 */
	@WriteOperation
	public @Nullable SnapshotDescriptor override(@Selector String name, @Nullable String state,
			@Nullable String scope) {
		OperatorOverride override = OperatorOverride.parse(state);
		if (override == null) {
			throw new IllegalArgumentException(invalidStateMessage(state));
		}
		OverrideScope reach = OverrideScope.parse(scope);
		if (reach == null) {
			throw new IllegalArgumentException(invalidScopeMessage(scope));
		}
		return override(name, override, reach).orElse(null);
	}

	/**
	 * Resets a breaker: CLOSED, with an empty window; when breakers share state, on every
	 * replica.
	 * @param name the breaker's full name
	 * @return the new snapshot, or null when there is no such breaker
	 */
	@DeleteOperation
	public @Nullable SnapshotDescriptor reset(@Selector String name) {
		return override(name, OperatorOverride.CLOSED, OverrideScope.FLEET).orElse(null);
	}

	Optional<SnapshotDescriptor> override(String name, OperatorOverride override, OverrideScope scope) {
		return this.registry.override(name, (breaker) -> {
			boolean fleetWide = scope == OverrideScope.FLEET;
			boolean shared = this.shared != null && this.shared.override(breaker, override, fleetWide);
			if (!shared) {
				override.applyTo(breaker);
			}
			Snapshot snapshot = breaker.snapshot();
			String reach = !shared ? "" : fleetWide ? " on every replica" : " on this replica only";
			logger.warn("Breaker '" + BreakerNames.printable(breaker.name()) + "' set to " + override + reach
					+ " by an operator through the breakers endpoint; it is now " + snapshot.state());
			return describe(breaker, snapshot);
		});
	}

	private SnapshotDescriptor describe(Breaker breaker, Snapshot snapshot) {
		return SnapshotDescriptor.of(snapshot, (this.shared != null) ? this.shared.breaker(breaker.name()) : null);
	}

	static String invalidScopeMessage(@Nullable String scope) {
		return "'scope' must be one of " + String.join(", ", OverrideScope.ALLOWED) + " but was '"
				+ shown(String.valueOf(scope)) + "'";
	}

	static String invalidStateMessage(@Nullable String state) {
		String given = (state != null) ? "'" + shown(state) + "'" : "missing";
		return "'state' must be one of " + String.join(", ", OperatorOverride.ALLOWED) + " but was " + given;
	}

	static String notFoundMessage(String name) {
		return "no breaker named '" + shown(name) + "'";
	}

	/**
	 * Text a client sent, as an answer or a log line may show it: printable, and at most
	 * 200 characters ({@link BreakerNames#printable(String, int)}).
	 */
	static String shown(String text) {
		return BreakerNames.printable(text, MAX_SHOWN);
	}

}
