package dev.breaker.redis;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

import dev.breaker.core.Breaker;
import dev.breaker.core.BreakerRegistry;
import dev.breaker.core.Snapshot;
import dev.breaker.core.State;
import io.lettuce.core.RedisURI;

/**
 * Keeps the breakers of one replica in step with the fleet, without ever putting Redis on
 * a call's path.
 *
 * <p>
 * The jobs, each in its own class, and their threads:
 * <ul>
 * <li>{@link LocalTransitions}: listens to this replica's breakers on the caller's thread
 * and only hands work on.</li>
 * <li>{@link FleetPublisher}: tells the fleet of trips (votes toward the {@code quorum})
 * and closes; {@link FleetOverrides}: of operators' fleet-wide overrides.</li>
 * <li>{@link PeerMessages}: applies what the fleet announces to this replica's
 * breakers.</li>
 * <li>{@link Reconciler}: after a (re)connect, reads the fleet's state in small steps and
 * fills in what was missed.</li>
 * <li>{@link ProbeShare}: shares half-open probes out across the fleet.</li>
 * </ul>
 * All but the listener run on one {@link SyncThread}; Lettuce's reply threads only hand
 * results back to it. The keys are {@link FleetKeys}'s, the wire format
 * {@link FleetMessage}'s, and everything read is checked by {@link Trust}.
 */
public final class FleetSync implements AutoCloseable {

	private static final long SWEEP_MILLIS = 1_000;

	/**
	 * What a replica without probe slots grants the holder past its own max-open-wait
	 * (within the 2 s bound).
	 */
	static final long PROBE_GRACE_MILLIS = 1_500;

	private final BreakerRegistry registry;

	private final SharedStoreStatus status;

	private final FleetSettings settings;

	private final String replicaId;

	private final SyncThread thread = new SyncThread();

	private final Trust trust;

	private final RedisBreakerStore store;

	private final FleetEntries entries = new FleetEntries();

	private final CountDownLatch firstSync = new CountDownLatch(1);

	private final LocalTransitions local = new LocalTransitions(this);

	private final FleetPublisher publisher = new FleetPublisher(this);

	private final FleetOverrides overrides = new FleetOverrides(this);

	private final PeerMessages peers = new PeerMessages(this);

	private final Reconciler reconciler = new Reconciler(this);

	private final ProbeShare probes = new ProbeShare(this);

	private final AtomicLong sequence = new AtomicLong();

	/**
	 * A replica of a fleet sharing through one Redis server, or the primary Sentinel
	 * names when {@code uri} lists Sentinels.
	 */
	public FleetSync(BreakerRegistry registry, SharedStoreStatus status, RedisURI uri, FleetSettings settings) {
		this(registry, status, FleetRedis.of(uri), settings);
	}

	/**
	 * A replica of a fleet sharing through {@code redis}: one server, a Sentinel-managed
	 * primary, or a Cluster.
	 */
	public FleetSync(BreakerRegistry registry, SharedStoreStatus status, FleetRedis redis, FleetSettings settings) {
		this.registry = registry;
		this.status = status;
		this.settings = settings;
		this.replicaId = status.replicaId();
		RedisClock clock = new RedisClock();
		this.trust = new Trust(MessageSigner.of(settings.signingKey()), clock, status);
		this.store = new RedisBreakerStore(redis, new FleetKeys(settings.keyPrefix()), settings.channel(),
				settings.timeout(), settings.reconnectInterval(), status, clock, thread.executor(),
				new RedisBreakerStore.Listener() {
					@Override
					public void onMessage(String text) {
						thread.submit(() -> peers.received(text));
					}

					@Override
					public void onReachable() {
						thread.submit(reconciler::resync);
					}
				});
	}

	/** Attaches to the registry and connects in the background; returns at once. */
	public void start() {
		registry.onCreated(local::created);
		registry.onTransition(local::transitioned);
		registry.onRemoved(local::removed);
		thread.executor()
			.scheduleWithFixedDelay(() -> thread.submit(entries::sweep), SWEEP_MILLIS, SWEEP_MILLIS,
					TimeUnit.MILLISECONDS);
		store.start();
	}

