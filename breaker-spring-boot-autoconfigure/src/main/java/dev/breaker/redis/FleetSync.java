package dev.breaker.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;

import dev.breaker.core.Breaker;
import dev.breaker.core.BreakerRegistry;
import dev.breaker.core.Snapshot;
import dev.breaker.core.State;
import dev.breaker.core.Transition;

/**
 * Keeps the breakers of one replica in step with the fleet, without ever putting Redis on a call's path.
 *
 * <p>Who does what, and on which thread:
 * <ul>
 * <li>A local transition's listener runs on the caller's thread. It only hands a task to the sync thread
 * (and, entering half-open, applies the probe share the fleet already gave: a local call, no network).</li>
 * <li>Half-open probe slots are claimed as soon as the circuit is open ({@link ProbeShare}); a replica that gets
 * none stays open and asks again, so only replicas holding slots ever half-open.</li>
 * <li>The single sync thread issues asynchronous Lettuce commands and applies peers' messages; replies
 * complete on Lettuce's threads, which only update {@link FleetEntry} and hand the rest back to the sync thread.</li>
 * <li>Transitions that came from a peer ({@link Transition#remote()}) are never published again, and a
 * replica ignores its own messages: no echo loops.</li>
 * </ul>
 * Newer state wins by the fleet generation Redis bumps on every shared transition; how long a circuit stays
 * open travels as a relative TTL, so no two replica clocks are ever compared.
 */
