package dev.breaker.actuate.metrics;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.MeterBinder;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import dev.breaker.actuate.BreakerTree;
import dev.breaker.core.Breaker;
import dev.breaker.core.BreakerNames;
import dev.breaker.core.BreakerRegistry;
import dev.breaker.core.Transition;
import dev.breaker.http.HostBreakers;

/**
 * Binds the {@code breaker.*} meters of every breaker in a {@link BreakerRegistry},
 * including the ones created later, and removes a child's meters when the registry drops
 * it.
 * <p>
 * Per-host children ({@code http:<host>}) are breakers in their own right and get meters
 * tagged with their full name. Per-tenant children could number in the thousands, so they
 * get meters only when {@code tenantTags} is on; then every breaker meter carries a
 * {@code tenant} tag (empty for breakers that are not per-tenant, because Prometheus
 * needs one set of tag keys per meter name) and a tenant child is tagged with its
 * parent's name.
 * <p>
 * A registry that fails is logged and otherwise ignored: metrics never break a call.
 */
public class BreakerMetrics implements MeterBinder {

	private static final Log logger = LogFactory.getLog(BreakerMetrics.class);

	private final BreakerRegistry breakers;

	private final BreakerTree tree;

	private final boolean tenantTags;

	/**
	 * @param breakers the registry whose breakers get meters
	 * @param tree the registry's breakers as they are now, grouped
	 * @param tenantTags whether per-tenant children get meters, tagged {@code tenant}
	 */
	public BreakerMetrics(BreakerRegistry breakers, BreakerTree tree, boolean tenantTags) {
		this.breakers = breakers;
		this.tree = tree;
		this.tenantTags = tenantTags;
	}

	@Override
	public void bindTo(MeterRegistry registry) {
		Binding binding = new Binding(registry);
		// Listen first, then walk the existing breakers: a breaker created in between is
		// seen twice, and adding is idempotent, rather than not at all.
		// Transitions are heard from each breaker, not from the registry: an evicted
		// child still finishing calls reports under the name of the child that replaced
		// it, and its transitions must not land on the replacement's meters.
		this.breakers.onCreated(binding::add);
		this.breakers.onRemoved(binding::remove);
		this.tree.breakers().forEach(binding::add);
	}

	/**
	 * Whether a breaker is a per-tenant child (a child of any group but
	 * {@value HostBreakers#GROUP}).
	 */
	static boolean isTenantChild(Breaker breaker) {
		return breaker.key() != null && !HostBreakers.GROUP.equals(breaker.group());
	}

	private final class Binding {

		private final MeterRegistry registry;

		private final Map<String, BreakerMeters> meters = new ConcurrentHashMap<>();

		/**
		 * One breaker's meters are added, made on first use and removed one at a time
		 * (the one lock of the metrics: {@link BreakerMeters} takes this one, and
		 * Micrometer is called under no other lock of ours): a child evicted while its
		 * meters were being registered would otherwise lose only those registered so far,
		 * and the rest (gauges holding the dead breaker) would stay for its re-created
		 * namesake to read. The registry marks a child removed before its removal is
		 * heard, so an add that comes second sees it and adds nothing. Taken when a
		 * measured breaker is created or removed only: a call that creates a child (a new
		 * tenant with tenant tags on, a new host) waits for it, a call that finds its
		 * breaker never does; a transition waits only when its meter is not made yet.
		 */
		private final Object lock = new Object();

		Binding(MeterRegistry registry) {
			this.registry = registry;
		}

		void add(Breaker breaker) {
			if (!measured(breaker)) {
				return;
			}
			synchronized (this.lock) {
				addMeters(breaker);
			}
		}

		void remove(Breaker breaker) {
			if (!measured(breaker)) {
				return;
			}
			synchronized (this.lock) {
				removeMeters(breaker);
			}
		}

		/** Tenant children have meters only with tenant tags on. */
		private boolean measured(Breaker breaker) {
			return !isTenantChild(breaker) || BreakerMetrics.this.tenantTags;
		}

		private void addMeters(Breaker breaker) {
			if (breaker.removed()) {
				return;
			}
			BreakerMeters added = new BreakerMeters(breaker, this.registry, tags(breaker), this.lock,
					this::namesakeMeasured);
			BreakerMeters existing = this.meters.putIfAbsent(breaker.name(), added);
			if (existing != null && existing.breaker() == breaker) {
				return;
			}
			if (existing != null) {
				// The registry replaced a breaker whose removal we have not heard yet:
				// its meters go first, as its removal would take them.
				try {
					existing.remove();
				}
				catch (RuntimeException ex) {
					logger.warn("Could not remove the meters of breaker '" + BreakerNames.printable(breaker.name())
							+ "' it replaces", ex);
				}
				this.meters.put(breaker.name(), added);
			}
			try {
				// Listen first: a transition made while the meters are registered is
				// counted (the meters it needs are made on first use, under the lock).
				breaker.onTransition((transition) -> onTransition(added, transition));
				added.register();
			}
			catch (RuntimeException ex) {
				this.meters.remove(breaker.name(), added);
				added.remove();
				logger.warn("Could not register the meters of breaker '" + BreakerNames.printable(breaker.name()) + "'",
						ex);
			}
		}

		/**
		 * Removes the meters from the registry, then the entry from the map (under the
		 * lock, so a breaker re-created under the same name adds its meters after: of the
		 * same ids, they would otherwise be removed as the old ones, or be the old ones,
		 * which Micrometer hands back for an id still registered).
		 */
		private void removeMeters(Breaker breaker) {
			BreakerMeters removed = this.meters.get(breaker.name());
			if (removed == null || removed.breaker() != breaker) {
				return;
			}
			try {
				removed.remove();
			}
			catch (RuntimeException ex) {
				logger.warn("Could not remove the meters of breaker '" + BreakerNames.printable(breaker.name()) + "'",
						ex);
			}
			this.meters.remove(breaker.name(), removed);
		}

		/**
		 * Whether a breaker re-created under the name of {@code meters}' breaker has
		 * meters of its own (of the same ids).
		 */
		private boolean namesakeMeasured(BreakerMeters meters) {
			BreakerMeters current = this.meters.get(meters.breaker().name());
			return current != null && current != meters;
		}

		private void onTransition(BreakerMeters meters, Transition transition) {
			if (this.meters.get(transition.breaker()) != meters) {
				return;
			}
			try {
				meters.onTransition(transition);
			}
			catch (RuntimeException ex) {
				logger.warn("Could not record transition " + transition.from() + " -> " + transition.to()
						+ " of breaker '" + BreakerNames.printable(transition.breaker()) + "'", ex);
			}
		}

		private Tags tags(Breaker breaker) {
			if (!BreakerMetrics.this.tenantTags) {
				return Tags.of("name", BreakerNames.printable(breaker.name()));
			}
			if (isTenantChild(breaker)) {
				return Tags.of("name", BreakerNames.printable(breaker.group()), "tenant",
						BreakerNames.printable(breaker.key()));
			}
			return Tags.of("name", BreakerNames.printable(breaker.name()), "tenant", "");
		}

	}

}
