package dev.breaker.redis;

import java.util.Objects;

/**
 * Every Redis key fleet mode uses, in one place: the Java side builds them and passes
 * them to the Lua scripts as {@code KEYS}, so no script ever makes up a key of its own.
 *
 * <p>
 * All keys of one breaker share the hash tag {@code {<name>}}, so they live in one hash
 * slot and every script touches a single slot (what Redis Cluster requires of a script);
 * a name is never empty, so the tag never is. A name holding a {@code '}'} still keeps
 * its keys together (the tag ends there for all of them alike), and a prefix holding a
 * tag of its own puts every breaker in that one slot. With the default prefix
 * {@code breaker:}:
 * <table>
 * <caption>Keys of breaker {@code payments}</caption>
 * <tr>
 * <th>key</th>
 * <th>type</th>
 * <th>holds</th>
 * <th>lives</th>
 * </tr>
 * <tr>
 * <td>{@code breaker:{payments}:open}</td>
 * <td>hash</td>
 * <td>the fleet-wide open circuit: state, episode, ttl, replica, reason, issued, sig</td>
 * <td>the open wait (PEXPIRE)</td>
 * </tr>
 * <tr>
 * <td>{@code breaker:{payments}:votes}</td>
 * <td>hash</td>
 * <td>replica &rarr; {@code expiresAt|issued|ttl|sig}: local trips counted toward the
 * quorum</td>
 * <td>until the latest vote expires</td>
 * </tr>
 * <tr>
 * <td>{@code breaker:{payments}:probes:<episode>}</td>
 * <td>hash</td>
 * <td>replica &rarr; {@code slots|leaseUntil|want|sig}: half-open probe slots of one open
 * episode; {@code ~wanted~} &rarr; when a replica with traffic last got none</td>
 * <td>open wait + half-open max wait</td>
 * </tr>
 * <tr>
 * <td>{@code breaker:{payments}:override}</td>
 * <td>hash</td>
 * <td>an operator's fleet-wide override: state, replica, reason, issued, sig</td>
 * <td>until an operator resets it</td>
 * </tr>
 * <tr>
 * <td>{@code breaker:{payments}:window}</td>
 * <td>hash</td>
 * <td>{@code <bucket>:<replica>} &rarr; {@code successes|failures|timeouts|sig}: the
 * fleet window</td>
 * <td>the window</td>
 * </tr>
 * </table>
 * Times inside values are Redis's own clock (milliseconds, {@code TIME}); no replica
 * clock is ever stored.
 */
public final class FleetKeys {

	/**
	 * The mark the probe-slot hash keeps beside its holders' replica ids: when a replica
	 * with traffic last got no slot. The only field of a hash keyed by replica ids that
	 * is not one (the votes hash holds replica ids only, the window's fields start with a
	 * bucket number).
	 */
	public static final String WANTED = "~wanted~";

	/**
	 * Whether {@code replicaId} has the form the fleet's hashes keep for their marks (it
	 * starts and ends with {@code ~}, as {@link #WANTED} does): no replica may take such
	 * an id, or its field would be read as a mark, and a mark's as its own.
	 * @param replicaId a replica id
	 * @return true when no replica may have it
	 */
	public static boolean reservedForMarks(String replicaId) {
		return replicaId.length() >= 2 && replicaId.startsWith("~") && replicaId.endsWith("~");
	}

	private static final String OPEN = ":open";

	private static final String OVERRIDE = ":override";

	private final String prefix;

	public FleetKeys(String prefix) {
		this.prefix = Objects.requireNonNull(prefix, "prefix");
	}

	/** The hash of the breaker's fleet-wide open circuit. */
	public String state(String breaker) {
		return tagged(breaker) + OPEN;
	}

	/** The replicas' trips counted toward the quorum. */
	public String votes(String breaker) {
		return tagged(breaker) + ":votes";
	}

	/** The probe slots of one open episode. */
	public String probes(String breaker, String episode) {
		return tagged(breaker) + ":probes:" + episode;
	}

	/** An operator's standing fleet-wide override. */
	public String override(String breaker) {
		return tagged(breaker) + OVERRIDE;
	}

	/**
	 * When the latest fleet-wide override Redis took was decided (a CLOSED too): an
	 * override sent again is taken only if it is not older.
	 */
	public String decided(String breaker) {
		return tagged(breaker) + ":decided";
	}

	/** The fleet window's counts. */
	public String window(String breaker) {
		return tagged(breaker) + ":window";
	}

	private String tagged(String breaker) {
		return prefix + "{" + breaker + "}";
	}

	/**
	 * A SCAN pattern for the reconnect read: it matches every open-circuit and override
	 * key, and lets Redis itself skip nearly everything else (a few other keys match;
	 * {@link #parse} sorts them out).
	 */
	String scanPattern() {
		return prefix.replaceAll("([*?\\[\\]\\\\])", "\\\\$1") + "{*}:o*";
	}

	/**
	 * What a key found by a SCAN is: an open circuit or an override, with the breaker's
	 * name; {@code null} for any other key.
	 */
	Found parse(String key) {
		String start = prefix + "{";
		if (!key.startsWith(start)) {
			return null;
		}
		for (Found.Kind kind : Found.Kind.values()) {
			String end = "}" + (kind == Found.Kind.STATE ? OPEN : OVERRIDE);
			if (key.endsWith(end) && key.length() > start.length() + end.length()) {
				return new Found(kind, key.substring(start.length(), key.length() - end.length()));
			}
		}
		return null;
	}

	/** A key of ours and the breaker it belongs to. */
	record Found(Kind kind, String breaker) {

		enum Kind {

			STATE, OVERRIDE

		}
	}

}
