package dev.breaker.redis;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongSupplier;

import dev.breaker.core.State;
import org.jspecify.annotations.Nullable;

/**
 * What this replica knows of one breaker in the fleet: the episode the fleet holds open
 * (if any), a standing operator override, and how this replica's own breaker takes part
 * (the episode it follows, its probe slots, its publishes).
 *
 * <p>
 * Written by the sync thread; read also by callers' threads (transition listeners, the
 * endpoint). Every method but {@link #publishes()} (a final field) and the override
 * decisions' {@link #decide} and {@link #decided} (an atomic reference) is synchronized,
 * and none calls out, but for {@link #endOverrideUnheardSince}, which takes a sequence
 * number from the supplier it is given (the fleet sync's atomic counter) under the lock.
 * An operator's override holds the entry's lock over its decision, its mirror write and
 * the queueing of its publish ({@link FleetOverrides#apply}), which hands it to the sync
 * thread only: the decisions here and their publishes keep one order.
 */
final class FleetEntry {

	private static final int MOST_DISTRUSTED = 16;

	/**
	 * Ended episodes remembered, so a late or replayed announcement of one is no news.
	 */
	private static final int REMEMBERED = 64;

	// the fleet's state as last heard
	private String episode = "";

	private boolean open;

	private long openUntilNanos;

	private String replica = "";

	private String reason = "";

	private final Set<String> ended = new LinkedHashSet<>();

	private long applied;

	private long changedAt;

	private FleetMessage override;

	private State localOverride;

	private long touchedNanos = System.nanoTime();

	// this replica's breaker in the fleet
	private boolean local;

	private String tie = "";

	private long tieDeadlineNanos;

	private int round;

	private int grant = -1;

	private boolean alone;

	private long demand;

	private final Set<String> distrusted = new LinkedHashSet<>();

	/**
	 * The kind of this replica's last trip while Redis has not recorded it; null once it
	 * has.
	 */
	private FleetPublisher.@Nullable Trip tripUnpublished;

	private final PublishOrder publishes = new PublishOrder();

	/**
	 * The latest decision about this breaker's override here; never a lock: the breaker
	 * runs its listeners as one is applied ({@link OverrideDecision#settle}).
	 */
	private final AtomicReference<OverrideDecision> decided = new AtomicReference<>(OverrideDecision.NONE);

	/** This replica's own announcement heard back on the channel last (null: none). */
	private @Nullable FleetMessage heardBack;

	/**
	 * The announcement of this replica's operator's fleet-wide override that Redis did
	 * not take (refused, not answered), while it is the latest decision here; null: none.
	 */
	private @Nullable FleetMessage untold;

	/** The sequence number of the untold override's decision. */
	private long untoldSince;

	/**
	 * When the untold override was decided, Redis's time as this replica estimated it
	 * (its first announcement's issue time; -1: unknown).
	 */
	private long untoldDecidedAt = -1;

	/** Why Redis did not take it (escaped, at most 200 characters). */
	private String untoldError = "";

	/** The sequence number of the last peer's announcement heard on the channel. */
	private long peerHeardAt;

	// ---- the fleet's state ----

	/**
	 * Whether the mirror holds this episode open (a duplicate of it, or a read of it, is
	 * no news).
	 */
	synchronized boolean current(String candidate) {
		return open && candidate.equals(episode);
	}

	/**
	 * Whether this episode was heard to have ended: an open of it arriving now is a late
	 * duplicate or a replay, and a stored open of it is out of date.
	 */
	synchronized boolean ended(String candidate) {
		return ended.contains(candidate);
	}

	private static void remember(Set<String> episodes, String episode) {
		episodes.remove(episode);
		episodes.add(episode);
		if (episodes.size() > REMEMBERED) {
			episodes.remove(episodes.iterator().next());
		}
	}

	/**
	 * The fleet holds the circuit open in {@code opened}'s episode until
	 * {@code untilNanos} (this replica's ticker).
	 */
	synchronized void opened(FleetMessage opened, long untilNanos, long sequence) {
		episode = opened.episode();
		open = true;
		openUntilNanos = untilNanos;
		replica = Printable.of(opened.replica(), Printable.REPLICA);
		reason = Printable.of(opened.reason(), Printable.REASON);
		changed(sequence);
	}

