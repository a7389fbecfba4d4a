package dev.breaker.redis;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import org.jspecify.annotations.Nullable;

/**
 * How this replica's own breaker of one name takes part in the fleet: whether it has one,
 * the episode it follows (its tie) and until when probe sharing may hold it open, the
 * claim round and the probe slots the fleet gave it, whether it probes alone, its
 * traffic, the slot holders it found not genuine, and its trip Redis has not recorded
 * yet.
 *
 * <p>
 * Not thread-safe on its own: guarded by its {@link FleetEntry}'s monitor, it is only
 * reached through the entry's synchronized methods, and it calls nothing out. The order
 * of this breaker's publishes ({@link #publishes()}, a final field) has a lock of its
 * own.
 */
final class FleetParticipation {

	private static final int MOST_DISTRUSTED = 16;

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

	boolean local() {
		return local;
	}

	void local(boolean present) {
		local = present;
	}

	/**
	 * This replica's breaker now follows episode {@code followed} and holds it open no
	 * later than {@code deadlineNanos} because of probe sharing: probe slots are claimed
	 * afresh. Returns the claim round, so late answers are dropped.
	 */
	int tie(String followed, long deadlineNanos) {
		tie = followed;
		tieDeadlineNanos = deadlineNanos;
		grant = -1;
		alone = false;
		distrusted.clear();
		return ++round;
	}

	/** The breaker closed or was reset: it follows no episode; returns the one it did. */
	String untie() {
		String was = tie;
		tie = "";
		grant = -1;
		alone = false;
		round++;
		return was;
	}

	String tied() {
		return tie;
	}

	Probing probing() {
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

	long tieDeadlineNanos() {
		return tieDeadlineNanos;
	}

	boolean inRound(int number) {
		return round == number && !tie.isEmpty();
	}

	int round() {
		return round;
	}

	int grant() {
		return grant;
	}

	void grant(int roundNumber, int slots) {
		if (round == roundNumber) {
			grant = slots;
		}
	}

	boolean alone() {
		return alone;
	}

	void alone(boolean probingAlone) {
		alone = probingAlone;
	}

	/**
	 * Whether the breaker's calls and rejections changed since the last look (demand).
	 */
	boolean demandSince(long now) {
		boolean more = now != demand;
		demand = now;
		return more;
	}

	void demand(long now) {
		demand = now;
	}

	void distrust(String holder) {
		if (distrusted.size() < MOST_DISTRUSTED) {
			distrusted.add(holder);
		}
	}

	List<String> distrusted() {
		return List.copyOf(distrusted);
	}

	void tripUnpublished(FleetPublisher.@Nullable Trip kind) {
		tripUnpublished = kind;
	}

	FleetPublisher.@Nullable Trip tripUnpublished() {
		return tripUnpublished;
	}

	/** The order this breaker's publishes are sent in (it has a lock of its own). */
	PublishOrder publishes() {
		return publishes;
	}

}
