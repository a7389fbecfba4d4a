package dev.breaker.core;

import dev.breaker.core.internal.BucketWindow;
import dev.breaker.core.internal.EngineAccess;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * A circuit breaker in front of one dependency: calls flow while it is closed and are
 * rejected at once while it is open.
 */
public final class Breaker {

	/*
	 * The current state is one object in the volatile field `state`; every transition
	 * builds the next state object and publishes it with one compareAndSet in moveTo(),
	 * after checking the move against TransitionTable. The CAS winner alone records the
	 * transition and runs the listeners (after the publish, outside any lock, on its own
	 * thread), so each transition is reported exactly once.
	 *
	 * Generations: a permit carries the state object it was issued in, and everything its
	 * release does is done for that object: it records into that state's era of the
	 * window (a CLOSED state reads only its own era, so nothing recorded for an earlier
	 * state can count toward it, whatever the release races), feeds that state's
	 * counters, and can move only from that state (a CAS that fails once the state has
	 * changed). A release that finds its state already left counts in the totals only.
	 *
	 * Hot paths: - acquire on CLOSED: one volatile read of `state`, a type check, return
	 * the state's preallocated permit. With in-flight tracking, also one ticker read and
	 * one striped add; with the stall rule, one striped CAS in the state's in-flight
	 * window, the permit of the start bucket (made once per bucket) and at most once per
	 * tick a stall check. - rejection on OPEN: one volatile read of `state`, one ticker
	 * read (a volatile read with the cached ticker), one volatile read of the open-until
	 * time, a compare, one striped add to the rejected total, return the preallocated
	 * rejected permit. - release: one ticker read, an identity check of the permit's
	 * state against `state`, one striped CAS in the window (which also keeps the
	 * cumulative totals), a compare of the elapsed time (a call that took time also
	 * writes its latency: see Latencies). A failure checks the rules; a success writes no
	 * other shared field (the consecutive-failure count only when it is not 0) and checks
	 * the rate rules only when it could make one hold: the first success of a tick, or
	 * while the window holds fewer than minimumCalls calls. With a threshold that follows
	 * traffic (minimumCallsRatio, auto probes), one opaque read more: see TrafficPeaks.
	 *
	 * Retries: tryRetry() is off the call path (a retry follows a failure and a pause).
	 * The budget is the top-level breaker's, made at its first retry, so a breaker that
	 * never retries pays nothing for it in time or memory; see RetryBudget.
	 *
	 * This class holds the public face and the paths above, which read its own final
	 * fields with no indirection; the rest lives beside it: the rules and the moves they
	 * cause in Verdicts, operator overrides in Overrides, the fleet's in PeerHooks,
	 * snapshots in Snapshots, transition history and listeners in TransitionLog, a
	 * misbehaving classifier in Classification.
	 */

	private static final VarHandle STATE;

	private static final VarHandle BUDGET;

	static {
		try {
			STATE = MethodHandles.lookup().findVarHandle(Breaker.class, "state", BreakerState.class);
			BUDGET = MethodHandles.lookup().findVarHandle(Breaker.class, "budget", RetryBudget.class);
		}
		catch (ReflectiveOperationException e) {
			throw new ExceptionInInitializerError(e);
		}
		// for dev.breaker.core.spi.SharedStateHooks
		EngineAccess.install(new PeerHooks());
	}

	private final String name;

	private final String group;

	private final String key;

	private final BreakerConfig config;

	private final Breaker parent;

	private final Ticker ticker;

	/**
	 * The ticker's reading when this breaker (or the parent it consults) was built: every
	 * time the engine uses is {@code ticker.nanos() - origin}, so a ticker that starts
	 * anywhere ({@link System#nanoTime()} may be negative, a user's ticker may start near
	 * {@link Long#MAX_VALUE}) or wraps gives times that start near 0 and only grow for
	 * 292 years (the window's epochs and regions need that).
	 */
	private final long origin;

	private final TripRules rules;

	private final BucketWindow window;

	private final BreakerTotals totals;

	/**
	 * Null when latency is not kept: recordLatency off, or a child whose parent records
	 * its calls.
	 */
	private final Latencies latencies;

	private final TransitionLog log = new TransitionLog();

	private final BreakerOpenException rejection;

	private final Ticket rejected;

