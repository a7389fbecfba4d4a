package dev.breaker.actuate.metrics;

import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.MeterBinder;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import dev.breaker.actuate.BreakerTree;
import dev.breaker.core.Breaker;
import dev.breaker.core.BreakerNames;
import dev.breaker.core.BreakerRegistry;
import dev.breaker.http.HostBreakers;

/**
 * Binds the {@code breaker.*} meters of every breaker in a {@link BreakerRegistry},
 * including the ones created later, and removes a child's meters when the registry drops
 * it.
 * <p>
 * Which children get meters is {@link MeteredBreakers}'s to say: per-tenant and per-host
 * children could number in the thousands. A per-host child ({@code http:<host>}) that has
 * meters is a breaker in its own right, tagged with its full name. With
 * {@code tenantTags} on, every breaker meter carries a {@code tenant} tag (empty for
 * breakers that are not per-tenant, because Prometheus needs one set of tag keys per
 * meter name) and a tenant child is tagged with its parent's name.
 * <p>
 * A registry that fails is logged and otherwise ignored: metrics never break a call.
 */
public class BreakerMetrics implements MeterBinder {

	private static final Log logger = LogFactory.getLog(BreakerMetrics.class);

	private final BreakerRegistry breakers;

	private final BreakerTree tree;

	private final MeteredBreakers metered;

	/**
	 * Meters for every per-host child.
	 * @param breakers the registry whose breakers get meters
	 * @param tree the registry's breakers as they are now, grouped
	 * @param tenantTags whether per-tenant children get meters, tagged {@code tenant}
	 */
	public BreakerMetrics(BreakerRegistry breakers, BreakerTree tree, boolean tenantTags) {
		this(breakers, tree, new MeteredBreakers(tenantTags, true, Set.of()));
	}

	/**
	 * @param breakers the registry whose breakers get meters
	 * @param tree the registry's breakers as they are now, grouped
	 * @param metered which children get meters of their own
	 */
	public BreakerMetrics(BreakerRegistry breakers, BreakerTree tree, MeteredBreakers metered) {
		this.breakers = breakers;
		this.tree = tree;
		this.metered = metered;
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
		 * Every registration, removal and first-use meter is a job, run one at a time in
		 * the order they came, by whichever thread finds none running: the one that
		 * queued it, or the one running jobs then, right after. No thread ever waits for
		 * another here, so Micrometer's own lock (it runs filters and meter listeners,
		 * user code, under it) is never held by one thread waiting for breaker while
		 * another holds breaker's side and waits for Micrometer: a callback that creates
		 * or evicts a measured breaker, or waits for a caller who does, only queues a
		 * job. A removal queued during a registration (a filter evicting the child) runs
		 * after it and removes all of it, and a namesake re-created there registers after
		 * that. A call that finds its breaker never comes here; a call that creates a
		 * child (a new tenant with tenant tags on, a new measured host) queues its job
		 * and runs the jobs if nobody is.
		 */
		private final Queue<Runnable> jobs = new ConcurrentLinkedQueue<>();

		/** Whether a thread is running the jobs. */
		private final AtomicBoolean running = new AtomicBoolean();

		Binding(MeterRegistry registry) {
			this.registry = registry;
		}

		void add(Breaker breaker) {
			if (!measured(breaker)) {
				return;
			}
			BreakerMeters added = new BreakerMeters(breaker, this.registry, tags(breaker), this::run);
			// Listen first: a transition made before or while the meters are registered
			// is counted by the registration's job.
			added.listen();
			run(() -> addMeters(added));
		}

		void remove(Breaker breaker) {
			if (measured(breaker)) {
				run(() -> removeMeters(breaker));
			}
		}

		/**
		 * Queues a job and runs the jobs unless a thread is running them. Nothing a job
		 * throws ends the loop: a job queued by another thread (which returned, since
		 * this one was running) is never stranded. A VirtualMachineError reaches this
		 * thread's caller once the queue is empty and the running flag let go.
		 */
		private void run(Runnable job) {
			this.jobs.add(job);
			VirtualMachineError fatal = null;
			// checked again after letting go: a job queued while the last one ran, and
			// not run by its own thread (this one was running), is run now
			while (!this.jobs.isEmpty() && this.running.compareAndSet(false, true)) {
				try {
					for (Runnable next = this.jobs.poll(); next != null; next = this.jobs.poll()) {
						VirtualMachineError thrown = runOne(next);
						fatal = (fatal == null) ? thrown : fatal;
					}
				}
				finally {
					this.running.set(false);
				}
			}
			if (fatal != null) {
				throw fatal;
			}
		}

		/** Runs a job; returns the VirtualMachineError it threw, if any. */
		private @Nullable VirtualMachineError runOne(Runnable job) {
			try {
				job.run();
				return null;
			}
			catch (VirtualMachineError ex) {
				return ex;
			}
			catch (Throwable ex) {
				logger.warn("Could not update the meters of the breakers", ex);
				return null;
			}
		}

		private boolean measured(Breaker breaker) {
			return BreakerMetrics.this.metered.measured(breaker);
		}

		private void addMeters(BreakerMeters added) {
			Breaker breaker = added.breaker();
			BreakerMeters existing = this.meters.get(breaker.name());
			if (breaker.removed() || (existing != null && existing.breaker() == breaker)) {
				// gone already (its removal came first, or comes next and finds nothing),
				// or seen twice (created while the binding walked the registry)
				added.close();
				return;
			}
			if (existing != null) {
				// The registry replaced a breaker whose removal we have not heard yet:
				// its meters go first, as its removal would take them.
				removeQuietly(existing, "it replaces");
			}
			this.meters.put(breaker.name(), added);
			try {
				added.register();
			}
			catch (Throwable ex) {
				// any Throwable (user code run by Micrometer may throw an Error): no
				// meters
				// and no transition listener are left behind
				this.meters.remove(breaker.name(), added);
				removeQuietly(added, "whose meters could not be registered");
				if (ex instanceof VirtualMachineError fatal) {
					throw fatal;
				}
				logger.warn("Could not register the meters of breaker '" + BreakerNames.printable(breaker.name()) + "'",
						ex);
			}
		}

		/**
		 * Removes the meters from the registry and the entry from the map; a breaker
		 * re-created under the same name registers its meters (of the same ids) in a job
		 * after this one.
		 */
		private void removeMeters(Breaker breaker) {
			BreakerMeters removed = this.meters.get(breaker.name());
			if (removed == null || removed.breaker() != breaker) {
				return;
			}
			this.meters.remove(breaker.name(), removed);
			removeQuietly(removed, "");
		}

		private void removeQuietly(BreakerMeters removed, String which) {
			try {
				removed.remove();
			}
			catch (VirtualMachineError ex) {
				throw ex;
			}
			catch (Throwable ex) {
				logger.warn("Could not remove the meters of breaker '"
						+ BreakerNames.printable(removed.breaker().name()) + "'" + (which.isEmpty() ? "" : " " + which),
						ex);
			}
		}

		private Tags tags(Breaker breaker) {
			if (!BreakerMetrics.this.metered.tenantTags()) {
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