	/** The episode ended fleet-wide. */
	synchronized void closed(FleetMessage closed, long sequence) {
		if (closed.episode().equals(episode)) {
			open = false;
			openUntilNanos = 0;
		}
		remember(ended, closed.episode());
		replica = Printable.of(closed.replica(), Printable.REPLICA);
		reason = Printable.of(closed.reason(), Printable.REASON);
		changed(sequence);
	}

	/**
	 * An operator's fleet-wide override arrived: standing (FORCED_OPEN, DISABLED) or
	 * ended (CLOSED, which ends any open too).
	 */
	synchronized void overridden(FleetMessage message, long sequence) {
		override = message.override() == State.CLOSED ? null : message;
		if (message.override() == State.CLOSED) {
			open = false;
			openUntilNanos = 0;
		}
		replica = Printable.of(message.replica(), Printable.REPLICA);
		reason = Printable.of(message.reason(), Printable.REASON);
		changed(sequence);
	}

	/**
	 * Whether an override is news: anything but the standing one again (its own echo, a
	 * duplicate). Announcements are applied in the order Redis published them, never by
	 * their senders' clocks.
	 */
	synchronized boolean newer(FleetMessage message) {
		return !message.equals(override);
	}

	private void changed(long sequence) {
		applied++;
		changedAt = sequence;
		touchedNanos = System.nanoTime();
	}

	/**
	 * Whether a message was applied after {@code sequence} (a read sent at that point is
	 * older than it).
	 */
	synchronized boolean changedSince(long sequence) {
		return changedAt > sequence;
	}

	/**
	 * Redis lost its data (it restarted empty): what was heard of open circuits is no
	 * longer stored anywhere; local breakers keep their own state, and the episode they
	 * follow.
	 */
	synchronized void forget() {
		open = false;
		openUntilNanos = 0;
	}

	/** Milliseconds the fleet still holds the circuit open, 0 if it does not. */
	synchronized long remainingMillis(long nowNanos) {
		return open ? Math.max(0, (openUntilNanos - nowNanos) / 1_000_000L) : 0;
	}

	/**
	 * The reason a peer's transition carries here: the replica whose message was heard
	 * last and that message's reason, read together, escaped and cut to 200 characters.
	 */
	synchronized String peerReason() {
		return Printable.of("peer " + replica + ": " + reason, Printable.REASON);
	}

	/**
	 * The fleet's open as last heard, read at once, or null when the mirror holds none
	 * open.
	 */
	synchronized @Nullable HeldOpen heldOpen(long nowNanos) {
		long remaining = remainingMillis(nowNanos);
		return remaining > 0 ? new HeldOpen(episode, remaining, peerReason()) : null;
	}

	/**
	 * An open the fleet holds, as one read of the mirror.
	 *
	 * @param episode the open episode
	 * @param remainingMillis how much longer the fleet holds it open
	 * @param peerReason the reason a peer's transition carries here
	 */
	record HeldOpen(String episode, long remainingMillis, String peerReason) {
	}

	/**
	 * The reason of the message heard last (escaped, at most 200 characters; "" none).
	 */
	synchronized String reason() {
		return reason;
	}

	synchronized @Nullable FleetMessage override() {
		return override;
	}

	/**
	 * Ends the standing override if nothing was applied or decided since
	 * {@code unheardSince} (a reconnect read that began then did not find it): the
	 * operator's reset reached the others while this replica was deaf. Returns the
	 * decision that ended it, for the caller to settle on the breaker, or null when it
	 * ended none: an operator's override decided meanwhile, even one not yet in this
	 * mirror, stands, and so does one on this replica only decided after the fleet-wide
	 * one (the mirror's override ends, the breaker is left alone). {@code sequence} (the
	 * fleet sync's counter, an atomic increment) is called under the lock, only when it
	 * may end one, so the number is taken in the order of the change.
	 */
	synchronized @Nullable OverrideDecision endOverrideUnheardSince(long unheardSince, LongSupplier sequence) {
		OverrideDecision seen = decided.get();
		if (override == null || changedAt > unheardSince || seen.sequence() > unheardSince) {
			return null;
		}
		long number = sequence.getAsLong();
		FleetMessage ended = new FleetMessage(FleetMessage.Kind.OVERRIDE, override.breaker(), "", 0, State.CLOSED,
				override.replica(), -1, "", "");
		if (seen.replicaOnly()) {
			// this replica's operator overrode it here only, after the fleet-wide one:
			// the
			// fleet's ends, the breaker stays in the later decision
			overridden(ended, number);
			return null;
		}
		OverrideDecision end = OverrideDecision.unheardEnd(number).after(seen);
		if (!decided.compareAndSet(seen, end)) {
			return null;
		}
		overridden(ended, number);
		return end;
	}

