package dev.breaker.autoconfigure.redis;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Fleet mode: replicas share their breakers' state through Redis (the server configured
 * by {@code spring.data.redis.*}).
 */
@ConfigurationProperties("breaker.shared.redis")
public class SharedRedisProperties {

	/**
	 * Whether breakers share trips, closes, half-open probes and operators' overrides
	 * with the other replicas through Redis.
	 */
	private boolean enabled = false;

	/**
	 * Prefix of every key written: the open state of breaker payments lives under the
	 * prefix followed by payments.
	 */
	private String keyPrefix = "breaker:";

	/**
	 * Pub/sub channel on which replicas announce trips and closes.
	 */
	private String channel = "breaker:transitions";

	/**
	 * Id this replica signs its messages with; empty for host name, process id and a
	 * random suffix. At most 512 characters (peers drop messages with a longer one), not
	 * starting and ending with '~' (the form of the marks the fleet's hashes keep beside
	 * replica ids, such as '~wanted~').
	 */
	private String replicaId = "";

	/**
	 * How long one Redis command may take before it counts as failed. Calls never wait on
	 * it. From 1ms to 24h.
	 */
	private Duration timeout = Duration.ofMillis(500);

	/**
	 * Longest pause between attempts to reach Redis while it is down. The store's status
	 * is true within twice this: every half interval a cheap ping that fails after half
	 * an interval. From 100ms to 24h.
	 */
	private Duration reconnectInterval = Duration.ofSeconds(1);

	/**
	 * How long start-up waits for the first read of the fleet's state (so a new replica
	 * starts with open circuits open); when Redis does not answer in time, start-up goes
	 * on and the read happens in the background. From 0 to 24h.
	 */
	private Duration startupSyncTimeout = Duration.ofSeconds(2);

	/**
	 * How many distinct replicas must trip a breaker within its open wait before it opens
	 * on every replica; until then a trip stays on the replica that made it (its own
	 * network, its own bad node). 1: any replica's trip opens the fleet. The fleet
	 * window's trips, and a failed probe made for the fleet, open the fleet whatever the
	 * quorum.
	 */
	private int quorum = 2;

	/**
	 * Secret shared by the replicas: every message and value they write to Redis then
	 * carries an HMAC-SHA256, and unsigned, forged or stale ones are dropped and counted.
	 * Empty: no signing. At least 16 characters.
	 */
	private String signingKey = "";

	/**
	 * Whether breakers also trip on the fleet's combined failure rate: replicas add their
	 * window counts to Redis.
	 */
	private boolean fleetWindow = false;

	/**
	 * How often each replica adds its counts to the fleet window: the delay fleet-wide
	 * detection adds on top of the breaker's own window. From 1ms to 24h.
	 */
	private Duration flushInterval = Duration.ofSeconds(1);

	public boolean isEnabled() {
		return enabled;
	}

	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

	public String getKeyPrefix() {
		return keyPrefix;
	}

	public void setKeyPrefix(String keyPrefix) {
		this.keyPrefix = keyPrefix;
	}

	public String getChannel() {
		return channel;
	}

	public void setChannel(String channel) {
		this.channel = channel;
	}

	public String getReplicaId() {
		return replicaId;
	}

	public void setReplicaId(String replicaId) {
		this.replicaId = replicaId;
	}

	public Duration getTimeout() {
		return timeout;
	}

	public void setTimeout(Duration timeout) {
		this.timeout = timeout;
	}

	public Duration getReconnectInterval() {
		return reconnectInterval;
	}

	public void setReconnectInterval(Duration reconnectInterval) {
		this.reconnectInterval = reconnectInterval;
	}

	public Duration getStartupSyncTimeout() {
		return startupSyncTimeout;
	}

	public void setStartupSyncTimeout(Duration startupSyncTimeout) {
		this.startupSyncTimeout = startupSyncTimeout;
	}

	public int getQuorum() {
		return quorum;
	}

	public void setQuorum(int quorum) {
		this.quorum = quorum;
	}

	public String getSigningKey() {
		return signingKey;
	}

	public void setSigningKey(String signingKey) {
		this.signingKey = signingKey;
	}

	public boolean isFleetWindow() {
		return fleetWindow;
	}

	public void setFleetWindow(boolean fleetWindow) {
		this.fleetWindow = fleetWindow;
	}

	public Duration getFlushInterval() {
		return flushInterval;
	}

	public void setFlushInterval(Duration flushInterval) {
		this.flushInterval = flushInterval;
	}

}
