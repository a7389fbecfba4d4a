package dev.breaker.redis;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.breaker.core.State;
import io.lettuce.core.ScanCursor;
import org.jspecify.annotations.Nullable;

/**
 * What the fleet's scripts answer, read into records: every field is checked, and a hash
 * this version cannot read fails the read with a {@link MalformedException} (which leaves
 * the store up: Redis answered) instead of reaching a breaker.
 */
final class StoreReplies {

	/** The fields a read of a state hash asks for, in this order. */
	static final String[] OPEN_FIELDS = { "state", "episode", "ttl", "replica", "reason", "issued", "sig" };

	/** The fields a read of an override hash asks for, in this order. */
	static final String[] OVERRIDE_FIELDS = { "state", "replica", "reason", "issued", "sig" };

	private StoreReplies() {
	}

	/**
	 * An open circuit as stored in its hash: the announcement it was opened with, and
	 * Redis's remaining TTL.
	 */
	record Stored(FleetMessage circuit, long pttl) {
	}

	/**
	 * A standing override as stored in its hash, and the signature of the override Redis
	 * took last for its breaker ({@code ""}: none recorded).
	 */
	record StandingOverride(FleetMessage override, String taken) {
	}

	/**
	 * What the open script found: {@code opened}, or the episode that is open already.
	 */
	record OpenReply(boolean opened, Stored current) {
	}

	/**
	 * What a vote found: the live votes (replica to value, this one included), and the
	 * open circuit if any.
	 */
	record VoteReply(Map<String, String> votes, Stored current) {
	}

	/**
	 * What a probe claim got, who else holds slots (holder to value), and whether a
	 * replica with traffic went without slots within the last {@code 2 * lease / 3} (a
	 * holder without traffic then gives its slots up; a longer lease, claimed long before
	 * the open wait ends, does not widen that window).
	 */
	record ClaimReply(int grant, Map<String, String> others, boolean wanted) {
	}

	/**
	 * One SCAN step: the keys it found and where to go on ({@code next}; finished when
	 * the cursor is back at 0). In a Cluster the cursor also says which primary comes
	 * next: pass {@code next} on, not the cursor's text.
	 */
	record ScanPage(List<String> keys, String cursor, boolean finished, ScanCursor next) {
	}

	/** A value in a fleet hash this version cannot read. */
	static final class MalformedException extends RuntimeException {

		private static final long serialVersionUID = 1L;

		MalformedException(String message) {
			super(message, null, false, false);
		}

	}

	/** The open script's answer: opened, or the episode open already. */
	static OpenReply open(String breaker, List<Object> reply) {
		return "opened".equals(String.valueOf(reply.get(0))) ? new OpenReply(true, null)
				: new OpenReply(false, stored(breaker, reply.subList(1, reply.size())));
	}

	/** The vote script's answer: the live votes, then the open circuit. */
	static VoteReply vote(String breaker, List<Object> reply) {
		return new VoteReply(pairs((List<?>) reply.get(0)), stored(breaker, reply.subList(1, reply.size())));
	}

	/**
	 * The claim script's answer: the grant, the other holders, and when (Redis's time) a
	 * replica with traffic last went without slots.
	 */
	static ClaimReply claim(List<Object> reply, long leaseMillis) {
		long wantedAt = Long.parseLong(String.valueOf(reply.get(2)));
		long now = Long.parseLong(String.valueOf(reply.get(3)));
		return new ClaimReply(((Number) reply.get(0)).intValue(), pairs((List<?>) reply.get(1)),
				wantedAt > 0 && now - wantedAt < 2 * Math.min(leaseMillis, ProbeShare.LEASE_MILLIS) / 3);
	}

	/** A state hash read with {@link #OPEN_FIELDS}. */
	static Stored openCircuit(String breaker, List<Object> f) {
		if (!"OPEN".equals(String.valueOf(f.get(0)))) {
			if (String.valueOf(f.get(0)).isEmpty() && String.valueOf(f.get(1)).isEmpty()) {
				return new Stored(null, 0);
			}
			throw new MalformedException("state '" + Printable.of(String.valueOf(f.get(0)), 20) + "' is not OPEN");
		}
		Stored stored = stored(breaker, f.subList(1, f.size()));
		if (stored.circuit() == null) {
			throw new MalformedException("an OPEN state without an episode");
		}
		return stored;
	}