	/** Makes {@code decision} the latest; returns the instance to settle. */
	OverrideDecision decide(OverrideDecision decision) {
		return decided.updateAndGet(decision::after);
	}

	OverrideDecision decided() {
		return decided.get();
	}

	/**
	 * Makes {@code decision} (this replica's own override told back on the channel) the
	 * latest when {@link OverrideDecision#toldBackOver} says so, nothing was decided
	 * meanwhile, and it is the first time this announcement is heard back; returns the
	 * instance to settle, or null.
	 */
	synchronized @Nullable OverrideDecision decideToldBack(FleetMessage echo, OverrideDecision decision) {
		if (echo.equals(heardBack)) {
			return null; // heard again (a replay, a late duplicate): told once only
		}
		heardBack = echo;
		OverrideDecision latest = decided.get();
		if (!latest.toldBackOver(echo)) {
			return null;
		}
		// told back once: a duplicate of it is no news
		OverrideDecision made = decision.after(OverrideDecision.NONE);
		return decided.compareAndSet(latest, made) ? made : null;
	}

	// ---- this replica's operator's overrides Redis did not take ----

	/**
	 * A peer's announcement was heard on the channel: the fleet moved on, so an override
	 * decided here before it and not yet taken by Redis is no longer this replica's to
	 * tell ({@link #supersededUntold}).
	 */
	synchronized void heardFromPeer(long sequence, long issuedAt) {
		if (!beforeOwnLatest(issuedAt)) {
			peerHeardAt = Math.max(peerHeardAt, sequence);
		}
	}

	/**
	 * Whether something issued at {@code issuedAt} (Redis's time as its sender estimated
	 * it) was decided before this replica's operator's latest fleet-wide decision, the
	 * latest decision here: it is no news that the fleet moved on past that one.
	 */
	private boolean beforeOwnLatest(long issuedAt) {
		OverrideDecision latest = decided.get();
		FleetMessage own = latest.source() == OverrideDecision.Source.OPERATOR ? latest.lastOwn() : null;
		if (own == null) {
			return false;
		}
		long decidedAt = own.equals(untold) ? untoldDecidedAt : own.issuedAt();
		return decidedAt >= 0 && issuedAt < decidedAt;
	}

	/**
	 * Whether a peer's message issued at {@code issuedAt} (or stored with that time) was
	 * decided before the untold override, which is still the latest decision here: it
	 * must neither be applied over it nor drop it (the untold one is sent again, and
	 * Redis takes it, as nothing it took was decided later).
	 */
	synchronized boolean beforeUntold(long issuedAt) {
		return untold != null && stillLatest(untold, untoldSince) && untoldDecidedAt >= 0 && issuedAt < untoldDecidedAt;
	}

	/**
	 * The state of the untold override while it is still the latest decision here (null:
	 * none).
	 */
	synchronized @Nullable State untoldLatest() {
		return untold != null && stillLatest(untold, untoldSince) ? untold.override() : null;
	}

	/**
	 * Whether Redis's latest decision, made at {@code takenAt} (-1: unknown), came after
	 * the untold override: that one stands, and the untold one is not this replica's to
	 * tell.
	 */
	synchronized boolean untoldOutdoneAt(long takenAt) {
		return takenAt >= 0 && (untoldDecidedAt < 0 || takenAt > untoldDecidedAt);
	}

	/**
	 * Redis did not take {@code announcement}, decided at {@code since}: kept, to be
	 * shown and told again, when it is still the latest decision here and no peer's
	 * announcement was heard since it was decided. Returns whether it is kept.
	 */
	synchronized boolean untold(FleetMessage announcement, long since, String error) {
		if (!stillLatest(announcement, since)) {
			return false;
		}
		if (!announcement.equals(untold)) {
			// a decision not yet kept: its own announcement says when it was made (one
			// sent again is the untold one, re-issued, and keeps the time it was decided)
			untoldDecidedAt = announcement.issuedAt();
		}
		untold = announcement;
		untoldSince = since;
		untoldError = Printable.of(error, Printable.REASON);
		return true;
	}

