package dev.breaker.core;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import java.util.function.Function;

import org.jspecify.annotations.Nullable;

/**
 * Breakers by name, with per-name config, and bounded per-key children (tenants, hosts)
 * under a name.
 */
public final class BreakerRegistry {

	private static final System.Logger LOG = System.getLogger(BreakerRegistry.class.getName());

	private final BreakerConfig defaults;

	private final Map<String, BreakerConfig> configs;

	private final Map<String, Children> childPolicies;

	private final Children defaultChildren;

	private final ConcurrentHashMap<String, Breaker> breakers = new ConcurrentHashMap<>();

	private final ConcurrentHashMap<String, ChildBreakers> children = new ConcurrentHashMap<>();

	private final List<Consumer<Breaker>> createdListeners = new CopyOnWriteArrayList<>();

	private final List<Consumer<Breaker>> removedListeners = new CopyOnWriteArrayList<>();

	private final List<Consumer<Transition>> transitionListeners = new CopyOnWriteArrayList<>();

	private BreakerRegistry(Builder builder) {
		this.defaults = builder.defaults;
		this.configs = Map.copyOf(builder.configs);
		this.childPolicies = Map.copyOf(builder.childPolicies);
		this.defaultChildren = builder.defaultChildren;
	}

	public static Builder builder() {
		return new Builder();
	}

	/**
	 * How the children of one name are bounded, and how they weigh in their parent.
	 *
	 * @param maxEntries most children kept (the least recently used is evicted), at least
	 * 1
	 * @param idleExpiry a child unused this long is removed, positive, at most 7 days
	 * @param consultParent whether a child's calls also go through (and are recorded in)
	 * the top-level breaker
	 * @param minFailingChildren with {@code consultParent}: the top-level breaker trips
	 * only when the failures in its window came from at least this many children (one
	 * loud tenant opens only its own breaker); 1 lets any failures trip it, in [1, 100]
	 * @param maxKeyLength keys longer than this are shortened to a prefix and a hash
	 * ({@link ChildKeys}), in [{@value ChildKeys#MIN_MAX_LENGTH},
	 * {@value ChildKeys#MAX_MAX_LENGTH}]
	 */
	public record Children(int maxEntries, Duration idleExpiry, boolean consultParent, int minFailingChildren,
			int maxKeyLength) {

		/**
		 * Used for names with no policy when none was given with
		 * {@link Builder#defaultChildren}: the defaults of
		 * {@link BreakerSetting#TENANTS_MAX} and the other tenant settings, not
		 * consulting the parent.
		 */
		public static final Children DEFAULT = new Children(BreakerSetting.TENANTS_MAX.defaultAs(),
				BreakerSetting.TENANTS_IDLE_EXPIRY.defaultAs(), false, BreakerSetting.TENANTS_MIN_FAILING.defaultAs(),
				BreakerSetting.TENANTS_MAX_KEY_LENGTH.defaultAs());

		/** The most {@code minFailingChildren} a policy may ask for. */
		public static final int MAX_MIN_FAILING_CHILDREN = 100;

		/**
		 * Any failures trip the parent, keys up to {@value ChildKeys#DEFAULT_MAX_LENGTH}
		 * characters are kept.
		 */
		public Children(int maxEntries, Duration idleExpiry, boolean consultParent) {
			this(maxEntries, idleExpiry, consultParent, 1, ChildKeys.DEFAULT_MAX_LENGTH);
		}

		public Children {
			ConfigValidation.check(BreakerSetting.TENANTS_MAX, maxEntries);
			ConfigValidation.check(BreakerSetting.TENANTS_IDLE_EXPIRY, idleExpiry);
			ConfigValidation.check(BreakerSetting.TENANTS_MIN_FAILING, minFailingChildren);
			ConfigValidation.check(BreakerSetting.TENANTS_MAX_KEY_LENGTH, maxKeyLength);
		}

		/**
		 * Whether the top-level breaker must see failures from several children before it
		 * trips.
		 */
		boolean tripsOnBreadth() {
			return consultParent && minFailingChildren > 1;
		}
	}

