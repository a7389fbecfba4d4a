package dev.breaker.redis;

import java.util.Objects;

import org.jspecify.annotations.Nullable;

import dev.breaker.core.State;

/**
 * One fleet-wide transition as replicas announce it on the Redis channel (and, for opens
 * and overrides, store it).
 *
 * <p>
 * {@code ttlMillis} is relative (how long the circuit stays open from when Redis handled
 * the message), so replica clocks never have to agree. {@code episode} names one
 * fleet-wide open, chosen at random by the replica that opened it: a close names the
 * episode it ends, and probe slots are handed out per episode. {@code issuedAt} is
 * Redis's clock as the sender estimated it (it matters only for signed messages, whose
 * freshness it proves).
 *
 * @param kind what happened
 * @param breaker the breaker's full name
 * @param episode the open episode (OPEN, CLOSED), "" for an override
 * @param ttlMillis how long the fleet holds the circuit open (OPEN); for an operator's
 * reset sent again (OVERRIDE CLOSED), how long before it was sent it was decided
 * ({@link #decidedAt}); 0 otherwise
 * @param override the operator's state (OVERRIDE: FORCED_OPEN, DISABLED or CLOSED),
 * {@code null} otherwise
 * @param replica the replica that sent it
 * @param issuedAt Redis's time when it was sent, by the sender's estimate (ms since the
 * epoch; -1 unknown)
 * @param reason why, as the sender's breaker or operator said it
 * @param signature HMAC-SHA256 of everything else ("" unsigned)
 */
public record FleetMessage(Kind kind, String breaker, String episode, long ttlMillis, State override, String replica,
		long issuedAt, String reason, String signature) {

	/** What a replica announces. */
	public enum Kind {

		/**
		 * The fleet holds the circuit open (a quorum tripped, the fleet window tripped,
		 * or a probing replica reopened).
		 */
		OPEN,
		/** The episode ended: a replica's probes closed it, or its breaker was reset. */
		CLOSED,
		/** An operator's override for every replica. */
		OVERRIDE

	}

	private static final String MAGIC = "bf2";

	private static final int FIELDS = 9;

	/**
	 * Longest breaker name taken from Redis (a registry's names are bounded far below).
	 */
	static final int MAX_NAME = 1024;

	/** Longest episode name (a replica's are 20 characters). */
	static final int MAX_EPISODE = 64;

	/**
	 * Longest replica id taken (a default one is a host name, a pid and 8 characters); a
	 * longer configured one stops start-up.
	 */
	public static final int MAX_REPLICA = 512;

	/**
	 * Longest reason kept: a replica cuts what it sends to this, and a longer one read is
	 * cut to it as it is read.
	 */
	static final int MAX_REASON = Printable.REASON;

	/** Longest signature taken (a signature is 43 characters). */
	static final int MAX_SIGNATURE = 64;

	/**
	 * The longest text each field may hold, in wire order: what is longer is none of this
	 * fleet's, and is dropped before anything keeps it.
	 */
	private static final int[] MOST = { 16, MAX_NAME, MAX_EPISODE, 20, 16, MAX_REPLICA, 20, Integer.MAX_VALUE,
			MAX_SIGNATURE };

	/** The reason's place in the wire form: a longer one is cut as it is read. */
	private static final int REASON_FIELD = 7;

	public FleetMessage {
		Objects.requireNonNull(kind, "kind");
		Objects.requireNonNull(breaker, "breaker");
		Objects.requireNonNull(replica, "replica");
		episode = episode == null ? "" : episode;
		reason = reason == null ? "" : cut(reason);
		signature = signature == null ? "" : signature;
	}

	/**
	 * Whether every field is within what this fleet writes ({@link #MAX_NAME},
	 * {@link #MAX_REPLICA}...): a value read from Redis or the channel that is not is
	 * dropped (a reason is cut to {@link #MAX_REASON} instead), so what a replica keeps
	 * of one is bounded.
	 */
	boolean bounded() {
		return breaker.length() <= MAX_NAME && episode.length() <= MAX_EPISODE && replica.length() <= MAX_REPLICA
				&& signature.length() <= MAX_SIGNATURE;
	}

	/**
	 * At most {@link #MAX_REASON} characters, never ending in half a surrogate pair (a
	 * replica's own reasons are that short already, so their signatures still verify).
	 */
	private static String cut(String reason) {
		if (reason.length() <= MAX_REASON) {
			return reason;
		}
		int end = Character.isHighSurrogate(reason.charAt(MAX_REASON - 1)) ? MAX_REASON - 1 : MAX_REASON;
		return reason.substring(0, end);
	}

	/**
	 * When an operator's reset sent again was decided, Redis's time as its sender
	 * estimated it; -1 when it is no reset sent again, or the time is unknown. A reset
	 * sent again ends no episode opened after it ({@link FleetScripts#OVERRIDE}).
	 */
	long decidedAt() {
		boolean resent = kind == Kind.OVERRIDE && override == State.CLOSED && ttlMillis > 0;
		return resent && issuedAt >= ttlMillis ? issuedAt - ttlMillis : -1;
	}

	/** The fields the signature covers, in order. */
	String[] signedFields() {
		return new String[] { kind.name(), breaker, episode, Long.toString(ttlMillis),
				override == null ? "" : override.name(), replica, Long.toString(issuedAt), reason };
	}

	/** The same message with a signature. */
	FleetMessage signedWith(String signature) {
		return new FleetMessage(kind, breaker, episode, ttlMillis, override, replica, issuedAt, reason, signature);
	}

	/**
	 * The wire form: {@code bf2} and then every field as {@code <length>:<text>}, so a
	 * field may hold anything (a newline, a colon) without breaking the framing.
	 */
	public String encode() {
		StringBuilder out = new StringBuilder(64 + breaker.length() + reason.length());
		out.append(MAGIC);
		for (String field : signedFields()) {
			out.append(field.length()).append(':').append(field);
		}
		return out.append(signature.length()).append(':').append(signature).toString();
	}

	/**
	 * Decodes the wire form; {@code null} when the text is not one of ours or is
	 * malformed in any way, a field longer than this fleet writes included (checked
	 * before it is copied; a reason is cut, not copied whole).
	 */
	public static @Nullable FleetMessage decode(@Nullable String text) {
		if (text == null || !text.startsWith(MAGIC)) {
			return null;
		}
		String[] fields = new String[FIELDS];
		int at = MAGIC.length();
		for (int i = 0; i < FIELDS; i++) {
			int colon = text.indexOf(':', at);
			if (colon < 0 || colon == at || colon - at > 9) {
				return null;
			}
			int length;
			try {
				length = Integer.parseInt(text, at, colon, 10);
			}
			catch (NumberFormatException notALength) {
				return null;
			}
			if (length < 0 || length > MOST[i] || length > text.length() - colon - 1) {
				return null;
			}
			int kept = (i == REASON_FIELD) ? Math.min(length, MAX_REASON) : length;
			fields[i] = text.substring(colon + 1, colon + 1 + kept);
			at = colon + 1 + length;
		}
		if (at != text.length()) {
			return null;
		}
		try {
			Kind kind = Kind.valueOf(fields[0]);
			State override = fields[4].isEmpty() ? null : State.valueOf(fields[4]);
			return new FleetMessage(kind, fields[1], fields[2], Long.parseLong(fields[3]), override, fields[5],
					Long.parseLong(fields[6]), fields[7], fields[8]);
		}
		catch (IllegalArgumentException notOurs) {
			return null;
		}
	}
}