	/** The sequence number of the untold override's decision. */
	synchronized long untoldSince() {
		return untoldSince;
	}

	/**
	 * When the untold override was decided: Redis's time as this replica estimated it
	 * (-1: unknown).
	 */
	synchronized long untoldDecidedAt() {
		return untoldDecidedAt;
	}

	/**
	 * Redis took {@code announcement} (it answered, or published it), or it refused it
	 * sent again as a later decision stands there: no longer to be told. Returns whether
	 * it was the untold one.
	 */
	synchronized boolean told(FleetMessage announcement) {
		if (announcement.equals(untold)) {
			untold = null;
			untoldError = "";
			return true;
		}
		return false;
	}

	/**
	 * The override Redis did not take, while it is still to be told (null: none, or it
	 * was superseded).
	 */
	synchronized @Nullable FleetMessage untold() {
		return untold;
	}

	/**
	 * Drops the untold override if a later decision (a peer's, heard or read; the
	 * reconnect read's end of it; this replica's operator's next fleet-wide one) or a
	 * peer's announcement came after it; returns it when another replica's decision
	 * superseded it, so the caller can say the fleet was never told, or null.
	 */
	synchronized @Nullable FleetMessage supersededUntold() {
		FleetMessage was = untold;
		if (was == null || stillLatest(was, untoldSince)) {
			return null;
		}
		untold = null;
		untoldError = "";
		OverrideDecision latest = decided.get();
		boolean ownNext = latest.source() == OverrideDecision.Source.OPERATOR && !was.equals(latest.lastOwn());
		return ownNext ? null : was;
	}

	/**
	 * Makes {@code fresh} (the untold override announced anew) the announcement of the
	 * latest decision, if {@code untold} is still to be told; returns whether it did. The
	 * caller holds the entry's lock (as an operator's decision does) and queues its
	 * publish in the same step.
	 */
	synchronized boolean reissue(FleetMessage stillUntold, FleetMessage fresh) {
		OverrideDecision latest = decided.get();
		if (!stillUntold.equals(untold) || !stillLatest(stillUntold, untoldSince)
				|| !decided.compareAndSet(latest, latest.reissued(fresh))) {
			return false;
		}
		untold = fresh;
		return true;
	}

	/**
	 * Whether {@code announcement} is the latest decision's own announcement, made by
	 * this replica's operator, with no peer's announcement heard since {@code since}.
	 */
	private boolean stillLatest(FleetMessage announcement, long since) {
		OverrideDecision latest = decided.get();
		return latest.source() == OverrideDecision.Source.OPERATOR && announcement.equals(latest.lastOwn())
				&& peerHeardAt <= since;
	}

	/**
	 * What this replica knows of the breaker's fleet-wide state, read at once.
	 * @param stateHere the state of this replica's breaker of that name (null: none)
	 */
	synchronized FleetBreakerView view(String breaker, boolean storeUp, long nowNanos, @Nullable State stateHere,
			String replicaId) {
		long remaining = remainingMillis(nowNanos);
		FleetBreakerView.Override shown = null;
		if (override != null) {
			shown = new FleetBreakerView.Override(override.override(), FleetBreakerView.Scope.FLEET,
					Printable.of(override.replica(), Printable.REPLICA));
		}
		else if (localOverride != null && localOverride == stateHere) {
			shown = new FleetBreakerView.Override(localOverride, FleetBreakerView.Scope.REPLICA, replicaId);
		}
		FleetBreakerView.Untold notTold = (untold != null) ? new FleetBreakerView.Untold(untold.override(), untoldError)
				: null;
		return new FleetBreakerView(breaker, storeUp, applied, remaining > 0, remaining, replica, reason,
				tie.isEmpty() ? -1 : grant, tie, shown, notTold);
	}

	synchronized void localOverride(State state) {
		localOverride = state;
	}

	/**
	 * Nothing current left: no open, no standing override, and nothing heard for
	 * {@code keepNanos}.
	 */
	synchronized boolean stale(long nowNanos, long keepNanos) {
		return remainingMillis(nowNanos) == 0 && (override == null || nowNanos - touchedNanos >= keepNanos);
	}

