package dev.breaker.redis;

import java.util.concurrent.atomic.AtomicReference;

import dev.breaker.core.State;
import org.jspecify.annotations.Nullable;

/**
 * The overrides of one breaker on this replica: the latest decision about it (an
 * operator's here, a peer's, the reconnect read's end of one), and this replica's
 * operator's fleet-wide override that Redis did not take ("untold"), kept to be shown and
 * sent again while it is the latest decision.
 *
 * <p>
 * The latest decision is an atomic reference, read and replaced without any lock
 * ({@link #decide}, {@link #decided}): the breaker runs its listeners as one is applied
 * ({@link OverrideDecision#settle}), and they may decide again. Everything else here is
 * guarded by its {@link FleetEntry}'s monitor: only reached through the entry's
 * synchronized methods, it calls nothing out.
 */
final class FleetOverrideState {

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

	/**
	 * When the untold override was decided, in this replica's {@code System.nanoTime()}:
	 * made Redis's time at the first clock sample when it was decided before one.
	 */
	private long untoldDecidedNanos;

	/** Why Redis did not take it (escaped, at most 200 characters). */
	private String untoldError = "";

	/** The sequence number of the last peer's announcement heard on the channel. */
	private long peerHeardAt;

	/** Makes {@code decision} the latest; returns the instance to settle. No lock. */
	OverrideDecision decide(OverrideDecision decision) {
		return decided.updateAndGet(decision::after);
	}

	/** The latest decision. No lock. */
	OverrideDecision decided() {
		return decided.get();
	}

	/**
	 * Makes {@code end} the latest decision if {@code seen} still is; returns whether it
	 * did.
	 */
	boolean decideIfLatest(OverrideDecision seen, OverrideDecision end) {
		return decided.compareAndSet(seen, end);
	}

	/**
	 * Makes {@code decision} (this replica's own override told back on the channel) the
	 * latest when {@link OverrideDecision#toldBackOver} says so, nothing was decided
	 * meanwhile, and it is the first time this announcement is heard back; returns the
	 * instance to settle, or null.
	 */
	@Nullable OverrideDecision decideToldBack(FleetMessage echo, OverrideDecision decision) {
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

	/**
	 * A peer's announcement, issued at {@code issuedAt}, was heard: the fleet moved on,
	 * so an override decided here before it and not yet taken by Redis is no longer this
	 * replica's to tell ({@link #supersededUntold}); one issued before this replica's
	 * operator's latest decision is no such news.
	 */
	void heardFromPeer(long sequence, long issuedAt) {
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
	boolean beforeUntold(long issuedAt) {
		return untoldLatest() != null && untoldDecidedAt >= 0 && issuedAt < untoldDecidedAt;
	}

	/** The untold override's state while it is still the latest decision (null: none). */
	@Nullable State untoldLatest() {
		return untold != null && stillLatest(untold, untoldSince) ? untold.override() : null;
	}

	/**
	 * Whether Redis's latest decision, made at {@code takenAt} (-1: unknown), came after
	 * the untold override: that one stands, and the untold one is not this replica's to
	 * tell.
	 */
	boolean untoldOutdoneAt(long takenAt) {
		return takenAt >= 0 && (untoldDecidedAt < 0 || takenAt > untoldDecidedAt);
	}

	/**
	 * Redis did not take {@code announcement}, decided at {@code since}: kept, to be
	 * shown and told again, when it is still the latest decision here and no peer's
	 * announcement was heard since it was decided. Returns whether it is kept.
	 */
	boolean untold(FleetMessage announcement, long since, long decidedNanos, String error) {
		if (!stillLatest(announcement, since)) {
			return false;
		}
		if (!announcement.equals(untold)) {
			// a decision not yet kept: its own announcement says when it was made (one
			// sent again is the untold one, re-issued, and keeps the time it was decided)
			untoldDecidedAt = announcement.issuedAt();
			untoldDecidedNanos = decidedNanos;
		}
		untold = announcement;
		untoldSince = since;
		untoldError = Printable.of(error, Printable.REASON);
		return true;
	}

	/**
	 * An untold override decided before this replica knew Redis's clock (decided at -1)
	 * gets the Redis time it was decided at, once the clock is known: the operator's
	 * latest decision is not taken for one made at an unknown time (which any stored one
	 * would outdo, and which Redis would refuse when sent again).
	 */
	void knowUntoldDecidedAt(RedisClock clock) {
		if (untold != null && untoldDecidedAt < 0 && clock.known()) {
			untoldDecidedAt = clock.at(untoldDecidedNanos);
		}
	}

	long untoldSince() {
		return untoldSince;
	}

	long untoldDecidedAt() {
		return untoldDecidedAt;
	}

	/**
	 * Redis took {@code announcement} (it answered, or published it), or it refused it
	 * sent again as a later decision stands there: no longer to be told. Returns whether
	 * it was the untold one.
	 */
	boolean told(FleetMessage announcement) {
		if (announcement.equals(untold)) {
			untold = null;
			untoldError = "";
			return true;
		}
		return false;
	}

	@Nullable FleetMessage untold() {
		return untold;
	}

	/** The untold override as the breaker's fleet state shows it (null: none). */
	FleetBreakerView.@Nullable Untold view() {
		return (untold != null) ? new FleetBreakerView.Untold(untold.override(), untoldError) : null;
	}

	/**
	 * Drops the untold override if a later decision (a peer's, heard or read; the
	 * reconnect read's end of it; this replica's operator's next fleet-wide one) or a
	 * peer's announcement came after it; returns it when another replica's decision
	 * superseded it, so the caller can say the fleet was never told, or null.
	 */
	@Nullable FleetMessage supersededUntold() {
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
	 * latest decision, if {@code stillUntold} is still to be told; returns whether it
	 * did. The caller holds the entry's lock (as an operator's decision does) and queues
	 * its publish in the same step.
	 */
	boolean reissue(FleetMessage stillUntold, FleetMessage fresh) {
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

}