	/** The top-level breaker {@code name}, created on first use. */
	public Breaker breaker(String name) {
		Objects.requireNonNull(name, "name");
		Breaker existing = breakers.get(name);
		if (existing != null) {
			return existing;
		}
		BreakerConfig config = configs.getOrDefault(name, defaults);
		Children policy = childPolicies.getOrDefault(name, defaultChildren);
		Breaker created = new Breaker(name, config, null, name, null,
				policy.tripsOnBreadth() ? policy.minFailingChildren() : 0);
		Breaker raced = breakers.putIfAbsent(name, created);
		if (raced != null) {
			return raced;
		}
		announce(created);
		return created;
	}

	/**
	 * The child {@code name + ":" + key}, created on first use; bounded per name (least
	 * recently used evicted, idle ones expire). With {@code consultParent}, its calls
	 * also go through {@code breaker(name)}. The key is made printable and, beyond the
	 * policy's {@code maxKeyLength}, shortened ({@link ChildKeys}). Looking up an
	 * existing child by a printable key within the limit allocates nothing (but for a
	 * sweep of idle children at most once a second).
	 */
	public Breaker breaker(String name, String key) {
		Objects.requireNonNull(name, "name");
		Objects.requireNonNull(key, "key");
		Children policy = childPolicies.getOrDefault(name, defaultChildren);
		String childKey = ChildKeys.of(key, policy.maxKeyLength());
		Breaker parent = policy.consultParent() ? breaker(name) : null;
		ChildBreakers group = children.get(name);
		if (group == null) {
			group = children.computeIfAbsent(name,
					n -> new ChildBreakers(policy, configs.getOrDefault(n, defaults).ticker()));
		}
		Breaker existing = group.touch(childKey);
		if (existing != null) {
			return existing;
		}
		List<Breaker> created = new ArrayList<>(1);
		List<Breaker> removed = new ArrayList<>(0);
		ChildBreakers siblings = group;
		Breaker child;
		try {
			child = group.get(childKey, k -> {
				String full = name + ":" + k;
				BreakerConfig config = configs.getOrDefault(full, configs.getOrDefault(name, defaults));
				return new Breaker(full, config, parent, name, k, 0, siblings.classification);
			}, created, removed);
		}
		finally {
			// also when the new child could not be made: the ones expired first are gone
			for (Breaker b : removed) {
				notify(removedListeners, b);
			}
		}
		for (Breaker b : created) {
			announce(b);
		}
		return child;
	}

	/**
	 * A breaker by full name, top-level or child; a child also by the key as its user
	 * sent it (see {@link ChildKeys}). To override a child, use {@link #override}: a
	 * child found here may be evicted before the override lands.
	 */
	public Optional<Breaker> find(String name) {
		Breaker top = breakers.get(name);
		return top != null ? Optional.of(top) : Optional.ofNullable(child(name, ChildBreakers::find));
	}

	/**
	 * Applies an operator's override to the breaker {@link #find} finds by {@code name}
	 * and returns what {@code override} returns; empty when there is no such breaker. A
	 * child is held from the moment it is found until {@code override} returns: neither
	 * expired nor evicted meanwhile, so an override (FORCED_OPEN and DISABLED then keep
	 * it until a reset) never lands on a child that other keys' calls dropped and the
	 * next call would not find. {@code override} runs on the caller's thread with no lock
	 * held (the breaker's transition listeners run in it) and may use the registry.
	 */
	public <T> Optional<T> override(String name, Function<Breaker, ? extends T> override) {
		Objects.requireNonNull(override, "override");
		Breaker top = breakers.get(name);
		if (top != null) {
			return Optional.ofNullable(override.apply(top));
		}
		Held held = child(name, (group, key) -> {
			ChildBreakers.Entry entry = group.hold(key);
			return entry == null ? null : new Held(group, entry);
		});
		if (held == null) {
			return Optional.empty();
		}
		try {
			return Optional.ofNullable(override.apply(held.entry().breaker));
		}
		finally {
			held.group().release(held.entry());
		}
	}

	/** A child held against eviction while an override is applied to it. */
	private record Held(ChildBreakers group, ChildBreakers.Entry entry) {
	}

