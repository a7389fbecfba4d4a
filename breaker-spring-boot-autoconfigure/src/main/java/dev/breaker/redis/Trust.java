package dev.breaker.redis;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.concurrent.atomic.AtomicLong;

import dev.breaker.core.State;

/**
 * What this replica believes of what it reads from the channel and from Redis:
 * well-formed, and, with signing on, signed with the fleet's key and fresh by Redis's
 * clock. Everything else is dropped and counted
 * ({@code breaker_shared_store_rejected_messages_total}); at most one WARN line a minute
 * says so.
 */
final class Trust {

	/**
	 * How far a signed value's issue time may be from Redis's clock as this replica sees
	 * it (replays are older).
	 */
	static final long SKEW_MILLIS = 30_000;

	/**
	 * Longest breaker name taken from Redis (a registry's names are bounded far below).
	 */
	static final int MAX_NAME = FleetMessage.MAX_NAME;

	private static final long WARN_EVERY_NANOS = 60_000_000_000L;

	private static final System.Logger LOG = System.getLogger(FleetSync.class.getName());

	private final MessageSigner signer;

	private final RedisClock clock;

	private final SharedStoreStatus status;

	private final AtomicLong lastWarning = new AtomicLong(System.nanoTime() - WARN_EVERY_NANOS);

	private final OverrideLedger overrides = new OverrideLedger();

	Trust(MessageSigner signer, RedisClock clock, SharedStoreStatus status) {
		if (status.replicaId().length() > FleetMessage.MAX_REPLICA) {
			throw new IllegalArgumentException("a replica id of at most " + FleetMessage.MAX_REPLICA
					+ " characters, so peers take what it sends, but it has " + status.replicaId().length());
		}
		if (FleetKeys.reservedForMarks(status.replicaId())) {
			throw new IllegalArgumentException(
					"a replica id not starting and ending with '~' (the form of the marks the "
							+ "fleet's hashes keep beside replica ids, such as '" + FleetKeys.WANTED + "'), but it is '"
							+ Printable.of(status.replicaId(), Printable.REPLICA) + "'");
		}
		this.signer = signer;
		this.clock = clock;
		this.status = status;
	}

	boolean signing() {
		return signer.on();
	}

	RedisClock clock() {
		return clock;
	}

	/**
	 * The message as this replica sends it: stamped with Redis's time (estimated) and
	 * signed.
	 */
	FleetMessage issue(FleetMessage.Kind kind, String breaker, String episode, long ttlMillis, State override,
			String replica, String reason) {
		FleetMessage unsigned = new FleetMessage(kind, breaker, episode, ttlMillis, override, replica, clock.now(),
				Printable.of(reason, Printable.REASON), "");
		return signed(unsigned);
	}

	/**
	 * {@code untold} (this replica's operator's override, decided at {@code decidedAt})
	 * issued anew to be sent again; a reset carries how long ago it was decided, so peers
	 * do not end with it an episode opened since ({@link FleetMessage#decidedAt}).
	 */
	FleetMessage issueAgain(FleetMessage untold, long decidedAt) {
		long now = clock.now();
		long age = untold.override() == State.CLOSED && decidedAt >= 0 && now > decidedAt ? now - decidedAt : 0;
		FleetMessage unsigned = new FleetMessage(FleetMessage.Kind.OVERRIDE, untold.breaker(), "", age,
				untold.override(), untold.replica(), now, untold.reason(), "");
		return signed(unsigned);
	}

	private FleetMessage signed(FleetMessage unsigned) {
		return signer.on() ? unsigned.signedWith(signer.sign(unsigned.signedFields())) : unsigned;
	}

	/**
	 * Whether a message from the channel may be applied; counts and drops it otherwise.
	 */
	boolean accept(FleetMessage message, String raw) {
		if (message == null) {
			return reject("an announcement that is not in the fleet's format", raw);
		}
		if (!wellFormed(message)) {
			return reject("a malformed announcement (" + message.kind() + ")", message.breaker());
		}
		if (signer.on() && !signer.verify(message.signature(), message.signedFields())) {
			return reject("an announcement (" + message.kind() + ") not signed with this fleet's key",
					message.breaker());
		}
		if (signer.on() && !fresh(message.issuedAt())) {
			return reject("a stale announcement (" + message.kind() + "; replayed?)", message.breaker());
		}
		if (signer.on() && message.kind() == FleetMessage.Kind.OVERRIDE) {
			long nanos = System.nanoTime();
			if (overrides.replayed(message.signature(), nanos)) {
				return reject("an override heard before (replayed?)", message.breaker());
			}
			if (outdated(message)) {
				return reject("an override issued before the latest decision taken here (replayed?)",
						message.breaker());
			}
			overrides.taken(message.breaker(), message.signature(), message.issuedAt(), nanos);
		}
		return true;
	}

