package dev.breaker.actuate;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

import org.jspecify.annotations.Nullable;

import dev.breaker.core.Breaker;
import dev.breaker.core.BreakerRegistry;

/**
 * Every breaker of a registry as groups: a top-level breaker with its per-tenant or
 * per-host children.
 * <p>
 * The registry lists top-level breakers and the children of a name, but a name can have
 * children without a top-level breaker of its own (the {@code http:<host>} breakers have
 * no {@code http} breaker), so the names that ever had children are remembered here:
 * those of the children the registry holds as this tree is created (an application may
 * reach hosts while it starts, before the tree is built), and from then on those of every
 * child created.
 */
public class BreakerTree {

	private static final Comparator<Breaker> BY_NAME = Comparator.comparing(Breaker::name);

	private final BreakerRegistry registry;

	private final Set<String> childGroups = ConcurrentHashMap.newKeySet();

	public BreakerTree(BreakerRegistry registry) {
		this.registry = registry;
		// listening first, then reading: a child created between the two is remembered
		// by one or the other
		registry.onCreated(this::remember);
		registry.all().forEach(this::remember);
	}

	private void remember(Breaker breaker) {
		if (breaker.key() != null) {
			this.childGroups.add(breaker.group());
		}
	}

	/**
	 * One group.
	 *
	 * @param name the group's name
	 * @param breaker the top-level breaker of that name, null when only its children
	 * exist
	 * @param children the group's current children, in name order
	 */
	public record Group(String name, @Nullable Breaker breaker, List<Breaker> children) {

		/** The group's own breaker, if any, then its children. */
		public List<Breaker> all() {
			List<Breaker> all = new ArrayList<>(this.children.size() + 1);
			if (this.breaker != null) {
				all.add(this.breaker);
			}
			all.addAll(this.children);
			return all;
		}

	}

	/** Every group in name order. */
	public List<Group> groups() {
		Map<String, Breaker> topLevel = new TreeMap<>();
		this.registry.breakers().forEach((breaker) -> topLevel.put(breaker.name(), breaker));
		Set<String> names = new TreeSet<>(this.childGroups);
		names.addAll(topLevel.keySet());
		List<Group> groups = new ArrayList<>(names.size());
		for (String name : names) {
			Breaker breaker = topLevel.get(name);
			List<Breaker> children = this.registry.children(name).stream().sorted(BY_NAME).toList();
			if (breaker != null || !children.isEmpty()) {
				groups.add(new Group(name, breaker, children));
			}
		}
		return groups;
	}

	/** Every breaker, each group's own breaker before its children. */
	public List<Breaker> breakers() {
		return groups().stream().flatMap((group) -> group.all().stream()).toList();
	}

}