	// ---- this replica's breaker ----

	/**
	 * Whether this replica has a breaker of this name (a fleet-only entry only mirrors
	 * the fleet).
	 */
	synchronized boolean local() {
		return local;
	}

	synchronized void local(boolean present) {
		local = present;
	}

	/**
	 * This replica's breaker now follows episode {@code followed} and holds it open no
	 * later than {@code deadlineNanos} because of probe sharing: probe slots are claimed
	 * afresh. Returns the claim round, so late answers are dropped.
	 */
	synchronized int tie(String followed, long deadlineNanos) {
		tie = followed;
		tieDeadlineNanos = deadlineNanos;
		grant = -1;
		alone = false;
		distrusted.clear();
		return ++round;
	}

	/**
	 * The breaker closed or was reset: it follows no episode any more. Returns the one it
	 * followed ("" none).
	 */
	synchronized String untie() {
		String was = tie;
		tie = "";
		grant = -1;
		alone = false;
		round++;
		return was;
	}

	synchronized String tied() {
		return tie;
	}

	/**
	 * How this replica's breaker probes in the fleet's episode, read at once: the episode
	 * it follows, its probe slots, whether it probes alone, its deadline and claim round.
	 */
	synchronized Probing probing() {
		return new Probing(tie, grant, alone, tieDeadlineNanos, round);
	}

	/**
	 * One read of how this replica's breaker probes for the fleet.
	 *
	 * @param tie the episode it follows ("" none)
	 * @param grant its probe slots, -1 when none were claimed
	 * @param alone whether it probes on its own limit
	 * @param deadlineNanos the latest moment probe sharing holds it open
	 * @param round the claim round
	 */
	record Probing(String tie, int grant, boolean alone, long deadlineNanos, int round) {

		/**
		 * The episode this replica probes for with slots the fleet gave it, "" when it
		 * follows none or holds no slot.
		 */
		String probingFor() {
			return grant > 0 ? tie : "";
		}

	}

	/**
	 * Milliseconds the fleet still holds open the episode this replica's breaker follows,
	 * as last heard; -1 when the mirror does not hold that episode open (not heard yet,
	 * or Redis lost it).
	 */
	synchronized long tiedRemainingMillis(long nowNanos) {
		return open && !tie.isEmpty() && tie.equals(episode) ? Math.max(0, (openUntilNanos - nowNanos) / 1_000_000L)
				: -1;
	}

	synchronized long tieDeadlineNanos() {
		return tieDeadlineNanos;
	}

	synchronized boolean inRound(int number) {
		return round == number && !tie.isEmpty();
	}

	synchronized int round() {
		return round;
	}

	/**
	 * Probe slots the fleet gave this replica for the episode it follows, -1 when none
	 * were claimed.
	 */
	synchronized int grant() {
		return grant;
	}

	synchronized void grant(int roundNumber, int slots) {
		if (round == roundNumber) {
			grant = slots;
		}
	}

	/**
	 * Whether this replica probes on its own limit, because the fleet's slots stayed out
	 * of reach too long.
	 */
	synchronized boolean alone() {
		return alone;
	}

	synchronized void alone(boolean probingAlone) {
		alone = probingAlone;
	}

	/**
	 * Calls and rejections seen at the last look, to tell whether the breaker has traffic
	 * (demand for probes).
	 */
	synchronized boolean demandSince(long now) {
		boolean more = now != demand;
		demand = now;
		return more;
	}

	synchronized void demand(long now) {
		demand = now;
	}

	synchronized void distrust(String holder) {
		if (distrusted.size() < MOST_DISTRUSTED) {
			distrusted.add(holder);
		}
	}

	synchronized List<String> distrusted() {
		return List.copyOf(distrusted);
	}

	synchronized void tripUnpublished(FleetPublisher.@Nullable Trip kind) {
		tripUnpublished = kind;
	}

	/**
	 * How this replica's last trip was to reach the fleet, while Redis has not recorded
	 * it.
	 */
	synchronized FleetPublisher.@Nullable Trip tripUnpublished() {
		return tripUnpublished;
	}

	/** The order this breaker's publishes are sent in (it has a lock of its own). */
	PublishOrder publishes() {
		return publishes;
	}

}
