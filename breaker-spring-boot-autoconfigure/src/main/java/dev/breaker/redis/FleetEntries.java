package dev.breaker.redis;

import java.util.Collection;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The {@link FleetEntry} of every breaker this replica knows of: those it has, and a
 * bounded number of fleet-only ones (breakers other replicas share that this one has not
 * created yet: a tenant, a host), so a breaker created later starts as the fleet holds
 * it. Fleet-only entries are at most {@link #FLEET_ONLY_LIMIT}, open at most
 * {@link #FLEET_ONLY_OPEN_CEILING_MILLIS}, and are dropped once they hold nothing
 * current, so messages naming breakers that do not exist cannot grow this replica's
 * memory.
 */
final class FleetEntries {

	static final int FLEET_ONLY_LIMIT = 1_000;

	/**
	 * Longest a fleet-only open is kept (a breaker created later clamps it again to its
	 * own max open wait).
	 */
	static final long FLEET_ONLY_OPEN_CEILING_MILLIS = TimeUnit.HOURS.toMillis(1);

	/**
	 * How long a standing override of a breaker this replica does not have is kept
	 * without news.
	 */
	static final long FLEET_ONLY_KEEP_NANOS = TimeUnit.HOURS.toNanos(1);

	private static final System.Logger LOG = System.getLogger(FleetSync.class.getName());

	private final ConcurrentHashMap<String, FleetEntry> entries = new ConcurrentHashMap<>();

	private final AtomicInteger fleetOnly = new AtomicInteger();

	private final AtomicBoolean warnedFull = new AtomicBoolean();

	FleetEntry get(String breaker) {
		return entries.get(breaker);
	}

	/** The entry of a breaker this replica has, created if needed. */
	FleetEntry local(String breaker) {
		for (;;) {
			FleetEntry entry = entries.computeIfAbsent(breaker, name -> {
				FleetEntry created = new FleetEntry();
				created.local(true);
				return created;
			});
			synchronized (entry) {
				if (entries.get(breaker) != entry) {
					continue; // swept away just now: take the new one
				}
				if (!entry.local()) {
					entry.local(true);
					fleetOnly.decrementAndGet();
				}
				return entry;
			}
		}
	}

	/**
	 * The entry of a breaker this replica does not have; {@code null} when there is no
	 * room for another one.
	 */
	FleetEntry fleetOnly(String breaker) {
		FleetEntry existing = entries.get(breaker);
		if (existing != null) {
			return existing;
		}
		if (fleetOnly.get() >= FLEET_ONLY_LIMIT) {
			if (warnedFull.compareAndSet(false, true)) {
				LOG.log(System.Logger.Level.WARNING,
						"breaker fleet: already tracking {0} breakers this replica does not have; "
								+ "ignoring news of more (''{1}'' and others) until some expire",
						FLEET_ONLY_LIMIT, Printable.of(breaker, Printable.NAME));
			}
			return null;
		}
		boolean[] created = new boolean[1];
		FleetEntry entry = entries.computeIfAbsent(breaker, name -> {
			created[0] = true;
			return new FleetEntry();
		});
		if (created[0]) {
			fleetOnly.incrementAndGet();
		}
		return entry;
	}

	/**
	 * This replica's breaker went (an idle child expired): keep what the fleet holds, as
	 * for any fleet-only breaker.
	 */
	void removed(String breaker) {
		FleetEntry entry = entries.get(breaker);
		if (entry == null) {
			return;
		}
		synchronized (entry) {
			if (entry.local()) {
				entry.local(false);
				fleetOnly.incrementAndGet();
			}
		}
		sweep(breaker, entry, System.nanoTime());
	}

	/** Drops fleet-only entries that hold nothing current any more. */
	void sweep() {
		long now = System.nanoTime();
		entries.forEach((name, entry) -> sweep(name, entry, now));
		if (fleetOnly.get() < FLEET_ONLY_LIMIT / 2) {
			warnedFull.set(false);
		}
	}

	private void sweep(String name, FleetEntry entry, long now) {
		synchronized (entry) {
			if (!entry.local() && entry.stale(now, FLEET_ONLY_KEEP_NANOS) && entries.remove(name, entry)) {
				fleetOnly.decrementAndGet();
			}
		}
	}

	/** How many breakers this replica tracks for the fleet without having them. */
	int fleetOnlyCount() {
		return fleetOnly.get();
	}

	Collection<FleetEntry> all() {
		return entries.values();
	}

}
