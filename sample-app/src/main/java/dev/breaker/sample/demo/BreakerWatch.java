package dev.breaker.sample.demo;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentLinkedQueue;

import dev.breaker.core.Breaker;
import dev.breaker.core.BreakerRegistry;
import dev.breaker.core.State;
import dev.breaker.core.Transition;
import dev.breaker.http.HostBreakers;

/**
 * What the demo reads from the app's breakers: states, rejections and transitions as they
 * happen.
 */
final class BreakerWatch {

	/** A transition and when the demo saw it, on its own clock. */
	record Seen(long nanos, Transition transition) {
	}

	private final BreakerRegistry registry;

	private final ConcurrentLinkedQueue<Seen> fresh = new ConcurrentLinkedQueue<>();

	private final List<Seen> all = new ArrayList<>();

	/**
	 * @param registry the app's registry, null when the app runs with
	 * {@code breaker.enabled=false}
	 */
	BreakerWatch(BreakerRegistry registry) {
		this.registry = registry;
		if (registry != null) {
			// Runs on the thread that caused the transition: only record it.
			registry.onTransition((transition) -> this.fresh.add(new Seen(System.nanoTime(), transition)));
		}
	}

	boolean enabled() {
		return this.registry != null;
	}

	/** The state of every top-level breaker, by name. */
	Map<String, State> states() {
		Map<String, State> states = new LinkedHashMap<>();
		if (this.registry != null) {
			this.registry.breakers()
				.stream()
				.sorted(Comparator.comparing(Breaker::name))
				.forEach((breaker) -> states.put(breaker.name(), breaker.state()));
		}
		return states;
	}

	/** How many of a breaker's tenant children are not closed. */
	int childrenNotClosed(String name) {
		if (this.registry == null) {
			return 0;
		}
		return (int) this.registry.children(name).stream().filter((child) -> child.state() != State.CLOSED).count();
	}

	/** Calls rejected so far by every breaker, tenants included. */
	long rejected() {
		if (this.registry == null) {
			return 0;
		}
		long rejected = 0;
		for (Breaker breaker : this.registry.breakers()) {
			rejected += breaker.totals().rejected();
			for (Breaker child : this.registry.children(breaker.name())) {
				rejected += child.totals().rejected();
			}
		}
		return rejected;
	}

	/**
	 * Resets every breaker, children too (an operator's reset); returns how many were not
	 * closed.
	 */
	int resetAll() {
		if (this.registry == null) {
			return 0;
		}
		List<Breaker> all = new ArrayList<>();
		for (Breaker breaker : this.registry.breakers()) {
			all.add(breaker);
			all.addAll(this.registry.children(breaker.name()));
		}
		// Per-host breakers are children of a group that has no breaker of its own.
		all.addAll(this.registry.children(HostBreakers.GROUP));
		int notClosed = 0;
		for (Breaker breaker : all) {
			if (breaker.state() != State.CLOSED) {
				notClosed++;
				breaker.reset();
			}
		}
		return notClosed;
	}

	/** The transitions since the last call, oldest first. */
	List<Seen> drainTransitions() {
		List<Seen> drained = new ArrayList<>();
		for (Seen seen = this.fresh.poll(); seen != null; seen = this.fresh.poll()) {
			drained.add(seen);
		}
		this.all.addAll(drained);
		return drained;
	}

	/**
	 * When {@code breaker} first moved from {@code from} to {@code to} after
	 * {@code afterNanos}, if it did.
	 */
	OptionalLong first(String breaker, State from, State to, long afterNanos) {
		Optional<Seen> first = firstSeen(breaker, from, to, afterNanos);
		return first.isPresent() ? OptionalLong.of(first.get().nanos()) : OptionalLong.empty();
	}

	/**
	 * The first transition of {@code breaker} to {@code to} after {@code afterNanos},
	 * from {@code from} or from any state when {@code from} is null.
	 */
	Optional<Seen> firstSeen(String breaker, State from, State to, long afterNanos) {
		drainTransitions();
		return this.all.stream()
			.filter((seen) -> seen.nanos() >= afterNanos)
			.filter((seen) -> seen.transition().breaker().equals(breaker))
			.filter((seen) -> (from == null || seen.transition().from() == from) && seen.transition().to() == to)
			.findFirst();
	}

	/**
	 * How many times {@code breaker} moved from {@code from} to {@code to} by its own
	 * rules (not from a peer) in {@code [afterNanos, beforeNanos)}.
	 */
	int countOwn(String breaker, State from, State to, long afterNanos, long beforeNanos) {
		drainTransitions();
		return (int) this.all.stream()
			.filter((seen) -> seen.nanos() >= afterNanos && seen.nanos() < beforeNanos)
			.map(Seen::transition)
			.filter((transition) -> transition.breaker().equals(breaker) && !transition.remote())
			.filter((transition) -> transition.from() == from && transition.to() == to)
			.count();
	}

	/**
	 * Finished half-open probes of a breaker so far, successful or not; 0 when it does
	 * not exist.
	 */
	long probes(String name) {
		if (this.registry == null) {
			return 0;
		}
		return this.registry.find(name)
			.map((breaker) -> breaker.totals().probeSuccesses() + breaker.totals().probeFailures())
			.orElse(0L);
	}

	/**
	 * The state of a breaker now, null when it does not exist (yet) or breakers are off.
	 */
	State state(String name) {
		return (this.registry != null) ? this.registry.find(name).map(Breaker::state).orElse(null) : null;
	}

}