public final class FleetSync implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(FleetSync.class.getName());
    private static final long SWEEP_MILLIS = 30_000;

    private final BreakerRegistry registry;
    private final SharedStoreStatus status;
    private final String replicaId;
    private final ScheduledExecutorService executor;
    private final RedisBreakerStore store;
    private final Map<String, FleetEntry> entries = new ConcurrentHashMap<>();
    private final CountDownLatch firstSync = new CountDownLatch(1);
    private final ProbeShare probes;
    private volatile String serverRunId;
    private volatile boolean closed;

    /**
     * @param storeFactory builds the store on the sync thread's executor, reporting to this sync
     */
    public FleetSync(BreakerRegistry registry, SharedStoreStatus status,
            BiFunction<ScheduledExecutorService, RedisBreakerStore.Listener, RedisBreakerStore> storeFactory) {
        this.registry = registry;
        this.status = status;
        this.replicaId = status.replicaId();
        ScheduledThreadPoolExecutor sync = new ScheduledThreadPoolExecutor(1, task -> {
            Thread thread = new Thread(task, "breaker-fleet-sync");
            thread.setDaemon(true);
            return thread;
        });
        sync.setRemoveOnCancelPolicy(true);
        this.executor = sync;
        this.store = storeFactory.apply(executor, new StoreListener());
        this.probes = new ProbeShare(this);
    }

    /** Attaches to the registry and connects in the background; returns at once. */
    public void start() {
        registry.onCreated(this::created);
        registry.onTransition(this::transitioned);
        registry.onRemoved(removed -> entries.computeIfPresent(removed.name(),
                (name, entry) -> entry.remainingMillis(System.nanoTime()) > 0 ? entry : null));
        executor.scheduleWithFixedDelay(this::sweep, SWEEP_MILLIS, SWEEP_MILLIS, TimeUnit.MILLISECONDS);
        store.start();
    }

    /**
     * Waits (bounded) until the first read of the fleet's state has been applied, so a replica starting while a
     * circuit is open takes no traffic through it. Returns false if Redis did not answer in time.
     */
    public boolean awaitFirstSync(Duration timeout) throws InterruptedException {
        return firstSync.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** The id this replica signs its messages with. */
    public String replicaId() {
        return replicaId;
    }

    /** What this replica knows of the breaker's fleet-wide state (no Redis round trip: the local mirror). */
    public FleetBreakerView view(String breaker) {
        FleetEntry entry = entries.get(breaker);
        if (entry == null) {
            return new FleetBreakerView(breaker, status.up(), 0, false, 0, "", "", -1);
        }
        long remaining = entry.remainingMillis(System.nanoTime());
        return new FleetBreakerView(breaker, status.up(), entry.generation(), remaining > 0, remaining, entry.replica(),
                entry.reason(), entry.grant());
    }

    /** The store this sync talks to (for the fleet window, which shares connection and thread). */
    RedisBreakerStore store() {
        return store;
    }

    ScheduledExecutorService executor() {
        return executor;
    }

    BreakerRegistry registry() {
        return registry;
    }

    /**
     * The fleet window opened this breaker (as a peer would, so the local listener stays quiet): tell the fleet,
     * unless another replica already did.
     */
    void publishFleetTrip(Breaker breaker, String reason) {
        entry(breaker.name()).tripUnpublished(true);
        submit(() -> publishTrip(breaker.name(), reason, true));
    }

    // ---- local transitions: caller's thread, no network ----

    private void transitioned(Transition transition) {
        if (closed) {
            return;
        }
        String name = transition.breaker();
        switch (transition.to()) {
            case OPEN -> {
                if (transition.remote()) {
                    submit(() -> registry.find(name).ifPresent(probes::opened));
                } else {
                    // probes are claimed once the publish reply names the new generation
                    entry(name).tripUnpublished(true);
                    submit(() -> publishTrip(name, transition.reason(), false));
                }
            }
            case CLOSED -> {
                if (transition.from() == State.OPEN || transition.from() == State.HALF_OPEN) {
                    FleetEntry entry = entry(name);
                    entry.newEpisode();
                    if (!transition.remote()) {
                        entry.tripUnpublished(false);
                        submit(() -> publishClose(name, transition.reason()));
                    }
                }
            }
            case HALF_OPEN -> registry.find(name).ifPresent(probes::halfOpened);
            default -> {
            }
        }
    }

    private void created(Breaker breaker) {
        if (closed) {
            return;
        }
        FleetEntry entry = entries.get(breaker.name());
        if (entry != null) {
            long remaining = entry.remainingMillis(System.nanoTime());
            if (remaining > 0) {
                breaker.openFromPeer(Duration.ofMillis(remaining), peerReason(entry));
            }
        }
    }

    // ---- the sync thread ----

    private void publishTrip(String name, String reason, boolean onlyIfAbsent) {
        Optional<Breaker> found = registry.find(name);
        if (found.isEmpty()) {
            return;
        }
        Breaker breaker = found.get();
        Snapshot snapshot = breaker.snapshot();
        if (snapshot.state() != State.OPEN || snapshot.openUntil() == null) {
            return; // already moved on; its own transition is queued behind this one
        }
        long ttl = Duration.between(breaker.config().clock().instant(), snapshot.openUntil()).toMillis();
        if (ttl <= 0) {
            return;
        }
        FleetEntry entry = entry(name);
        long sentAt = System.nanoTime();
        store.publishOpen(name, ttl, replicaId, reason, onlyIfAbsent).whenComplete((generation, error) -> {
            if (error == null) {
                entry.tripUnpublished(false);
                if (generation > 0) {
                    entry.advance(new FleetMessage(FleetMessage.Kind.OPEN, name, generation, ttl, replicaId, reason), sentAt);
                    submit(() -> probes.opened(breaker));
                }
            }
        });
    }

    private void publishClose(String name, String reason) {
        FleetEntry entry = entry(name);
        store.publishClose(name, replicaId, reason).whenComplete((generation, error) -> {
            if (error == null) {
                entry.advance(new FleetMessage(FleetMessage.Kind.CLOSED, name, generation, 0, replicaId, reason), System.nanoTime());
            }
        });
    }

    private void apply(FleetMessage message, long receivedAt) {
        FleetEntry entry = entry(message.breaker());
        if (!entry.advance(message, receivedAt) || message.replica().equals(replicaId)) {
            return;
        }
        Optional<Breaker> found = registry.find(message.breaker());
        if (found.isEmpty()) {
            if (message.kind() == FleetMessage.Kind.CLOSED) {
                entries.remove(message.breaker(), entry);
            }
            return;
        }
        Breaker breaker = found.get();
        State state = breaker.state();
        if (message.kind() == FleetMessage.Kind.OPEN) {
            long remaining = entry.remainingMillis(System.nanoTime());
            if (remaining > 0 && (state == State.CLOSED || state == State.HALF_OPEN)) {
                breaker.openFromPeer(Duration.ofMillis(remaining), peerReason(entry));
            } else if (remaining > 0 && state == State.OPEN) {
                // open here too: stay open at least as long as the fleet, and claim probes for the new episode
                breaker.retryAfter(Duration.ofMillis(remaining));
                probes.opened(breaker);
            }
        } else if (state == State.OPEN || state == State.HALF_OPEN) {
            breaker.closeFromPeer(peerReason(entry));
        }
    }

    /**
     * After a (re)connect: learn every circuit the fleet holds open, then tell the fleet about circuits this
     * replica opened while it could not (or that Redis forgot because it restarted empty).
     */
    private void resync() {
        store.serverRunId()
                .thenCompose(runId -> {
                    boolean forgot = serverRunId != null && !serverRunId.equals(runId);
                    serverRunId = runId;
                    if (forgot) {
                        entries.values().forEach(FleetEntry::forget);
                    }
                    return store.scanOpen().thenAccept(open -> submit(() -> reconcile(open, forgot)));
                })
                .whenComplete((ignored, error) -> {
                    if (error != null) {
                        LOG.log(System.Logger.Level.DEBUG, "fleet re-sync failed, retrying", error);
                        schedule(this::resyncIfConnected, 500);
                    }
                });
    }

    private void resyncIfConnected() {
        if (store.connected()) {
            resync();
        }
    }

    private void reconcile(List<FleetMessage> open, boolean redisForgot) {
        long now = System.nanoTime();
        for (FleetMessage message : open) {
            apply(message, now);
        }
        for (Breaker breaker : known()) {
            FleetEntry entry = entry(breaker.name());
            boolean fleetHoldsIt = entry.remainingMillis(now) > 0;
            if (!fleetHoldsIt && breaker.state() == State.OPEN && (entry.tripUnpublished() || redisForgot)) {
                publishTrip(breaker.name(), lastOpenReason(breaker), true);
            }
        }
        status.markSynced();
        firstSync.countDown();
    }

    private void sweep() {
        long now = System.nanoTime();
        entries.entrySet().removeIf(e -> e.getValue().remainingMillis(now) == 0 && registry.find(e.getKey()).isEmpty());
    }

    private List<Breaker> known() {
        List<Breaker> all = new ArrayList<>();
        for (Breaker breaker : registry.breakers()) {
            all.add(breaker);
            all.addAll(registry.children(breaker.name()));
        }
        return all;
    }

    private static String lastOpenReason(Breaker breaker) {
        List<Transition> transitions = breaker.snapshot().transitions();
        for (int i = transitions.size() - 1; i >= 0; i--) {
            if (transitions.get(i).to() == State.OPEN) {
                return "re-sync: " + transitions.get(i).reason();
            }
        }
        return "re-sync";
    }

    private static String peerReason(FleetEntry entry) {
        return "peer " + entry.replica() + ": " + entry.reason();
    }

    SharedStoreStatus status() {
        return status;
    }

    boolean closed() {
        return closed;
    }

    FleetEntry entry(String name) {
        return entries.computeIfAbsent(name, n -> new FleetEntry());
    }

    /** Runs a task on the sync thread after a delay; nothing when closing. */
    void schedule(Runnable task, long delayMillis) {
        if (closed) {
            return;
        }
        try {
            executor.schedule(() -> submit(task), delayMillis, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException shuttingDown) {
            // closing: the task no longer matters
        }
    }

    /** Runs a task on the sync thread; false when closing. */
    boolean submit(Runnable task) {
        if (closed) {
            return false;
        }
        try {
            executor.execute(() -> {
                try {
                    task.run();
                } catch (RuntimeException e) {
                    LOG.log(System.Logger.Level.WARNING, "fleet sync task failed", e);
                }
            });
            return true;
        } catch (RejectedExecutionException shuttingDown) {
            return false;
        }
    }

    @Override
    public void close() {
        closed = true;
        executor.shutdownNow();
        store.close();
    }

    private final class StoreListener implements RedisBreakerStore.Listener {
        @Override
        public void onMessage(FleetMessage message) {
            long receivedAt = System.nanoTime();
            submit(() -> apply(message, receivedAt));
        }

        @Override
        public void onConnected() {
            submit(FleetSync.this::resync);
        }
    }
}