	private final boolean trackInFlight;

	private final Verdicts verdicts;

	private final long eraStep;

	/**
	 * 0 unless this is a group breaker that trips on breadth: the children whose failures
	 * it takes; each CLOSED state counts them in a table of its own
	 * ({@link #newBreadth()}).
	 */
	private final int minFailingChildren;

	/** The traffic of the last hour, when a threshold follows it; else null. */
	private final TrafficPeaks peaks;

	/**
	 * Its classifier's failures, told at most once a minute; shared by a group's
	 * children.
	 */
	private final Classification classification;

	/** Made at the first retry this breaker's budget is asked for (see RetryBudget). */
	private volatile RetryBudget budget;

	private volatile BreakerState state;

	/** Set once its registry drops this child (evicted or expired). */
	private volatile boolean removed;

	Breaker(String name, BreakerConfig config, Breaker parent, String group, String key) {
		this(name, config, parent, group, key, 0);
	}

	Breaker(String name, BreakerConfig config, Breaker parent, String group, String key, int minFailingChildren) {
		this(name, config, parent, group, key, minFailingChildren, null);
	}

	Breaker(String name, BreakerConfig config, Breaker parent, String group, String key, int minFailingChildren,
			Classification classification) {
		if (name == null || name.isBlank()) {
			throw new IllegalArgumentException("a breaker needs a name, but was " + (name == null ? "null" : "blank"));
		}
		this.name = name;
		this.config = Objects.requireNonNull(config, "config");
		this.parent = parent;
		this.group = group;
		this.key = key;
		this.minFailingChildren = minFailingChildren;
		this.ticker = config.ticker();
		// a child on its parent's ticker counts from the parent's origin too; the two
		// hand
		// each other durations only, each reading its own time (a child's retry budget is
		// read at the parent's now())
		this.origin = (parent != null && parent.ticker == this.ticker) ? parent.origin : this.ticker.nanos();
		this.classification = (classification != null) ? classification : new Classification(this.ticker);
		this.trackInFlight = config.trackInFlight();
		long bucketNanos = config.bucket().toNanos();
		int buckets = (int) (config.window().toNanos() / bucketNanos);
		this.window = new BucketWindow(bucketNanos, buckets, BucketWindow.FINISHED_KINDS);
		this.peaks = TrafficPeaks.needed(config) ? new TrafficPeaks(config, window, now()) : null;
		this.rules = new TripRules(config, peaks);
		// a whole ring ahead and one more: an earlier era never reaches a later window
		this.eraStep = 2L * buckets;
		this.totals = new BreakerTotals(window);
		this.latencies = config.recordLatency() && parent == null ? new Latencies(config, totals) : null;
		this.rejection = new BreakerOpenException(this);
		this.rejected = new Ticket(this, null, false, null);
		this.verdicts = new Verdicts(this, rules, window, totals);
		this.state = new ClosedState(this, null, now(), config.clock().instant());
	}

	/** A top-level breaker. */
	public static Breaker of(String name, BreakerConfig config) {
		return new Breaker(name, config, null, name, null);
	}

	/**
	 * The full name: the group name, or {@code group + ":" + key} for a registry child.
	 */
	public String name() {
		return name;
	}

	public BreakerConfig config() {
		return config;
	}

	/** The parent breaker a registry child consults too, else null. */
	public @Nullable Breaker parent() {
		return parent;
	}

	/**
	 * The top-level name: {@link #name()} for a top-level breaker, the parent's name for
	 * a child.
	 */
	public String group() {
		return group;
	}

	/** The child key ({@code "user-42"}), null for a top-level breaker. */
	public @Nullable String key() {
		return key;
	}

	/**
	 * The breaker's time: callers that use {@link #acquire()}/{@link #release} time their
	 * calls with this (the configured ticker's reading; compare two readings by their
	 * difference, as {@link System#nanoTime()} asks).
	 */
	public long nanos() {
		return ticker.nanos();
	}

	/**
	 * The engine's time: nanoseconds of the ticker since the breaker (or the parent it
	 * consults) was built, so it starts near 0 wherever the ticker starts, and keeps
	 * counting up when the ticker wraps past {@link Long#MAX_VALUE}. One subtraction more
	 * than {@link #nanos()}.
	 */
	long now() {
		return ticker.nanos() - origin;
	}

