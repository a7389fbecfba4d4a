package dev.breaker.redis;

import java.time.Clock;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Whether this replica can reach the shared Redis store right now, and how often it could
 * not.
 *
 * <p>
 * Breakers never wait on the store: while it is down they decide alone. This is how an
 * operator (metrics, the actuator endpoint) sees that the fleet is currently not sharing.
 */
public final class SharedStoreStatus {

	private static final System.Logger LOG = System.getLogger(SharedStoreStatus.class.getName());

	private final String replicaId;

	private final Clock clock;

	private final AtomicLong errors = new AtomicLong();

	private final AtomicLong rejected = new AtomicLong();

	private volatile boolean up;

	private volatile String lastError;

	private volatile Instant lastErrorAt;

	private volatile Instant lastSync;

	public SharedStoreStatus(String replicaId, Clock clock) {
		this.replicaId = replicaId;
		this.clock = clock;
	}

	/** The id this replica signs its messages with. */
	public String replicaId() {
		return replicaId;
	}

	/** True while the store is connected and its last command succeeded. */
	public boolean up() {
		return up;
	}

	/** Store commands that failed or timed out, and connections lost, since start-up. */
	public long errors() {
		return errors.get();
	}

	/**
	 * Messages and stored values dropped since start-up: not in the fleet's format,
	 * malformed, or (with a signing key) not signed with the fleet's key or stale.
	 */
	public long rejected() {
		return rejected.get();
	}

	/** The last error's message, or {@code null} if there was none. */
	public String lastError() {
		return lastError;
	}

	/** When the last error happened, or {@code null}. */
	public Instant lastErrorAt() {
		return lastErrorAt;
	}

	/**
	 * When this replica last read the fleet's state of every breaker it knows, or
	 * {@code null} before the first time.
	 */
	public Instant lastSync() {
		return lastSync;
	}

	/** An immutable view for endpoints and logs. */
	public View view() {
		return new View(replicaId, up, errors.get(), rejected.get(), lastError, lastErrorAt, lastSync);
	}

	/** What {@link #view()} returns; serialises to JSON as it reads. */
	public record View(String replicaId, boolean up, long errors, long rejected, String lastError, Instant lastErrorAt,
			Instant lastSync) {
	}

	/** Redis answered; returns true when it was not reachable until now. */
	synchronized boolean markUp() {
		if (up) {
			return false;
		}
		up = true;
		LOG.log(System.Logger.Level.INFO, "breaker fleet store {0}; replica {1} shares breaker state",
				errors.get() == 0 ? "connected" : "reachable again", replicaId);
		return true;
	}

	/**
	 * Redis did not answer (timeout, connection lost or refused): breakers decide alone
	 * until it does.
	 */
	synchronized void markDown(Throwable cause) {
		if (up) {
			LOG.log(System.Logger.Level.WARNING,
					"breaker fleet store unreachable ({0}); breakers of replica {1} decide alone until it returns",
					describe(cause), replicaId);
		}
		up = false;
		countError(cause);
	}

	/**
	 * A command failed though Redis answered (an error reply): counted, but the store is
	 * still up.
	 */
	void countError(Throwable cause) {
		errors.incrementAndGet();
		lastError = describe(cause);
		lastErrorAt = clock.instant();
	}

	void markRejected() {
		rejected.incrementAndGet();
	}

	private static String describe(Throwable cause) {
		if (cause == null) {
			return "connection lost";
		}
		String message = cause.getMessage();
		return Printable.of(message == null ? cause.getClass().getSimpleName() : message, Printable.REASON);
	}

	void markSynced() {
		lastSync = clock.instant();
	}

}
