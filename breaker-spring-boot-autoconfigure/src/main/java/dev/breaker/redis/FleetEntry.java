package dev.breaker.redis;

import java.util.List;
import java.util.function.LongSupplier;

import dev.breaker.core.State;
import org.jspecify.annotations.Nullable;

/**
 * What this replica knows of one breaker in the fleet, in three parts: the fleet's state
 * as heard ({@link FleetHeard}: the open episode, a standing override), the overrides
 * decided here ({@link FleetOverrideState}: the latest decision, the override Redis did
 * not take), and how this replica's own breaker takes part ({@link FleetParticipation}:
 * the episode it follows, its probe slots, its publishes).
 *
 * <p>
 * One lock, this entry's monitor, guards all three: written by the sync thread, they are
 * read also by callers' threads (transition listeners, the endpoint). Every method is
 * synchronized but {@link #publishes()} (a final field, with a lock of its own) and
 * {@link #decide} and {@link #decided} (an atomic reference: the breaker runs its
 * listeners as a decision is applied, {@link OverrideDecision#settle}). None calls out,
 * but for {@link #endOverrideUnheardSince}, which takes a sequence number from the
 * supplier it is given (the fleet sync's atomic counter) under the lock. An operator's
 * override holds this lock over its decision, its mirror write and the queueing of its
 * publish ({@link FleetOverrides#apply}), which hands it to the sync thread only: the
 * decisions here and their publishes keep one order. {@link FleetEntries} takes the lock
 * to flip {@link #local} and to sweep a stale entry.
 */
final class FleetEntry {

	private final FleetHeard heard = new FleetHeard();

	private final FleetOverrideState overrides = new FleetOverrideState();

	private final FleetParticipation part = new FleetParticipation();

	// ---- the fleet's state, as heard (FleetHeard) ----

	synchronized boolean current(String candidate) {
		return heard.current(candidate);
	}

	synchronized boolean ended(String candidate) {
		return heard.ended(candidate);
	}

	synchronized void opened(FleetMessage opened, long untilNanos, long sequence) {
		heard.opened(opened, untilNanos, sequence);
	}

	synchronized void closed(FleetMessage closed, long sequence) {
		heard.closed(closed, sequence);
	}

	synchronized void overridden(FleetMessage message, long sequence) {
		heard.overridden(message, sequence);
	}

	/**
	 * The episode the mirror holds open if it opened after {@code reset} (a reset sent
	 * again) was decided: that reset does not end it ("" none).
	 */
	synchronized String openedAfter(FleetMessage reset) {
		return heard.openedAfter(reset) ? heard.openEpisode() : "";
	}

	synchronized boolean newer(FleetMessage message) {
		return heard.newer(message);
	}

	synchronized boolean changedSince(long sequence) {
		return heard.changedSince(sequence);
	}

	/** See {@link FleetHeard#openReadOutdated}. */
	synchronized boolean openReadOutdated(FleetMessage stored, long sentAt) {
		return heard.openReadOutdated(stored, sentAt);
	}

	synchronized void forget() {
		heard.forget();
	}

	synchronized long remainingMillis(long nowNanos) {
		return heard.remainingMillis(nowNanos);
	}

	synchronized String peerReason() {
		return heard.peerReason();
	}

	synchronized FleetHeard.@Nullable HeldOpen heldOpen(long nowNanos) {
		return heard.heldOpen(nowNanos);
	}

	synchronized String reason() {
		return heard.reason();
	}

	synchronized @Nullable FleetMessage override() {
		return heard.override();
	}

	synchronized void localOverride(@Nullable State state) {
		heard.localOverride(state);
	}

	/**
	 * Nothing current left (see {@link FleetHeard#stale}), and no override this replica's
	 * operator decided that Redis has not taken yet: sweeping that would lose the
	 * decision before it is resent.
	 */
	synchronized boolean stale(long nowNanos, long keepNanos) {
		return overrides.untold() == null && heard.stale(nowNanos, keepNanos);
	}

	/**
	 * Milliseconds the fleet still holds open the episode this replica's breaker follows,
	 * as last heard; -1 when the mirror does not hold that episode open.
	 */
	synchronized long tiedRemainingMillis(long nowNanos) {
		return heard.remainingMillisOf(part.tied(), nowNanos);
	}

	/**
	 * What this replica knows of the breaker's fleet-wide state, read at once.
	 * @param stateHere the state of this replica's breaker of that name (null: none)
	 */
	synchronized FleetBreakerView view(String breaker, boolean storeUp, long nowNanos, @Nullable State stateHere,
			String replicaId) {
		return heard.view(breaker, storeUp, nowNanos, stateHere, replicaId, part.tied(), part.grant(),
				overrides.view());
	}

