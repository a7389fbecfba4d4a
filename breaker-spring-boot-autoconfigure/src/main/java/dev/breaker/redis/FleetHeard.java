package dev.breaker.redis;

import java.util.LinkedHashSet;
import java.util.Set;

import dev.breaker.core.State;
import org.jspecify.annotations.Nullable;

/**
 * One breaker's fleet state as this replica last heard it: the episode the fleet holds
 * open (if any), the episodes heard to have ended, the standing fleet-wide override, and
 * who said so last and why.
 *
 * <p>
 * Not thread-safe on its own: guarded by its {@link FleetEntry}'s monitor, it is only
 * reached through the entry's synchronized methods (which hold that lock for the
 * decision, the mirror write and the publish queue of an operator's override together),
 * and it calls nothing out.
 */
final class FleetHeard {

	/**
	 * Ended episodes remembered, so a late or replayed announcement of one is no news.
	 */
	private static final int REMEMBERED = 64;

	private String episode = "";

	private boolean open;

	private long openUntilNanos;

	/** When the open episode was issued (Redis's time as its opener estimated it). */
	private long openedAt = -1;

	private String replica = "";

	private String reason = "";

	private final Set<String> ended = new LinkedHashSet<>();

	private long applied;

	private long changedAt;

	/** When the standing override was last set or ended (a sequence number). */
	private long overrideChangedAt;

	/**
	 * The last reset applied: when (a sequence number), what was applied last before it,
	 * and when it was decided if it was sent again ({@link FleetMessage#decidedAt}).
	 */
	private long resetAt = -1;

	private long changedBeforeReset;

	private long resetDecidedAt = -1;

	private @Nullable FleetMessage override;

	private @Nullable State localOverride;

	private long touchedNanos = System.nanoTime();

	/**
	 * Whether the mirror holds this episode open (a duplicate of it, or a read of it, is
	 * no news).
	 */
	boolean current(String candidate) {
		return open && candidate.equals(episode);
	}

