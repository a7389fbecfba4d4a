package dev.breaker.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ScheduledExecutorService;

import io.lettuce.core.KeyScanArgs;
import io.lettuce.core.RedisURI;
import io.lettuce.core.ScanCursor;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.cluster.SlotHash;

/**
 * The Redis side of fleet mode: the fleet's operations, each one of the Lua scripts of
 * {@link FleetScripts} on the keys of {@link FleetKeys}, over the connections of
 * {@link StoreConnection}, their answers read by {@link StoreReplies}.
 *
 * <p>
 * Nothing here blocks a caller: every operation returns a future that completes on
 * Lettuce's I/O thread, fails at once while disconnected (commands are rejected, not
 * queued) and times out after {@code timeout}.
 */
public final class RedisBreakerStore implements AutoCloseable {

	/**
	 * Told of what arrives from Redis; called on a Lettuce I/O thread, so implementations
	 * hand off at once.
	 */
	public interface Listener {

		/**
		 * A message on the fleet's channel, as it came (it may be anything anybody
		 * published).
		 */
		void onMessage(String text);

		/**
		 * Redis is reachable after it was not (first connect, reconnect, back from a
		 * hang), or the subscription was renewed: state may have changed meanwhile, and
		 * messages may have been missed.
		 */
		void onReachable();

	}

	private static final int SCAN_COUNT = 200;

	private final FleetKeys keys;

	private final String channel;

	private final StoreConnection connection;

	/**
	 * @param executor runs the (re)connect attempts and the ping; the store never blocks
	 * it for longer than one connect timeout
	 */
	public RedisBreakerStore(RedisURI uri, FleetKeys keys, String channel, Duration timeout, Duration reconnectInterval,
			SharedStoreStatus status, RedisClock clock, ScheduledExecutorService executor, Listener listener) {
		this(FleetRedis.of(uri), keys, channel, timeout, reconnectInterval, status, clock, executor, listener);
	}

	/**
	 * @param redis the server, Sentinel set-up or Cluster
	 * @param executor runs the (re)connect attempts and the ping; the store never blocks
	 * it for longer than one connect timeout (a few, to discover a Cluster)
	 */
	public RedisBreakerStore(FleetRedis redis, FleetKeys keys, String channel, Duration timeout,
			Duration reconnectInterval, SharedStoreStatus status, RedisClock clock, ScheduledExecutorService executor,
			Listener listener) {
		this.keys = Objects.requireNonNull(keys, "keys");
		this.channel = Objects.requireNonNull(channel, "channel");
		this.connection = new StoreConnection(redis, channel, timeout, reconnectInterval, status, clock, executor,
				listener);
	}

	/**
	 * Connects in the background, retrying every reconnect interval until Redis answers;
	 * returns at once.
	 */
	public void start() {
		connection.start();
	}

	/** True once connected (Lettuce then reconnects on its own after an outage). */
	public boolean connected() {
		return connection.connected();
	}

	FleetKeys keys() {
		return keys;
	}

	// ---- the fleet's operations ----

	/**
	 * Opens the circuit fleet-wide with {@code announcement} (stored and published in one
	 * script), unless another episode is open; {@code replace} names an episode that may
	 * be replaced (this replica's failed probes ended it).
	 */
	CompletableFuture<StoreReplies.OpenReply> open(FleetMessage announcement, String replace) {
		String name = announcement.breaker();
		return connection
			.<List<Object>>run(FleetScripts.OPEN, ScriptOutputType.MULTI,
					new String[] { keys.state(name), keys.votes(name) }, announcement.episode(),
					Long.toString(announcement.ttlMillis()), announcement.replica(), announcement.reason(),
					Long.toString(announcement.issuedAt()), announcement.signature(), channel, announcement.encode(),
					replace == null ? "absent" : "replace:" + replace)
			.thenApply(reply -> StoreReplies.open(name, reply));
	}

	/**
	 * Counts this replica's trip toward the quorum for {@code ttlMillis}; returns the
	 * live votes and the open circuit.
	 */
	CompletableFuture<StoreReplies.VoteReply> vote(String breaker, String replica, long ttlMillis, String value) {
		return connection
			.<List<Object>>run(FleetScripts.VOTE, ScriptOutputType.MULTI,
					new String[] { keys.state(breaker), keys.votes(breaker) }, replica,
					Long.toString(Math.max(1, ttlMillis)), value)
			.thenApply(reply -> StoreReplies.vote(breaker, reply));
	}

	/**
	 * This replica's breaker closed: withdraws its vote and, if it followed
	 * {@code episode}, ends it fleet-wide.
	 */
	CompletableFuture<Boolean> close(String breaker, String episode, FleetMessage announcement) {
		return connection
			.<Long>run(FleetScripts.CLOSE, ScriptOutputType.INTEGER,
					new String[] { keys.state(breaker), keys.votes(breaker) }, episode == null ? "" : episode,
					announcement.replica(), channel, announcement.encode())
			.thenApply(n -> n == 1);
	}

	/**
	 * Stores (or, for CLOSED, clears) an operator's fleet-wide override decided at
	 * {@code decidedAt} (Redis's time as this replica estimated it) and announces it;
	 * completes with whether Redis took it. Sent {@code again}, it is taken only if no
	 * decision Redis took was decided after it.
	 */
	CompletableFuture<Boolean> override(FleetMessage announcement, long decidedAt, boolean again) {
		String name = announcement.breaker();
		return connection
			.<Long>run(FleetScripts.OVERRIDE, ScriptOutputType.INTEGER,
					new String[] { keys.state(name), keys.votes(name), keys.override(name), keys.decided(name) },
					announcement.override().name(), announcement.replica(), announcement.reason(),
					Long.toString(announcement.issuedAt()), announcement.signature(), channel, announcement.encode(),
					Long.toString(decidedAt), again ? "1" : "0")
			.thenApply(n -> n != null && n == 1);
	}