	/** The preallocated exception thrown for every rejected call (no stack trace). */
	public BreakerOpenException rejection() {
		return rejection;
	}

	/**
	 * The outcome of a call that returned {@code result} or threw {@code error}, as this
	 * breaker's classifier decides it; what {@link #call} records, for callers that
	 * {@link #acquire()} and {@link #release} themselves. A classifier that throws
	 * (anything but a {@link VirtualMachineError}) or answers null is logged (at most
	 * once a minute, with the count of calls not logged), and the default classifier
	 * decides that call: a buggy classifier never reaches the caller, and the call's
	 * permit is still released.
	 * @param result what the call returned (null when it threw)
	 * @param error what the call threw, null when it returned normally
	 * @return the outcome to {@link #release} the call's permit with
	 */
	public Outcome classify(@Nullable Object result, @Nullable Throwable error) {
		return classification.of(config.classifier(), name, result, error);
	}

	/**
	 * Runs {@code callable} if the breaker lets it, and records its outcome. Whatever it
	 * throws gives the permit back (and its parent's) and is recorded as the classifier
	 * classifies it: an Exception, an Error, or any other Throwable (Kotlin, Groovy,
	 * Lombok's {@code @SneakyThrows}), a failure by default.
	 * @throws BreakerOpenException when the breaker (or its parent) rejects the call
	 * @throws Exception whatever the callable threw, unchanged (any Throwable)
	 */
	public <T extends @Nullable Object> T call(Callable<T> callable) throws Exception {
		Ticket permit = (Ticket) acquire();
		if (permit.state == null) {
			throw permit.owner.rejection;
		}
		// a duration needs no origin: the raw ticker, one subtraction fewer
		long start = ticker.nanos();
		T result;
		try {
			result = callable.call();
		}
		catch (Throwable e) {
			// any Throwable: one that is neither an Exception nor an Error (thrown past
			// the compiler) must give back a half-open probe's slot too; rethrown as is,
			// even when the classifier throws a VirtualMachineError deciding it
			Outcome outcome = Outcome.FAILURE;
			try {
				outcome = classify(null, e);
			}
			catch (Throwable classifierError) {
				if (classifierError != e) {
					e.addSuppressed(classifierError);
				}
			}
			finally {
				release(permit, outcome, ticker.nanos() - start);
			}
			throw e;
		}
		Outcome outcome = Outcome.SUCCESS;
		try {
			outcome = classify(result, null);
		}
		finally {
			// a VirtualMachineError from the classifier still gives the permit back
			release(permit, outcome, ticker.nanos() - start);
		}
		return result;
	}

	/**
	 * Asks to make a call: never null; a rejected permit has {@code granted() == false}.
	 * Allocates nothing.
	 */
	public Permit acquire() {
		Ticket own = acquireOwn(null);
		if (parent == null || own.state == null) {
			return own;
		}
		// the parent is top-level: its acquire is its own, told which child asks
		Ticket up = parent.acquireOwn(this);
		if (up.state == null) {
			cancel(own);
			totals.increment(BreakerTotals.REJECTED);
			return up;
		}
		return own.state.withParent(own, up);
	}

	/**
	 * This breaker's own permit, for a call of {@code child} (null: a call made on this
	 * breaker itself).
	 */
	private Ticket acquireOwn(Breaker child) {
		BreakerState s = state;
		if (s instanceof ClosedState closed) {
			if (!trackInFlight) {
				return closed.permit;
			}
			long now = now();
			totals.inFlight(1);
			if (closed.inFlight == null) {
				return closed.permit;
			}
			Ticket permit = closed.start(now);
			if (closed.stallCheckDue(now)) {
				verdicts.checkStall(closed, now);
			}
			return permit;
		}
		if (s instanceof OpenState open && !open.due(now())) {
			return reject();
		}
		return acquireSlow(child);
	}

