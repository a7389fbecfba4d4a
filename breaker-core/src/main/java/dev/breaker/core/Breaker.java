package dev.breaker.core;

import dev.breaker.core.internal.BucketWindow;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Consumer;

/** A circuit breaker in front of one dependency: calls flow while it is closed and are rejected at once while it is open. */
public final class Breaker {

    /*
     * The current state is one object in the volatile field `state`; every transition builds the next
     * state object and publishes it with one compareAndSet in moveTo(), after checking the move against
     * TransitionTable. The CAS winner alone records the transition and runs the listeners (after the
     * publish, outside any lock, on its own thread), so each transition is reported exactly once.
     *
     * Hot paths:
     * - acquire on CLOSED: one volatile read of `state`, a type check, return the state's preallocated
     *   permit. With the stall rule on, also one ticker read, one striped CAS (in-flight) and at most
     *   once per tick a stall check.
     * - rejection on OPEN: one volatile read of `state`, one ticker read (a volatile read with the
     *   cached ticker), one volatile read of the open-until time, a compare, one striped add to the
     *   rejected total, return the preallocated rejected permit.
     * - release: one ticker read, a striped add to the totals, a striped CAS in the window, and an
     *   identity check of the permit's state against `state`: a permit of an earlier state object
     *   (an earlier generation) is not counted for the state. A success writes no other shared field.
     */

    private static final System.Logger LOG = System.getLogger(Breaker.class.getName());

    private final String name;
    private final String group;
    private final String key;
    private final BreakerConfig config;
    private final Breaker parent;
    private final Ticker ticker;
    private final TripRules rules;
    private final BucketWindow window;
    private final BreakerTotals totals = new BreakerTotals();
    private final TransitionHistory history = new TransitionHistory();
    private final List<Consumer<Transition>> listeners = new CopyOnWriteArrayList<>();
    private final BreakerOpenException rejection;
    private final Ticket rejected;
    private final boolean trackInFlight;
    private final long halfOpenMaxWaitNanos;
    private volatile BreakerState state;
    private volatile long retryHintNanos;
    private volatile long retryHintAt;

