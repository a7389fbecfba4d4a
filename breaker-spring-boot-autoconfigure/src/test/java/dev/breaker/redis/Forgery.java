package dev.breaker.redis;

import java.util.Map;

/**
 * What an attacker who can PUBLISH on the fleet's channel and write its keys would send
 * and write, in the fleet's own wire format and key schema, unsigned (only a holder of
 * the signing key can sign).
 */
public final class Forgery {

	private static final FleetKeys KEYS = new FleetKeys("breaker:");

	private static final long FAR_FUTURE = 4_102_444_800_000L; // 2100-01-01

	private static long episode;

	private Forgery() {
	}

	/** An announcement that {@code breaker} opened for {@code ttlMillis}. */
	public static String open(String breaker, long ttlMillis, String replica, String reason) {
		return new FleetMessage(FleetMessage.Kind.OPEN, breaker, nextEpisode(), ttlMillis, null, replica,
				System.currentTimeMillis(), reason, "")
			.encode();
	}

	/**
	 * An announcement that {@code breaker} opened, stamped with the highest time there
	 * is.
	 */
	public static String openFromTheFuture(String breaker, long ttlMillis) {
		return new FleetMessage(FleetMessage.Kind.OPEN, breaker, "~" + Long.MAX_VALUE, ttlMillis, null, "mallory",
				Long.MAX_VALUE, "forged", "")
			.encode();
	}

	/**
	 * An announcement that {@code breaker}'s episode (any: the attacker can read Redis)
	 * closed, from the future.
	 */
	public static String closeFromTheFuture(String breaker, String episode) {
		return new FleetMessage(FleetMessage.Kind.CLOSED, breaker, episode, 0, null, "mallory", Long.MAX_VALUE,
				"forged", "")
			.encode();
	}

	/**
	 * Takes every probe slot of the breaker's episodes for a replica that does not exist,
	 * with a lease that never lapses: the slot holder nobody can see. Episodes are named
	 * at random, so only episodes that began can be taken.
	 */
	public static void stealProbeSlots(RedisAdmin admin, String breaker) {
		for (String key : admin.keys(KEYS.probes(breaker, "*"))) {
			for (String holder : admin.redis().hkeys(key)) {
				if (!holder.equals("mallory")) {
					admin.redis().hdel(key, holder);
				}
			}
			admin.redis().hset(key, "mallory", "4|" + FAR_FUTURE + "|4|");
		}
	}

	/**
	 * Writes an open circuit straight into Redis, as a late replica's start-up read would
	 * find it.
	 */
	public static void storeOpen(RedisAdmin admin, String breaker, long ttlMillis, String replica, String reason) {
		String key = KEYS.state(breaker);
		admin.redis()
			.hset(key, Map.of("state", "OPEN", "episode", nextEpisode(), "ttl", Long.toString(ttlMillis), "replica",
					replica, "reason", reason, "issued", Long.toString(System.currentTimeMillis()), "sig", ""));
		admin.redis().pexpire(key, ttlMillis);
	}

	/**
	 * Adds a trip of a replica that does not exist to the breaker's quorum count, valid
	 * for a long time.
	 */
	public static void vote(RedisAdmin admin, String breaker, String replica) {
		admin.redis().hset(KEYS.votes(breaker), replica, FAR_FUTURE + "|" + System.currentTimeMillis() + "|600000|");
		admin.redis().pexpire(KEYS.votes(breaker), 600_000);
	}

	/** The episode the fleet holds the breaker open in right now ("" when none). */
	public static String currentEpisode(RedisAdmin admin, String breaker) {
		String episode = admin.redis().hget(KEYS.state(breaker), "episode");
		return episode == null ? "" : episode;
	}

	private static synchronized String nextEpisode() {
		return "forged-" + (++episode);
	}

}