	/**
	 * Ends the standing override if no override was applied or decided since
	 * {@code unheardSince} (a reconnect read that began then did not find it): the
	 * operator's reset reached the others while this replica was deaf. The mirror keeps
	 * open the episode {@code found} ("" none), which that read found open in Redis: the
	 * reset left it open (a trip after it, or one a reset sent again did not end).
	 * Returns the decision that ended it, for the caller to settle on the breaker, or
	 * null when it ended none: an operator's override decided meanwhile, even one not yet
	 * in this mirror, stands, and so does one on this replica only decided after the
	 * fleet-wide one (the mirror's override ends, the breaker is left alone).
	 * {@code sequence} (the fleet sync's counter, an atomic increment) is called under
	 * the lock, only when it may end one, so the number is taken in the order of the
	 * change.
	 */
	synchronized @Nullable OverrideDecision endOverrideUnheardSince(long unheardSince, String found,
			LongSupplier sequence) {
		FleetMessage standing = heard.override();
		OverrideDecision seen = overrides.decided();
		// an open or a close applied since (the read's own find among them) says nothing
		// of the override: only one set or ended since keeps it
		if (standing == null || heard.overrideChangedSince(unheardSince) || seen.sequence() > unheardSince) {
			return null;
		}
		long number = sequence.getAsLong();
		FleetMessage ended = new FleetMessage(FleetMessage.Kind.OVERRIDE, standing.breaker(), "", 0, State.CLOSED,
				standing.replica(), -1, "", "");
		if (seen.replicaOnly()) {
			// this replica's operator overrode it here only, after the fleet-wide one:
			// the fleet's ends, the breaker stays in the later decision
			heard.overrideEndedUnheard(ended, number, found);
			return null;
		}
		OverrideDecision end = OverrideDecision.unheardEnd(number).after(seen);
		if (!overrides.decideIfLatest(seen, end)) {
			return null;
		}
		heard.overrideEndedUnheard(ended, number, found);
		return end;
	}

	// ---- overrides decided here, and the one Redis did not take (FleetOverrideState)
	// ----

	/** Makes {@code decision} the latest; returns the instance to settle. No lock. */
	OverrideDecision decide(OverrideDecision decision) {
		return overrides.decide(decision);
	}

	/** The latest decision. No lock. */
	OverrideDecision decided() {
		return overrides.decided();
	}

	synchronized @Nullable OverrideDecision decideToldBack(FleetMessage echo, OverrideDecision decision) {
		return overrides.decideToldBack(echo, decision);
	}

	synchronized void heardFromPeer(long sequence, long issuedAt) {
		overrides.heardFromPeer(sequence, issuedAt);
	}

	synchronized boolean beforeUntold(long issuedAt) {
		return overrides.beforeUntold(issuedAt);
	}

	/** The untold override's state while it is still the latest decision (null: none). */
	synchronized @Nullable State untoldLatest() {
		return overrides.untoldLatest();
	}

	synchronized boolean untoldOutdoneAt(long takenAt) {
		return overrides.untoldOutdoneAt(takenAt);
	}

	synchronized boolean untold(FleetMessage announcement, long since, long decidedNanos, String error) {
		return overrides.untold(announcement, since, decidedNanos, error);
	}

	/** See {@link FleetOverrideState#knowUntoldDecidedAt}. */
	synchronized void knowUntoldDecidedAt(RedisClock clock) {
		overrides.knowUntoldDecidedAt(clock);
	}

	/** The sequence number of the untold override's decision. */
	synchronized long untoldSince() {
		return overrides.untoldSince();
	}

	/**
	 * When the untold override was decided: Redis's time as estimated here (-1: unknown).
	 */
	synchronized long untoldDecidedAt() {
		return overrides.untoldDecidedAt();
	}

	synchronized boolean told(FleetMessage announcement) {
		return overrides.told(announcement);
	}

	/** The override Redis did not take, while it is still to be told (null: none). */
	synchronized @Nullable FleetMessage untold() {
		return overrides.untold();
	}

	synchronized @Nullable FleetMessage supersededUntold() {
		return overrides.supersededUntold();
	}

	synchronized boolean reissue(FleetMessage stillUntold, FleetMessage fresh) {
		return overrides.reissue(stillUntold, fresh);
	}

	// ---- this replica's breaker (FleetParticipation, which documents each) ----

	/** Whether this replica has a breaker of this name (else the entry only mirrors). */
	synchronized boolean local() {
		return part.local();
	}

	synchronized void local(boolean present) {
		part.local(present);
	}

	synchronized int tie(String followed, long deadlineNanos) {
		return part.tie(followed, deadlineNanos);
	}

	/** The breaker closed or was reset: it follows no episode; returns the one it did. */
	synchronized String untie() {
		return part.untie();
	}

	synchronized String tied() {
		return part.tied();
	}

	/** How this replica's breaker probes in the fleet's episode, read at once. */
	synchronized FleetParticipation.Probing probing() {
		return part.probing();
	}

	synchronized long tieDeadlineNanos() {
		return part.tieDeadlineNanos();
	}

	synchronized boolean inRound(int number) {
		return part.inRound(number);
	}

	synchronized int round() {
		return part.round();
	}

	/** Probe slots the fleet gave this replica for its episode, -1 when none claimed. */
	synchronized int grant() {
		return part.grant();
	}

	synchronized void grant(int roundNumber, int slots) {
		part.grant(roundNumber, slots);
	}

	/** Whether this replica probes on its own limit (the fleet's slots out of reach). */
	synchronized boolean alone() {
		return part.alone();
	}

	synchronized void alone(boolean probingAlone) {
		part.alone(probingAlone);
	}

	/**
	 * Whether the breaker's calls and rejections changed since the last look (demand).
	 */
	synchronized boolean demandSince(long now) {
		return part.demandSince(now);
	}

	synchronized void demand(long now) {
		part.demand(now);
	}

	synchronized void distrust(String holder) {
		part.distrust(holder);
	}

	synchronized List<String> distrusted() {
		return part.distrusted();
	}

	synchronized void tripUnpublished(FleetPublisher.@Nullable Trip kind) {
		part.tripUnpublished(kind);
	}

	/**
	 * How this replica's last trip was to reach the fleet, while Redis has not recorded
	 * it.
	 */
	synchronized FleetPublisher.@Nullable Trip tripUnpublished() {
		return part.tripUnpublished();
	}

	/** The order this breaker's publishes are sent in (it has a lock of its own). */
	PublishOrder publishes() {
		return part.publishes();
	}

}