	/**
	 * What {@code lookup} answers for the child {@code name} (group, then key as sent or
	 * as {@link ChildKeys} makes it), or null.
	 */
	private <E> @Nullable E child(String name, BiFunction<ChildBreakers, String, @Nullable E> lookup) {
		for (Map.Entry<String, ChildBreakers> group : children.entrySet()) {
			String prefix = group.getKey() + ":";
			if (name.startsWith(prefix)) {
				String key = name.substring(prefix.length());
				E found = lookup.apply(group.getValue(), key);
				if (found == null) {
					int maxKeyLength = childPolicies.getOrDefault(group.getKey(), defaultChildren).maxKeyLength();
					found = lookup.apply(group.getValue(), ChildKeys.of(key, maxKeyLength));
				}
				if (found != null) {
					return found;
				}
			}
		}
		return null;
	}

	/** The top-level breakers. */
	public Collection<Breaker> breakers() {
		return List.copyOf(breakers.values());
	}

	/**
	 * Every breaker: the top-level ones and every current child, also of names without a
	 * top-level breaker ({@code http}).
	 */
	public Collection<Breaker> all() {
		List<Breaker> all = new ArrayList<>(breakers.values());
		for (ChildBreakers group : children.values()) {
			all.addAll(group.all());
		}
		return all;
	}

	/** The current children of {@code name}. */
	public Collection<Breaker> children(String name) {
		ChildBreakers group = children.get(name);
		return group == null ? List.of() : List.copyOf(group.all());
	}

	/** Runs for every breaker created from now on, children included. */
	public void onCreated(Consumer<Breaker> listener) {
		createdListeners.add(Objects.requireNonNull(listener, "listener"));
	}

	/** Runs for every child evicted or expired. */
	public void onRemoved(Consumer<Breaker> listener) {
		removedListeners.add(Objects.requireNonNull(listener, "listener"));
	}

	/**
	 * Runs for every transition of every breaker of this registry, existing and future.
	 */
	public void onTransition(Consumer<Transition> listener) {
		transitionListeners.add(Objects.requireNonNull(listener, "listener"));
	}

	private void announce(Breaker breaker) {
		breaker.onTransition(this::transitioned);
		notify(createdListeners, breaker);
	}

	private void transitioned(Transition transition) {
		Listeners.tell(transitionListeners, (listener, t, unused) -> listener.accept(t), transition, null, LOG,
				(listener, t, unused) -> "registry transition listener threw on " + t);
	}

	private static void notify(List<Consumer<Breaker>> listeners, Breaker breaker) {
		Listeners.tell(listeners, (listener, event, unused) -> listener.accept(event), breaker, null, LOG, (listener, b,
				unused) -> "registry listener threw for breaker '" + BreakerNames.printable(b.name()) + "'");
	}

	/** Builds a {@link BreakerRegistry}. */
	public static final class Builder {

		private BreakerConfig defaults = BreakerConfig.defaults();

		private final Map<String, BreakerConfig> configs = new HashMap<>();

		private final Map<String, Children> childPolicies = new HashMap<>();

		private Children defaultChildren = Children.DEFAULT;

		private Builder() {
		}

		/** The config of names without their own. */
		public Builder defaults(BreakerConfig config) {
			defaults = Objects.requireNonNull(config, "config");
			return this;
		}

		/** The config of one name (a top-level name, or a child's full name). */
		public Builder config(String name, BreakerConfig config) {
			configs.put(Objects.requireNonNull(name, "name"), Objects.requireNonNull(config, "config"));
			return this;
		}

		/** How the children of {@code name} are bounded. */
		public Builder children(String name, Children policy) {
			childPolicies.put(Objects.requireNonNull(name, "name"), Objects.requireNonNull(policy, "policy"));
			return this;
		}

		/**
		 * How the children of names without their own policy are bounded; default
		 * {@link Children#DEFAULT}.
		 */
		public Builder defaultChildren(Children policy) {
			defaultChildren = Objects.requireNonNull(policy, "policy");
			return this;
		}

		public BreakerRegistry build() {
			return new BreakerRegistry(this);
		}

	}

}