	private Ticket acquireSlow(Breaker child) {
		long now = now();
		BreakerState s = verdicts.settle(now);
		switch (s.state) {
			case CLOSED:
				return acquireOwn(child);
			case HALF_OPEN:
				HalfOpenState halfOpen = (HalfOpenState) s;
				Ticket probe = halfOpen.tryAcquire(now, child);
				if (probe == null) {
					if (halfOpen.move() != null || state != halfOpen) {
						// decided or left meanwhile: (help) move on, ask the new state
						return acquireSlow(child);
					}
					return reject();
				}
				if (trackInFlight) {
					totals.inFlight(1);
				}
				return probe;
			case DISABLED:
				if (trackInFlight) {
					totals.inFlight(1);
				}
				return s.permit;
			default:
				return reject();
		}
	}

	private Ticket reject() {
		totals.increment(BreakerTotals.REJECTED);
		return rejected;
	}

	/** Gives back a granted permit whose call never ran (the parent rejected it). */
	private void cancel(Ticket permit) {
		finished(permit);
		if (permit.state instanceof HalfOpenState halfOpen) {
			halfOpen.cancel(permit);
		}
	}

	/** Takes a granted call out of the in-flight counts (it ended, or never ran). */
	private void finished(Ticket permit) {
		if (trackInFlight) {
			totals.inFlight(-1);
			if (permit.state instanceof ClosedState closed && closed.inFlight != null) {
				closed.finish(permit);
			}
		}
	}

	/**
	 * Records the outcome of a call made with {@code permit}; ignores a rejected permit.
	 * The outcome of a permit from an earlier generation counts in the totals but not
	 * toward the current state.
	 * @param elapsedNanos the call's duration, measured with {@link #nanos()}
	 */
	public void release(Permit permit, Outcome outcome, long elapsedNanos) {
		release(permit, outcome, elapsedNanos, null);
	}

	/**
	 * As {@link #release(Permit, Outcome, long)}, for a call that {@code child} (null:
	 * none) passed on to this breaker.
	 */
	private void release(Permit permit, Outcome outcome, long elapsedNanos, Breaker child) {
		if (!(permit instanceof Ticket ticket) || ticket.owner != this && ticket.state != null) {
			throw new IllegalArgumentException(
					"not a permit of breaker '" + BreakerNames.printable(name) + "': " + permit);
		}
		if (ticket.state == null) {
			return;
		}
		Objects.requireNonNull(outcome, "outcome");
		try {
			releaseOwn(ticket, outcome, elapsedNanos, child);
		}
		finally {
			if (ticket.parent != null) {
				parent.release(ticket.parent, outcome, elapsedNanos, this);
			}
		}
	}

	private void releaseOwn(Ticket ticket, Outcome outcome, long elapsedNanos, Breaker child) {
		long now = now();
		boolean slow = elapsedNanos > rules.slowNanos && TripRules.counts(outcome);
		finished(ticket);
		BreakerState own = ticket.state;
		if (own != state) {
			totals.stale(outcome, slow);
			if (latencies != null) {
				latencies.stale(outcome, elapsedNanos);
			}
			return;
		}
		if (peaks != null) {
			// before recording: see TrafficPeaks
			peaks.observe(own.era, now, elapsedNanos);
		}
		window.record(outcome.ordinal(), now, own.era);
		if (slow) {
			window.record(BucketWindow.SLOW, now, own.era);
		}
		if (latencies != null) {
			latencies.record(outcome, elapsedNanos, now, own.era);
		}
		if (own instanceof ClosedState closed) {
			if (closed.breadth != null && (rules.isFailure(outcome) || slow && rules.slowRuleOn())) {
				closed.breadth.failed(child, now);
			}
			verdicts.afterCall(closed, outcome, slow, now);
		}
		else if (own instanceof HalfOpenState halfOpen) {
			verdicts.afterProbe(halfOpen, ticket, outcome, slow, now);
		}
	}

	/**
	 * Asks the retry budget whether one more attempt of a failed call may be made: true,
	 * and the retry is counted; false, and the caller must not retry (fail, or fall back,
	 * as if retries were exhausted). A registry child asks its group's budget: children
	 * share it. Lock-free; allocates only the first time a breaker's budget is asked, and
	 * once per bucket with retries.
	 * @param attemptRecorded whether the retry's attempt goes through this breaker and is
	 * recorded as a call (HTTP clients, record-each-attempt), so the budget leaves it out
	 * of the first attempts it is a share of
	 */
	public boolean tryRetry(boolean attemptRecorded) {
		return grantRetry(attemptRecorded) >= 0;
	}

