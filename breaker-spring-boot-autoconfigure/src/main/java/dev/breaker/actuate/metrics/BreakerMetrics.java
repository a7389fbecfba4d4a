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

		Binding(MeterRegistry registry) {
			this.registry = registry;
		}

		void add(Breaker breaker) {
			if (isTenantChild(breaker) && !BreakerMetrics.this.tenantTags || breaker.removed()) {
				return;
			}
			BreakerMeters added = new BreakerMeters(breaker, this.registry, tags(breaker));
			BreakerMeters existing = this.meters.putIfAbsent(breaker.name(), added);
			if (existing != null && existing.breaker() == breaker) {
				return;
			}
			if (existing != null) {
				if (breaker.removed()) {
					// dropped meanwhile: the entry may be its replacement's
					return;
				}
				// The registry replaced a breaker whose removal we did not see, or whose
				// removal is under way: its meters are gone once remove() returns.
				existing.remove();
				this.meters.put(breaker.name(), added);
			}
			try {
				added.register();
				breaker.onTransition((transition) -> onTransition(added, transition));
				if (breaker.removed()) {
					// evicted before its creation was heard: its removal found nothing
					remove(breaker);
				}
			}
			catch (RuntimeException ex) {
				this.meters.remove(breaker.name(), added);
				added.remove();
				logger.warn("Could not register the meters of breaker '" + BreakerNames.printable(breaker.name()) + "'",
						ex);
			}
		}

		/**
		 * Removes the meters from the registry before the entry from the map: a breaker
		 * re-created under the same name meanwhile finds the entry, and its add waits in
		 * {@link BreakerMeters#remove} until the old meters are gone. Removed the other
		 * way round, its meters (of the same ids) could be registered first and then
		 * removed as the old ones, or be the old ones, which Micrometer hands back for an
		 * id still registered.
		 */
		void remove(Breaker breaker) {
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