	/**
	 * Whether this episode was heard to have ended: an open of it arriving now is a late
	 * duplicate or a replay, and a stored open of it is out of date.
	 */
	boolean ended(String candidate) {
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
	void opened(FleetMessage opened, long untilNanos, long sequence) {
		episode = opened.episode();
		openedAt = opened.issuedAt();
		open = true;
		openUntilNanos = untilNanos;
		heardFrom(opened, sequence);
	}

	/** The episode ended fleet-wide. */
	void closed(FleetMessage closed, long sequence) {
		if (closed.episode().equals(episode)) {
			open = false;
			openUntilNanos = 0;
		}
		remember(ended, closed.episode());
		heardFrom(closed, sequence);
	}

	/**
	 * An operator's fleet-wide override arrived: standing (FORCED_OPEN, DISABLED) or
	 * ended (CLOSED, which ends any open too, but for one opened after a reset sent again
	 * was decided: Redis keeps that one, {@link FleetScripts#OVERRIDE}).
	 */
	void overridden(FleetMessage message, long sequence) {
		if (message.override() == State.CLOSED) {
			changedBeforeReset = changedAt;
			resetAt = sequence;
			resetDecidedAt = message.decidedAt();
		}
		override = message.override() == State.CLOSED ? null : message;
		if (message.override() == State.CLOSED && !openedAfter(message)) {
			open = false;
			openUntilNanos = 0;
		}
		heardFrom(message, sequence);
		overrideChangedAt = sequence;
	}

	/**
	 * The standing override ended while this replica was deaf ({@code ended}, a reset not
	 * heard): as {@link #overridden}, but the episode {@code found} (one a reconnect read
	 * just found open in Redis, "" none) stays open if the mirror holds it: the reset
	 * left it open (a trip after it, or an episode a reset sent again did not end).
	 */
	void overrideEndedUnheard(FleetMessage ended, long sequence, String found) {
		override = null;
		if (found.isEmpty() || !current(found)) {
			open = false;
			openUntilNanos = 0;
		}
		heardFrom(ended, sequence);
		overrideChangedAt = sequence;
	}

	/**
	 * Whether a read of the open {@code stored}, sent at {@code sentAt}, is older than
	 * what was applied since: anything, but for a reset sent again alone, decided before
	 * {@code stored} was issued, which Redis does not end it with
	 * ({@link FleetScripts#OVERRIDE}).
	 */
	boolean openReadOutdated(FleetMessage stored, long sentAt) {
		boolean onlyAResetSentAgainBeforeIt = changedAt == resetAt && changedBeforeReset <= sentAt
				&& resetDecidedAt >= 0 && stored.issuedAt() > resetDecidedAt;
		return changedSince(sentAt) && !onlyAResetSentAgainBeforeIt;
	}

	/**
	 * Whether the standing override was set or ended after {@code sequence} (an open or a
	 * close heard since says nothing about it).
	 */
	boolean overrideChangedSince(long sequence) {
		return overrideChangedAt > sequence;
	}

	/**
	 * Whether the mirror holds open an episode opened after {@code reset} (a reset sent
	 * again) was decided, which that reset does not end.
	 */
	boolean openedAfter(FleetMessage reset) {
		long decidedAt = reset.decidedAt();
		return open && decidedAt >= 0 && openedAt > decidedAt;
	}

	/** The episode the mirror holds open ("" none). */
	String openEpisode() {
		return open ? episode : "";
	}

	/**
	 * Whether an override is news: anything but the standing one again (its own echo, a
	 * duplicate). Announcements are applied in the order Redis published them, never by
	 * their senders' clocks.
	 */
	boolean newer(FleetMessage message) {
		return !message.equals(override);
	}

	private void heardFrom(FleetMessage message, long sequence) {
		replica = Printable.of(message.replica(), Printable.REPLICA);
		reason = Printable.of(message.reason(), Printable.REASON);
		applied++;
		changedAt = sequence;
		touchedNanos = System.nanoTime();
	}

	/**
	 * Whether a message was applied after {@code sequence} (a read sent at that point is
	 * older than it).
	 */
	boolean changedSince(long sequence) {
		return changedAt > sequence;
	}

	/**
	 * Redis lost its data (it restarted empty): what was heard of open circuits is no
	 * longer stored anywhere.
	 */
	void forget() {
		open = false;
		openUntilNanos = 0;
	}

	/** Milliseconds the fleet still holds the circuit open, 0 if it does not. */
	long remainingMillis(long nowNanos) {
		return open ? Math.max(0, (openUntilNanos - nowNanos) / 1_000_000L) : 0;
	}

	/**
	 * Milliseconds the fleet still holds {@code followed} open, as last heard; -1 when
	 * the mirror does not hold that episode open (none followed, not heard yet, or Redis
	 * lost it).
	 */
	long remainingMillisOf(String followed, long nowNanos) {
		return open && !followed.isEmpty() && followed.equals(episode)
				? Math.max(0, (openUntilNanos - nowNanos) / 1_000_000L) : -1;
	}

	/**
	 * The reason a peer's transition carries here: the replica whose message was heard
	 * last and that message's reason, read together, escaped and cut to 200 characters.
	 */
	String peerReason() {
		return Printable.of("peer " + replica + ": " + reason, Printable.REASON);
	}

	/**
	 * The fleet's open as last heard, or null when the mirror holds none open.
	 */
	@Nullable HeldOpen heldOpen(long nowNanos) {
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
	String reason() {
		return reason;
	}

	@Nullable FleetMessage override() {
		return override;
	}

	void localOverride(@Nullable State state) {
		localOverride = state;
	}

	/**
	 * Nothing current left: no open, no standing override, and nothing heard for
	 * {@code keepNanos}.
	 */
	boolean stale(long nowNanos, long keepNanos) {
		return remainingMillis(nowNanos) == 0 && (override == null || nowNanos - touchedNanos >= keepNanos);
	}

	/**
	 * What this replica knows of the breaker's fleet-wide state, with how its breaker
	 * takes part ({@code tie}, {@code grant}) and the override Redis did not take.
	 * @param stateHere the state of this replica's breaker of that name (null: none)
	 */
	FleetBreakerView view(String breaker, boolean storeUp, long nowNanos, @Nullable State stateHere, String replicaId,
			String tie, int grant, FleetBreakerView.@Nullable Untold untold) {
		long remaining = remainingMillis(nowNanos);
		FleetBreakerView.Override shown = null;
		if (override != null) {
			shown = new FleetBreakerView.Override(override.override(), FleetBreakerView.Scope.FLEET,
					Printable.of(override.replica(), Printable.REPLICA));
		}
		else if (localOverride != null && localOverride == stateHere) {
			shown = new FleetBreakerView.Override(localOverride, FleetBreakerView.Scope.REPLICA, replicaId);
		}
		return new FleetBreakerView(breaker, storeUp, applied, remaining > 0, remaining, replica, reason,
				tie.isEmpty() ? -1 : grant, tie, shown, untold);
	}

}