	/**
	 * Whether a peer's signed override was issued well before the latest override taken
	 * here for its breaker. This replica's own are left to its own bookkeeping (an
	 * override it sends again is compared with what Redis took).
	 */
	private boolean outdated(FleetMessage override) {
		return !override.replica().equals(status.replicaId())
				&& overrides.outdated(override.breaker(), override.issuedAt());
	}

	/**
	 * Whether an open circuit or an override read from its hash may be applied: the same
	 * checks as a message, but a stored open only needs to be still running, and a
	 * standing override only not to come from the future.
	 */
	boolean acceptStored(FleetMessage stored) {
		if (!wellFormed(stored)) {
			return reject("a malformed stored value (" + stored.kind() + ")", stored.breaker());
		}
		if (!signer.on()) {
			return true;
		}
		if (!signer.verify(stored.signature(), stored.signedFields())) {
			return reject("a stored value (" + stored.kind() + ") not signed with this fleet's key", stored.breaker());
		}
		long now = clock.now();
		boolean fromTheFuture = now >= 0 && stored.issuedAt() > now + SKEW_MILLIS;
		boolean over = stored.kind() == FleetMessage.Kind.OPEN && now >= 0
				&& stored.issuedAt() + stored.ttlMillis() < now - SKEW_MILLIS;
		if (fromTheFuture || over) {
			return reject("a stored value (" + stored.kind() + ") that is not current (copied from elsewhere?)",
					stored.breaker());
		}
		return true;
	}

	/**
	 * Whether a standing override read from Redis may be applied: as
	 * {@link #acceptStored}, and with signing also the override Redis took last for its
	 * breaker (the decided hash names its signature: a copy of an older override written
	 * back after a later decision, or one without such a record, is not), and not issued
	 * well before the latest override taken here for it.
	 */
	boolean acceptStanding(StoreReplies.StandingOverride standing) {
		FleetMessage stored = standing.override();
		if (!acceptStored(stored)) {
			return false;
		}
		if (!signer.on()) {
			return true;
		}
		if (!MessageDigest.isEqual(bytes(stored.signature()), bytes(standing.taken()))) {
			return reject("a stored override that is not the one Redis took last (copied back?)", stored.breaker());
		}
		if (outdated(stored)) {
			return reject("a stored override issued before the latest decision taken here (copied back?)",
					stored.breaker());
		}
		overrides.taken(stored.breaker(), "", stored.issuedAt(), System.nanoTime());
		return true;
	}

	private static byte[] bytes(String text) {
		return text.getBytes(StandardCharsets.UTF_8);
	}

	/**
	 * How much longer a stored open runs: Redis's TTL, and with signing also no longer
	 * than the signed issue time plus the signed TTL (so a copied hash with a new TTL
	 * cannot stretch it).
	 */
	long remainingStored(FleetMessage stored, long pttl) {
		long now = clock.now();
		if (!signer.on() || now < 0 || stored.issuedAt() < 0) {
			return pttl;
		}
		return Math.max(0, Math.min(pttl, stored.issuedAt() + stored.ttlMillis() - now));
	}

	/**
	 * How much longer an announced open runs from now: its TTL (relative, counted from
	 * when it is heard), and with signing also no longer than the signed issue time plus
	 * the signed TTL by Redis's clock, the end of the episode it was issued for. A signed
	 * announcement replayed (or delivered late) within the freshness window so holds a
	 * breaker open only until that episode ends, and not at all once it has ended.
	 */
	long remainingAnnounced(FleetMessage announced) {
		long now = clock.now();
		if (!signer.on() || now < 0 || announced.issuedAt() < 0) {
			return announced.ttlMillis();
		}
		// an issue time ahead of this replica's estimate is the estimates' error: the TTL
		// counts from now (both stay within the freshness window, no overflow)
		long sinceIssued = Math.max(0, now - announced.issuedAt());
		return Math.max(0, announced.ttlMillis() - sinceIssued);
	}

	/** A vote's value after the expiry Redis prepends: {@code issued|ttl|sig}. */
	String vote(String breaker, String replica, long ttlMillis) {
		String issued = Long.toString(clock.now());
		String ttl = Long.toString(ttlMillis);
		return issued + "|" + ttl + "|" + signer.sign("VOTE", breaker, replica, issued, ttl);
	}