	/**
	 * As {@link #tryRetry}, answering the grant: a number (never negative) to hand to
	 * {@link #returnRetry} if the retry's attempt is not made after all, or -1 when the
	 * budget refused.
	 * @param attemptRecorded as for {@link #tryRetry}
	 */
	public long grantRetry(boolean attemptRecorded) {
		if (parent != null) {
			return parent.grantRetry(attemptRecorded);
		}
		RetryBudget b = budget;
		if (b == null) {
			RetryBudget made = new RetryBudget(this, window, totals);
			b = BUDGET.compareAndSet(this, null, made) ? made : budget;
		}
		return b.tryAcquire(now(), state.era, attemptRecorded);
	}

	/**
	 * The retry of {@code grant} (from {@link #grantRetry}) was never made: its caller
	 * gave up, or its attempt was refused, before it started. Gives it back to the
	 * budget, so that callers who give up do not use up the retries of those who wait,
	 * while the budget has taken no checkpoint since the grant (about: it has not moved
	 * to a new bucket); after that the retry stays spent, which never lets a window hold
	 * more retries than its budget. Return a grant at most once: a second return is
	 * refused when nothing was granted since, and otherwise takes another caller's retry.
	 * The retries total still counts it as granted. Lock-free.
	 * @param grant what {@link #grantRetry} answered
	 * @param attemptRecorded as it was passed to {@link #grantRetry}
	 * @return whether the retry went back to the budget
	 */
	public boolean returnRetry(long grant, boolean attemptRecorded) {
		if (parent != null) {
			return parent.returnRetry(grant, attemptRecorded);
		}
		RetryBudget b = budget;
		return grant >= 0 && b != null && b.giveBack(grant, attemptRecorded);
	}

	/**
	 * The retry budget's state now: this breaker's, or its group's for a registry child.
	 */
	Snapshot.RetryBudget retryBudget(long now) {
		if (parent != null) {
			// at the parent's time: a child on another ticker object counts from its own
			// origin, so its engine time is not the parent's
			return parent.retryBudget(parent.now());
		}
		RetryBudget b = budget;
		long era = state.era;
		return b == null ? RetryBudget.unused(this, window, now, era) : b.snapshot(now, era);
	}

	/**
	 * The probes a half-open episode starting at {@code now} may run at most: the
	 * config's, or sized from traffic.
	 */
	int maxProbes(long now) {
		return config.halfOpenMaxProbesAuto() ? peaks.maxProbes(now) : config.halfOpenMaxProbes();
	}

	/**
	 * The state now; a due OPEN -> HALF_OPEN (or an overdue half-open verdict) happens in
	 * here.
	 */
	public State state() {
		return verdicts.settle(now()).state;
	}

	State currentState() {
		return state.state;
	}

	Instant openUntil() {
		return state instanceof OpenState open ? open.untilInstant() : null;
	}

	/** An immutable picture of the breaker now. */
	public Snapshot snapshot() {
		long now = now();
		return Snapshots.of(this, verdicts.settle(now), window, rules, peaks, latencies, log.recent(), now);
	}

	/**
	 * The durations of every call so far, by outcome, for metrics; null when this breaker
	 * keeps no latency ({@link BreakerConfig#recordLatency()} off, or a child that
	 * consults its parent, which records the child's calls).
	 */
	public @Nullable CallDurations durations() {
		return latencies;
	}

	/**
	 * Whether its registry has dropped this child (evicted as least recently used, or
	 * expired idle): it still serves the calls that hold it, but the registry no longer
	 * finds it, and a later call for its key gets a new breaker. Never true for a
	 * top-level breaker. Set before the registry's removal listeners run, so a listener
	 * of its creation that runs after them can tell.
	 */
	public boolean removed() {
		return removed;
	}

	void markRemoved() {
		removed = true;
	}

	/** Live cumulative counters, never reset; reading them allocates nothing. */
	public Totals totals() {
		return totals;
	}

	/** Operator: back to CLOSED with an empty window and the open-wait backoff reset. */
	public void reset() {
		Overrides.operator(this, State.CLOSED);
	}

	/** Operator: reject every call until another override. */
	public void forceOpen() {
		Overrides.operator(this, State.FORCED_OPEN);
	}