	/**
	 * An override hash read with {@link #OVERRIDE_FIELDS} and what Redis took last
	 * ({@code null}: no override stands).
	 */
	static StandingOverride standing(String breaker, List<Object> f) {
		FleetMessage override = override(breaker, f);
		// after the fields: the decided time, then the decided signature
		String taken = f.size() > OVERRIDE_FIELDS.length + 1 ? strings(f).get(OVERRIDE_FIELDS.length + 1) : "";
		return override == null ? null : new StandingOverride(override, taken);
	}

	/** An override hash read with {@link #OVERRIDE_FIELDS} ({@code null}: none). */
	static FleetMessage override(String breaker, List<Object> f) {
		List<String> v = strings(f);
		if (v.get(0).isEmpty() && v.get(1).isEmpty()) {
			return null;
		}
		try {
			return new FleetMessage(FleetMessage.Kind.OVERRIDE, breaker, "", 0, State.valueOf(v.get(0)), v.get(1),
					Long.parseLong(v.get(3)), v.get(2), v.get(4));
		}
		catch (IllegalArgumentException malformed) {
			throw new MalformedException("override state '" + Printable.of(v.get(0), 20) + "' or issued '"
					+ Printable.of(v.get(3), 20) + "' cannot be read");
		}
	}

	/**
	 * A standing override ({@code null}: none), the time the latest decision Redis took
	 * was made (-1: unknown) and the signature of the override it took last ('': none).
	 */
	record OverrideRead(@Nullable FleetMessage override, long decidedAt, String taken) {
	}

	/**
	 * What {@link FleetScripts#READ_OVERRIDE} returned: an override read with
	 * {@link #OVERRIDE_FIELDS}, then the decided time (then the decided signature,
	 * {@link #standing}'s).
	 */
	static OverrideRead overrideRead(String breaker, List<Object> f) {
		List<String> v = strings(f);
		long decidedAt;
		try {
			decidedAt = v.get(OVERRIDE_FIELDS.length).isEmpty() ? -1 : Long.parseLong(v.get(OVERRIDE_FIELDS.length));
		}
		catch (NumberFormatException malformed) {
			decidedAt = -1; // the override script replaces what it cannot read
		}
		String taken = v.size() > OVERRIDE_FIELDS.length + 1 ? v.get(OVERRIDE_FIELDS.length + 1) : "";
		return new OverrideRead(override(breaker, new ArrayList<>(f.subList(0, OVERRIDE_FIELDS.length))), decidedAt,
				taken);
	}

	/**
	 * Whether a command failed because a fleet hash held something this version cannot
	 * read.
	 */
	static boolean malformed(Throwable error) {
		return StoreConnection.unwrap(error) instanceof MalformedException;
	}

	private static Stored stored(String breaker, List<?> fields) {
		List<String> f = strings(fields);
		// episode, ttl, replica, reason, issued, sig, pttl
		if (f.get(0).isEmpty()) {
			return new Stored(null, 0);
		}
		try {
			FleetMessage circuit = new FleetMessage(FleetMessage.Kind.OPEN, breaker, f.get(0), Long.parseLong(f.get(1)),
					null, f.get(2), Long.parseLong(f.get(4)), f.get(3), f.get(5));
			return new Stored(circuit, Long.parseLong(f.get(6)));
		}
		catch (NumberFormatException malformed) {
			throw new MalformedException("ttl '" + Printable.of(f.get(1), 20) + "' or issued '"
					+ Printable.of(f.get(4), 20) + "' is not a number");
		}
	}

	private static List<String> strings(List<?> fields) {
		List<String> out = new ArrayList<>(fields.size());
		fields.forEach(field -> out.add(field == null ? "" : String.valueOf(field)));
		return out;
	}

	private static Map<String, String> pairs(List<?> flat) {
		Map<String, String> pairs = new LinkedHashMap<>();
		for (int i = 0; i + 1 < flat.size(); i += 2) {
			pairs.put(String.valueOf(flat.get(i)), String.valueOf(flat.get(i + 1)));
		}
		return pairs;
	}

}