	/**
	 * Waits (bounded) until the first read of the fleet's state has been applied, so a
	 * replica starting while a circuit is open (or overridden) takes no traffic through
	 * it. Returns false if Redis did not answer in time.
	 */
	public boolean awaitFirstSync(Duration timeout) throws InterruptedException {
		return firstSync.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
	}

	/** The id this replica signs its messages with. */
	public String replicaId() {
		return replicaId;
	}

	/** How this replica takes part in the fleet. */
	public FleetSettings settings() {
		return settings;
	}

	/** The store's status for this replica, the one this fleet sync keeps up to date. */
	public SharedStoreStatus status() {
		return status;
	}

	/**
	 * What this replica knows of the breaker's fleet-wide state (no Redis round trip: the
	 * local mirror).
	 */
	public FleetBreakerView view(String breaker) {
		FleetEntry entry = entries.get(breaker);
		if (entry == null) {
			return new FleetBreakerView(breaker, status.up(), 0, false, 0, "", "", -1, "", null, null);
		}
		State here = registry.find(breaker).map(Breaker::state).orElse(null);
		return entry.view(breaker, status.up(), System.nanoTime(), here, replicaId);
	}

	/**
	 * How many breakers this replica tracks for the fleet without having them (bounded;
	 * they expire).
	 */
	public int fleetOnlyBreakers() {
		return entries.fleetOnlyCount();
	}

	/**
	 * An operator's override: applied here at once and, when {@code fleetWide}, on every
	 * replica, including replicas started later (FORCED_OPEN, DISABLED) until an
	 * operator's CLOSED.
	 */
	public void override(Breaker breaker, State state, boolean fleetWide) {
		overrides.apply(breaker, state, fleetWide);
	}

	// ---- for the jobs ----

	BreakerRegistry registry() {
		return registry;
	}

	Trust trust() {
		return trust;
	}

	RedisBreakerStore store() {
		return store;
	}

	FleetEntries entries() {
		return entries;
	}

	FleetPublisher publisher() {
		return publisher;
	}

	FleetOverrides overrides() {
		return overrides;
	}

	PeerMessages peers() {
		return peers;
	}

	ProbeShare probes() {
		return probes;
	}

	Reconciler reconciler() {
		return reconciler;
	}

	SyncThread thread() {
		return thread;
	}

	/**
	 * The sequence number of the last change applied: a read sent now is older than any
	 * change after it.
	 */
	long sequence() {
		return sequence.get();
	}

	long nextSequence() {
		return sequence.incrementAndGet();
	}

	/** The first full read of the fleet's state is done. */
	void synced() {
		status.markSynced();
		firstSync.countDown();
	}

	/**
	 * An open circuit read from Redis (a reply or the reconnect read), unless an
	 * announcement overtook the read.
	 */
	void applyStored(StoreReplies.Stored stored, long sentAt) {
		FleetEntry entry = entries.get(stored.circuit().breaker());
		if (entry != null && entry.openReadOutdated(stored.circuit(), sentAt)) {
			return;
		}
		long remaining = trust.remainingStored(stored.circuit(), stored.pttl());
		if (remaining > 0) {
			peers.apply(stored.circuit(), nextSequence(), remaining, false);
		}
	}

	/**
	 * The latest moment probe sharing may hold this breaker open in an episode (on
	 * System.nanoTime()): its max-open-wait after it opened, plus
	 * {@link #PROBE_GRACE_MILLIS} for the slot holder's first probes (a fleet open lasts
	 * at most the max-open-wait, so the holder half-opens by then).
	 */
	long deadline(Breaker breaker) {
		Snapshot snapshot = breaker.snapshot();
		long openFor = 0;
		if (snapshot.state() == State.OPEN) {
			openFor = Math.max(0, Duration.between(snapshot.since(), breaker.config().clock().instant()).toNanos());
		}
		return System.nanoTime() - openFor + breaker.config().maxOpenWait().toNanos() + PROBE_GRACE_MILLIS * 1_000_000L;
	}

	/**
	 * The fleet window judged this breaker: it trips as its own rule would, and the fleet
	 * opens with it.
	 */
	void tripFromFleetWindow(Breaker breaker, String reason) {
		LocalTransitions.tripFromFleetWindow(breaker, reason);
	}

	@Override
	public void close() {
		thread.close();
		store.close();
	}

}