    Breaker(String name, BreakerConfig config, Breaker parent, String group, String key) {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("a breaker needs a name, but was " + (name == null ? "null" : "blank"));
        }
        this.name = name;
        this.config = Objects.requireNonNull(config, "config");
        this.parent = parent;
        this.group = group;
        this.key = key;
        this.ticker = config.ticker();
        this.rules = new TripRules(config);
        this.trackInFlight = rules.stallCalls > 0;
        long bucketNanos = config.bucket().toNanos();
        this.window = new BucketWindow(bucketNanos, (int) (config.window().toNanos() / bucketNanos), trackInFlight);
        this.halfOpenMaxWaitNanos = config.halfOpenMaxWait().toNanos();
        this.rejection = new BreakerOpenException(this);
        this.rejected = new Ticket(this, null, false, null);
        this.state = new ClosedState(this, null, ticker.nanos(), config.clock().instant());
    }

    /** A top-level breaker. */
    public static Breaker of(String name, BreakerConfig config) {
        return new Breaker(name, config, null, name, null);
    }

    /** The full name: the group name, or {@code group + ":" + key} for a registry child. */
    public String name() {
        return name;
    }

    public BreakerConfig config() {
        return config;
    }

    /** The parent breaker a registry child consults too, else null. */
    public Breaker parent() {
        return parent;
    }

    /** The top-level name: {@link #name()} for a top-level breaker, the parent's name for a child. */
    public String group() {
        return group;
    }

    /** The child key ({@code "user-42"}), null for a top-level breaker. */
    public String key() {
        return key;
    }

    /** The breaker's time: callers that use {@link #acquire()}/{@link #release} time their calls with this. */
    public long nanos() {
        return ticker.nanos();
    }

    /** The preallocated exception thrown for every rejected call (no stack trace). */
    public BreakerOpenException rejection() {
        return rejection;
    }

    /**
     * Runs {@code callable} if the breaker lets it, and records its outcome.
     *
     * @throws BreakerOpenException when the breaker (or its parent) rejects the call
     * @throws Exception whatever the callable threw, unchanged
     */
    public <T> T call(Callable<T> callable) throws Exception {
        Ticket permit = (Ticket) acquire();
        if (permit.state == null) {
            throw permit.owner.rejection;
        }
        long start = ticker.nanos();
        T result;
        try {
            result = callable.call();
        } catch (Exception | Error e) {
            release(permit, config.classifier().classify(null, e), ticker.nanos() - start);
            throw e;
        }
        release(permit, config.classifier().classify(result, null), ticker.nanos() - start);
        return result;
    }

    /** Asks to make a call: never null; a rejected permit has {@code granted() == false}. Allocates nothing. */
    public Permit acquire() {
        Ticket own = acquireOwn();
        if (parent == null || own.state == null) {
            return own;
        }
        Ticket up = (Ticket) parent.acquire();
        if (up.state == null) {
            cancel(own);
            totals.increment(BreakerTotals.REJECTED);
            return up;
        }
        return own.state.withParent(up);
    }

    private Ticket acquireOwn() {
        BreakerState s = state;
        if (s instanceof ClosedState closed) {
            if (trackInFlight) {
                long now = ticker.nanos();
                window.start(now);
                if (closed.stallCheckDue(now)) {
                    checkStall(closed, now);
                }
            }
            return closed.permit;
        }
        return acquireSlow();
    }

    private Ticket acquireSlow() {
        for (;;) {
            long now = ticker.nanos();
            BreakerState s = current(now);
            switch (s.state) {
                case CLOSED:
                    return acquireOwn();
                case HALF_OPEN:
                    if (!((HalfOpenState) s).tryAcquire()) {
                        return reject();
                    }
                    // fall through: a probe slot is a granted call
                case DISABLED:
                    if (trackInFlight) {
                        window.start(now);
                    }
                    return s.permit;
                default:
                    return reject();
            }
        }
    }

    private Ticket reject() {
        totals.increment(BreakerTotals.REJECTED);
        return rejected;
    }

    /** Gives back a granted permit whose call never ran (the parent rejected it). */
    private void cancel(Ticket permit) {
        if (trackInFlight) {
            long now = ticker.nanos();
            window.finish(now, now);
        }
        if (permit.state instanceof HalfOpenState halfOpen && permit.state == state) {
            halfOpen.cancel();
        }
    }

    /**
     * Records the outcome of a call made with {@code permit}; ignores a rejected permit. The outcome of
     * a permit from an earlier generation counts in the totals but not toward the current state.
     *
     * @param elapsedNanos the call's duration, measured with {@link #nanos()}
     */
    public void release(Permit permit, Outcome outcome, long elapsedNanos) {
        if (!(permit instanceof Ticket ticket) || ticket.owner != this && ticket.state != null) {
            throw new IllegalArgumentException("not a permit of breaker '" + name + "': " + permit);
        }
        if (ticket.state == null) {
            return;
        }
        Objects.requireNonNull(outcome, "outcome");
        long now = ticker.nanos();
        boolean slow = elapsedNanos > rules.slowNanos && TripRules.counts(outcome);
        totals.increment(outcome.ordinal());
        if (slow) {
            totals.increment(BreakerTotals.SLOW);
        }
        if (trackInFlight) {
            window.finish(now - elapsedNanos, now);
        }
        BreakerState s = state;
        if (ticket.state == s) {
            window.record(outcome.ordinal(), now);
            if (slow) {
                window.record(BucketWindow.SLOW, now);
            }
            if (s instanceof ClosedState closed) {
                onClosedOutcome(closed, outcome, slow, now);
            } else if (s instanceof HalfOpenState halfOpen) {
                onProbeOutcome(halfOpen, outcome, slow, now);
            }
        }
        if (ticket.parent != null) {
            parent.release(ticket.parent, outcome, elapsedNanos);
        }
    }

    private void onClosedOutcome(ClosedState closed, Outcome outcome, boolean slow, long now) {
        if (rules.isFailure(outcome)) {
            String reason = rules.consecutive(closed.failed());
            if (reason == null) {
                reason = rules.rates(window, now);
            }
            if (reason != null) {
                trip(closed, now, reason);
            }
            return;
        }
        if (outcome == Outcome.SUCCESS) {
            closed.succeeded();
        }
        if (slow && rules.slowRuleOn()) {
            String reason = rules.rates(window, now);
            if (reason != null) {
                trip(closed, now, reason);
            }
        }
    }

    private void onProbeOutcome(HalfOpenState halfOpen, Outcome outcome, boolean slow, long now) {
        boolean failure = rules.isFailure(outcome) || slow && rules.slowRuleOn();
        boolean success = !failure && outcome == Outcome.SUCCESS;
        if (failure) {
            totals.increment(BreakerTotals.PROBE_FAILURE);
        } else if (success) {
            totals.increment(BreakerTotals.PROBE_SUCCESS);
        }
        switch (halfOpen.finish(success, failure)) {
            case CLOSE -> moveTo(halfOpen, new ClosedState(this, halfOpen, now, config.clock().instant()),
                    halfOpen.successes() + " probes succeeded", false);
            case REOPEN -> trip(halfOpen, now, halfOpen.failures() + " of " + halfOpen.finished() + " probes failed");
            default -> { }
        }
    }

    private void checkStall(ClosedState closed, long now) {
        String reason = rules.stall(window, closed.enteredNanos, now);
        if (reason != null) {
            trip(closed, now, reason);
        }
    }

    private boolean trip(BreakerState from, long now, String reason) {
        int streak = from.streak + 1;
        long wait = TripRules.openWaitNanos(config, streak, ThreadLocalRandom.current().nextDouble());
        long hint = retryHintNanos;
        if (hint > 0 && now - retryHintAt <= window.bucketNanos()) {
            wait = Math.max(wait, hint);
        }
        return moveTo(from, new OpenState(this, from, streak, now, config.clock().instant(), wait), reason, false);
    }

    /** The current state after any due time-based move (OPEN -> HALF_OPEN, HALF_OPEN -> OPEN). */
    private BreakerState current(long now) {
        for (;;) {
            BreakerState s = state;
            if (s instanceof OpenState open && open.due(now)) {
                moveTo(open, new HalfOpenState(this, open, now, config.clock().instant()),
                        "open wait of " + TripRules.waitText(open.until() - open.enteredNanos) + " ended", false);
            } else if (s instanceof HalfOpenState halfOpen && now - halfOpen.enteredNanos >= halfOpenMaxWaitNanos) {
                trip(halfOpen, now, "no probe verdict within " + Numbers.format(config.halfOpenMaxWait()));
            } else {
                return s;
            }
        }
    }

    /** The state now; a due OPEN -> HALF_OPEN (or an overdue half-open verdict) happens in here. */
    public State state() {
        return current(ticker.nanos()).state;
    }

    State currentState() {
        return state.state;
    }

    Instant openUntil() {
        return state instanceof OpenState open ? open.untilInstant() : null;
    }

    /** An immutable picture of the breaker now. */
    public Snapshot snapshot() {
        long now = ticker.nanos();
        return Snapshots.of(this, current(now), window, rules, history.list(), now);
    }

    /** Live cumulative counters, never reset; reading them allocates nothing. */
    public Totals totals() {
        return totals;
    }

    /** Operator: back to CLOSED with an empty window and the open-wait backoff reset. */
    public void reset() {
        override(State.CLOSED);
    }

    /** Operator: reject every call until another override. */
    public void forceOpen() {
        override(State.FORCED_OPEN);
    }

    /** Operator: let every call through (still recorded) and trip on nothing until another override. */
    public void disable() {
        override(State.DISABLED);
    }

    /** Operator: start probing now. */
    public void halfOpen() {
        override(State.HALF_OPEN);
    }

    private void override(State to) {
        for (;;) {
            BreakerState s = state;
            if (s.state == to && to != State.CLOSED && to != State.HALF_OPEN) {
                return;
            }
            if (moveTo(s, newState(to, s, ticker.nanos()), "operator", false)) {
                return;
            }
        }
    }

    private BreakerState newState(State to, BreakerState from, long now) {
        Instant wallNow = config.clock().instant();
        return switch (to) {
            case CLOSED -> new ClosedState(this, from, now, wallNow);
            case HALF_OPEN -> new HalfOpenState(this, from, now, wallNow);
            case FORCED_OPEN -> new ForcedOpenState(this, from, now, wallNow);
            case DISABLED -> new DisabledState(this, from, now, wallNow);
            case OPEN -> throw new IllegalArgumentException("OPEN is entered by a trip, not an override");
        };
    }

    /** Registers a listener for every transition of this breaker; it runs on the thread that caused it. */
    public void onTransition(Consumer<Transition> listener) {
        listeners.add(Objects.requireNonNull(listener, "listener"));
    }

    /** Fleet mode: a peer tripped; CLOSED or HALF_OPEN moves to OPEN until now + remaining. */
    public void openFromPeer(Duration remaining, String reason) {
        for (;;) {
            BreakerState s = state;
            if (s.state != State.CLOSED && s.state != State.HALF_OPEN) {
                return;
            }
            long now = ticker.nanos();
            long wait = Math.max(1, remaining.toNanos());
            OpenState open = new OpenState(this, s, s.streak + 1, now, config.clock().instant(), wait);
            if (moveTo(s, open, reason, true)) {
                return;
            }
        }
    }

    /** Fleet mode: a peer closed; OPEN or HALF_OPEN moves to CLOSED. */
    public void closeFromPeer(String reason) {
        for (;;) {
            BreakerState s = state;
            if (s.state != State.OPEN && s.state != State.HALF_OPEN) {
                return;
            }
            if (moveTo(s, new ClosedState(this, s, ticker.nanos(), config.clock().instant()), reason, true)) {
                return;
            }
        }
    }

    /**
     * A server said "come back in {@code hint}": if OPEN now, or if this breaker trips within one bucket
     * from now, it stays open at least until now + hint.
     */
    public void retryAfter(Duration hint) {
        long nanos = hint.toNanos();
        if (nanos <= 0) {
            return;
        }
        long now = ticker.nanos();
        retryHintAt = now;
        retryHintNanos = nanos;
        if (state instanceof OpenState open) {
            open.extend(now, config.clock().instant(), nanos);
        }
    }

    /** Fleet mode: this replica's share of concurrent probes for the current half-open episode (no effect in other states). */
    public void limitProbes(int max) {
        if (max < 0 || max > config.halfOpenMaxProbes()) {
            throw new IllegalArgumentException("probe share must be in [0, " + config.halfOpenMaxProbes()
                    + "] but was " + max);
        }
        if (state instanceof HalfOpenState halfOpen) {
            halfOpen.share(max);
        }
    }

    /** The one place a state changes: checked against the table, one CAS winner, then history and listeners. */
    private boolean moveTo(BreakerState from, BreakerState to, String reason, boolean remote) {
        TransitionTable.check(from.state, to.state);
        if (to.state == State.CLOSED) {
            window.clear();
        }
        if (!STATE.compareAndSet(this, from, to)) {
            return false;
        }
        if (!remote && to.state == State.OPEN) {
            totals.increment(BreakerTotals.TRIPS);
        }
        Transition transition = new Transition(name, from.state, to.state, to.since, reason, to.generation, remote);
        history.add(transition);
        for (Consumer<Transition> listener : listeners) {
            try {
                listener.accept(transition);
            } catch (RuntimeException | LinkageError | AssertionError e) {
                LOG.log(System.Logger.Level.WARNING, "transition listener of breaker '" + name + "' threw on "
                        + transition, e);
            }
        }
        return true;
    }

    BucketWindow window() {
        return window;
    }

    @Override
    public String toString() {
        return "Breaker[" + name + " " + state + "]";
    }

    private static final java.lang.invoke.VarHandle STATE;

    static {
        try {
            STATE = java.lang.invoke.MethodHandles.lookup().findVarHandle(Breaker.class, "state", BreakerState.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }
}