	/**
	 * Operator: let every call through (still recorded) and trip on nothing until another
	 * override.
	 */
	public void disable() {
		Overrides.operator(this, State.DISABLED);
	}

	/** Operator: start probing now. */
	public void halfOpen() {
		Overrides.operator(this, State.HALF_OPEN);
	}

	/**
	 * Registers a listener for every transition of this breaker; it runs on the thread
	 * that caused it.
	 */
	public void onTransition(Consumer<Transition> listener) {
		log.listen(Objects.requireNonNull(listener, "listener"));
	}

	/**
	 * Removes a listener registered with {@link #onTransition} (the same object); a
	 * delivery already running may still tell it once.
	 * @return whether it was registered
	 */
	public boolean removeTransitionListener(Consumer<Transition> listener) {
		return log.unlisten(Objects.requireNonNull(listener, "listener"));
	}

	/**
	 * An operator's override with the caller's own reason (fleet mode says where it came
	 * from and how far it reaches); {@code remote} when an operator made it on a peer
	 * replica. Otherwise as {@link #reset()}, {@link #forceOpen()}, {@link #disable()}
	 * and {@link #halfOpen()}.
	 */
	public void override(State to, String reason, boolean remote) {
		Overrides.operator(this, to, Objects.requireNonNull(reason, "reason"), remote);
	}

	/**
	 * A server said "come back in {@code hint}" (HTTP {@code Retry-After}): if OPEN now,
	 * or if this breaker trips within one bucket from now, it stays open at least until
	 * now + hint, capped at {@code maxOpenWait}.
	 */
	public void retryAfter(Duration hint) {
		Overrides.retryAfter(this, verdicts, hint);
	}

	/**
	 * An override told to nobody (see Overrides#repeated): {@code to}, a fresh state of
	 * the same kind, replaces {@code from}, so calls in flight stop counting; no history,
	 * no listener.
	 */
	boolean restartQuietly(BreakerState from, BreakerState to) {
		if (!STATE.compareAndSet(this, from, to)) {
			return false;
		}
		if (from instanceof HalfOpenState halfOpen) {
			halfOpen.retire();
		}
		return true;
	}

	/**
	 * The one place a state changes: checked against the table, one CAS winner, then
	 * history and listeners.
	 */
	boolean moveTo(BreakerState from, BreakerState to, String reason, boolean remote) {
		TransitionTable.check(from.state, to.state);
		// Nothing to clear for a group that trips on breadth: each CLOSED state counts
		// its failing tenants in a table of its own, as it records into an era of its
		// own. One shared table cleared here lost failures in either order: cleared
		// before the CAS, a move that then lost it wiped the failures of the CLOSED state
		// that won (RaceInjectionTests); cleared after it, the winner would wipe those
		// its calls recorded between its CAS and the clear; and in both, a call that had
		// read the old CLOSED state just before the move put its tenant in the new
		// state's table (TenantBreadthStressTests).
		if (!STATE.compareAndSet(this, from, to)) {
			return false;
		}
		if (from instanceof HalfOpenState halfOpen) {
			halfOpen.retire();
		}
		if (!remote && to.state == State.OPEN) {
			totals.increment(BreakerTotals.TRIPS);
		}
		log.publish(new Transition(name, from.state, to.state, to.since, reason, to.generation, remote), to);
		return true;
	}

	/**
	 * A new CLOSED state's empty table of failing children, or null unless this group
	 * trips on breadth.
	 */
	TenantBreadth newBreadth() {
		return minFailingChildren > 0 ? new TenantBreadth(minFailingChildren, config) : null;
	}

	/**
	 * 0 unless this group trips on breadth: the children whose failures it takes (its
	 * half-open probes' too, see HalfOpenState).
	 */
	int minFailingChildren() {
		return minFailingChildren;
	}

	/** How far each CLOSED state's era of the window is ahead of the previous state's. */
	long eraStep() {
		return eraStep;
	}

	/** Calls in flight now (0 unless tracked). */
	long inFlight() {
		return totals.inFlight();
	}

	/** The rules and the moves they cause. */
	Verdicts verdicts() {
		return verdicts;
	}

	/** The state object now, without applying due time-based moves. */
	BreakerState current() {
		return state;
	}

	@Override
	public String toString() {
		return "Breaker[" + BreakerNames.printable(name) + " " + state + "]";
	}

}