	/**
	 * Whether a stored vote ({@code expiresAt|issued|ttl|sig}) counts toward the quorum.
	 */
	boolean countsVote(String breaker, String replica, String value) {
		String[] parts = value.split("\\|", -1);
		if (parts.length != 4) {
			return reject("a malformed vote", breaker);
		}
		if (!signer.on()) {
			return true;
		}
		try {
			long issued = Long.parseLong(parts[1]);
			long ttl = Long.parseLong(parts[2]);
			long now = clock.now();
			if (!signer.verify(parts[3], "VOTE", breaker, replica, parts[1], parts[2])) {
				return reject("a vote not signed with this fleet's key", breaker);
			}
			if (now >= 0 && (issued > now + SKEW_MILLIS || issued + ttl < now - SKEW_MILLIS)) {
				return reject("a stale vote", breaker);
			}
			return true;
		}
		catch (NumberFormatException malformed) {
			return reject("a malformed vote", breaker);
		}
	}

	/**
	 * A probe claim's value after the slots and lease Redis prepends: {@code want|sig}.
	 */
	String claim(String breaker, String episode, String replica, int want) {
		return want + "|" + signer.sign("PROBES", breaker, episode, replica, Integer.toString(want));
	}

	/**
	 * Whether a holder's stored slots ({@code slots|leaseUntil|want|sig}) are a real
	 * replica's claim.
	 */
	boolean genuineHolder(String breaker, String episode, String holder, String value) {
		String[] parts = value.split("\\|", -1);
		if (parts.length != 4) {
			return false;
		}
		try {
			return Integer.parseInt(parts[0]) <= Integer.parseInt(parts[2])
					&& signer.verify(parts[3], "PROBES", breaker, episode, holder, parts[2]);
		}
		catch (NumberFormatException malformed) {
			return false;
		}
	}

	/**
	 * A replica's counts in one window bucket: {@code successes|failures|timeouts|sig}.
	 */
	String windowCounts(String breaker, String field, long successes, long failures, long timeouts) {
		String counts = successes + "|" + failures + "|" + timeouts;
		return counts + "|" + signer.sign("WINDOW", breaker, field, counts);
	}

	/**
	 * The counts of a window field, or {@code null} (counted) when it is not a replica's
	 * genuine counts.
	 */
	long[] windowCounts(String breaker, String field, String value) {
		String[] parts = value.split("\\|", -1);
		if (parts.length != 4) {
			reject("malformed fleet-window counts", breaker);
			return null;
		}
		try {
			long[] counts = { Long.parseLong(parts[0]), Long.parseLong(parts[1]), Long.parseLong(parts[2]) };
			if (counts[0] < 0 || counts[1] < 0 || counts[2] < 0) {
				reject("negative fleet-window counts", breaker);
				return null;
			}
			if (!signer.verify(parts[3], "WINDOW", breaker, field, parts[0] + "|" + parts[1] + "|" + parts[2])) {
				reject("fleet-window counts not signed with this fleet's key", breaker);
				return null;
			}
			return counts;
		}
		catch (NumberFormatException malformed) {
			reject("malformed fleet-window counts", breaker);
			return null;
		}
	}

	/** How many overrides' signatures this replica remembers (for tests). */
	int overridesTaken() {
		return overrides.signatures();
	}

	private boolean fresh(long issuedAt) {
		long now = clock.now();
		return now < 0 || Math.abs(issuedAt - now) <= SKEW_MILLIS;
	}

	private static boolean wellFormed(FleetMessage message) {
		if (message.breaker().isEmpty() || message.replica().isEmpty() || !message.bounded()) {
			return false;
		}
		return switch (message.kind()) {
			case OPEN -> message.ttlMillis() > 0 && !message.episode().isEmpty() && message.override() == null;
			case CLOSED -> !message.episode().isEmpty() && message.override() == null;
			case OVERRIDE -> message.override() == State.FORCED_OPEN || message.override() == State.DISABLED
					|| message.override() == State.CLOSED;
		};
	}

	private boolean reject(String what, String about) {
		status.markRejected();
		long last = lastWarning.get();
		long now = System.nanoTime();
		if (now - last >= WARN_EVERY_NANOS && lastWarning.compareAndSet(last, now)) {
			LOG.log(System.Logger.Level.WARNING,
					"breaker fleet: dropped {0} (''{1}''); {2} dropped so far. "
							+ "Is something other than this fleet writing to its Redis keys or channel?",
					what, Printable.of(about, Printable.NAME), status.rejected());
		}
		return false;
	}

}
