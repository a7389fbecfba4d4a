package dev.breaker.redis;

import java.time.Duration;
import java.util.Objects;

/**
 * How one replica takes part in the fleet.
 *
 * @param keyPrefix prefix of every key ({@link FleetKeys})
 * @param channel the pub/sub channel of announcements
 * @param timeout how long one Redis command may take
 * @param reconnectInterval longest pause between attempts to reach Redis; the store's
 * status is true within twice this
 * @param quorum how many distinct replicas must trip a breaker within its open wait
 * before it opens fleet-wide
 * @param signingKey the secret the fleet signs with; empty for no signing
 */
public record FleetSettings(String keyPrefix, String channel, Duration timeout, Duration reconnectInterval, int quorum,
		String signingKey) {

	public FleetSettings {
		Objects.requireNonNull(keyPrefix, "keyPrefix");
		Objects.requireNonNull(channel, "channel");
		Objects.requireNonNull(timeout, "timeout");
		Objects.requireNonNull(reconnectInterval, "reconnectInterval");
		if (quorum < 1) {
			throw new IllegalArgumentException("quorum must be at least 1 but was " + quorum);
		}
		signingKey = signingKey == null ? "" : signingKey;
	}

	/** The defaults of {@code breaker.shared.redis.*}, with another quorum. */
	public static FleetSettings defaults(int quorum) {
		return new FleetSettings("breaker:", "breaker:transitions", Duration.ofMillis(500), Duration.ofSeconds(1),
				quorum, "");
	}

	@Override
	public String toString() {
		// never print the secret
		return "FleetSettings[keyPrefix=" + keyPrefix + ", channel=" + channel + ", timeout=" + timeout
				+ ", reconnectInterval=" + reconnectInterval + ", quorum=" + quorum + ", signed="
				+ !signingKey.isEmpty() + "]";
	}
}