	/**
	 * Claims up to {@code want} of the {@code max} concurrent probe slots the whole fleet
	 * may use in one open episode; they stay this replica's for {@code leaseMillis}
	 * unless it asks again.
	 */
	CompletableFuture<StoreReplies.ClaimReply> claim(String breaker, String episode, String replica, int max, int want,
			long leaseMillis, long ttlMillis, String value, boolean wanting, List<String> distrusted) {
		List<String> args = new ArrayList<>(7 + distrusted.size());
		args.addAll(
				List.of(Integer.toString(max), Integer.toString(want), replica, Long.toString(Math.max(1, leaseMillis)),
						Long.toString(Math.max(1, ttlMillis)), value, wanting ? "1" : "0"));
		args.addAll(distrusted);
		return connection
			.<List<Object>>run(FleetScripts.CLAIM, ScriptOutputType.MULTI,
					new String[] { keys.probes(breaker, episode) }, args.toArray(String[]::new))
			.thenApply(reply -> StoreReplies.claim(reply, leaseMillis));
	}

	/**
	 * Gives this replica's probe slots of an episode back (it has no traffic to probe
	 * with).
	 */
	CompletableFuture<Long> release(String breaker, String episode, String replica) {
		return connection
			.send(commands -> commands.async().hdel(keys.probes(breaker, episode), replica).toCompletableFuture());
	}

	/**
	 * One step of the reconnect read on a single server (the cursor's text is enough
	 * there).
	 */
	CompletableFuture<StoreReplies.ScanPage> scan(String cursor) {
		return scan("0".equals(cursor) ? ScanCursor.INITIAL : ScanCursor.of(cursor));
	}

	/**
	 * One step of the reconnect read: at most a couple of hundred keys examined, so Redis
	 * is never held up. In a Cluster the steps walk every primary in turn, so the read
	 * finds the open circuits of every slot.
	 */
	CompletableFuture<StoreReplies.ScanPage> scan(ScanCursor cursor) {
		KeyScanArgs args = KeyScanArgs.Builder.matches(keys.scanPattern()).limit(SCAN_COUNT).type("hash");
		return connection.scan(cursor, args)
			.thenApply(c -> new StoreReplies.ScanPage(c.getKeys(), c.getCursor(), c.isFinished(), c));
	}

	/**
	 * The open circuit stored under a state key (circuit {@code null} when the hash holds
	 * none).
	 */
	CompletableFuture<StoreReplies.Stored> readOpen(String breaker) {
		return connection
			.<List<Object>>run(FleetScripts.READ, ScriptOutputType.MULTI, new String[] { keys.state(breaker) },
					StoreReplies.OPEN_FIELDS)
			.thenApply(fields -> StoreReplies.openCircuit(breaker, fields));
	}

	/**
	 * The standing override stored under an override key ({@code null} when the hash
	 * holds none).
	 */
	CompletableFuture<FleetMessage> readOverride(String breaker) {
		return readStanding(breaker).thenApply(standing -> standing == null ? null : standing.override());
	}

	/**
	 * The standing override stored under an override key and the signature of the
	 * override Redis took last for its breaker, read at once ({@code null} when the hash
	 * holds none).
	 */
	CompletableFuture<StoreReplies.StandingOverride> readStanding(String breaker) {
		return connection
			.<List<Object>>run(FleetScripts.READ_OVERRIDE, ScriptOutputType.MULTI,
					new String[] { keys.override(breaker), keys.decided(breaker) }, StoreReplies.OVERRIDE_FIELDS)
			.thenApply(fields -> StoreReplies.standing(breaker, fields));
	}

	/**
	 * The standing override of a breaker ({@code null}: none) and when the latest
	 * decision Redis took about it was made (-1: unknown), read in one step.
	 */
	CompletableFuture<StoreReplies.OverrideRead> readOverrideDecided(String breaker) {
		return connection
			.<List<Object>>run(FleetScripts.READ_OVERRIDE, ScriptOutputType.MULTI,
					new String[] { keys.override(breaker), keys.decided(breaker) }, StoreReplies.OVERRIDE_FIELDS)
			.thenApply(fields -> StoreReplies.overrideRead(breaker, fields));
	}

	/** The fleet window step for a batch: see {@link FleetScripts#WINDOW}. */
	CompletableFuture<List<Object>> window(String[] windowKeys, String[] args) {
		return connection.run(FleetScripts.WINDOW, ScriptOutputType.MULTI, windowKeys, args);
	}

	/**
	 * The server's run id (every primary's in a Cluster): it changes when Redis restarts
	 * (and, without persistence, forgets every key), and when a replica is promoted
	 * (which may lack its primary's last writes).
	 */
	CompletableFuture<String> serverRunId() {
		return connection.serverId();
	}

	/**
	 * Whether the keys of different breakers may live on different servers (a Cluster).
	 */
	boolean cluster() {
		return connection.cluster();
	}

	/** The hash slot of a key: a script's keys must share one in a Cluster. */
	static int slot(String key) {
		return SlotHash.getSlot(key);
	}

	/** A failure's message, for a log line. */
	static String message(Throwable error) {
		Throwable cause = StoreConnection.unwrap(error);
		return cause.getMessage() == null ? cause.getClass().getSimpleName() : cause.getMessage();
	}

	/** A failure to pass on from inside a completion stage. */
	static CompletionException rethrow(Throwable error) {
		return error instanceof CompletionException completion ? completion : new CompletionException(error);
	}

	@Override
	public void close() {
		connection.close();
	}

}
