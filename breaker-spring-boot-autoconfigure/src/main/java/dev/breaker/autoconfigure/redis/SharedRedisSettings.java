package dev.breaker.autoconfigure.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.StringJoiner;

import dev.breaker.autoconfigure.InvalidBreakerPropertyException;
import dev.breaker.core.BreakerSetting;
import dev.breaker.core.Numbers;
import dev.breaker.redis.FleetKeys;
import dev.breaker.redis.FleetMessage;
import dev.breaker.redis.FleetRedis;
import dev.breaker.redis.FleetSettings;
import io.lettuce.core.RedisURI;
import io.lettuce.core.SslOptions;

import org.springframework.boot.data.redis.autoconfigure.DataRedisConnectionDetails;
import org.springframework.boot.ssl.SslBundle;

/** Turns the properties into what the store needs, refusing values that cannot work. */
final class SharedRedisSettings {

	private static final int MIN_SIGNING_KEY = 16;

	/** How fleet connections show in {@code CLIENT LIST}. */
	static final String CLIENT_NAME = "breaker-fleet";

	private static final Duration MIN_MILLIS = Duration.ofMillis(1);

	private static final Duration MIN_RECONNECT_INTERVAL = Duration.ofMillis(100);

	private static final String REPLICA_ID_ALLOWED = "empty (host name, process id and a random suffix), or at most "
			+ FleetMessage.MAX_REPLICA + " characters: the other replicas drop a message with a longer replica id; "
			+ "not starting and ending with '~': the fleet's hashes keep marks such as '" + FleetKeys.WANTED
			+ "' beside replica ids";

	private SharedRedisSettings() {
	}

	/**
	 * Stops start-up (reported by the starter's failure analysis) on a value that cannot
	 * work.
	 */
	static void validate(SharedRedisProperties properties) {
		between("breaker.shared.redis.timeout", properties.getTimeout(), MIN_MILLIS);
		between("breaker.shared.redis.reconnect-interval", properties.getReconnectInterval(), MIN_RECONNECT_INTERVAL);
		between("breaker.shared.redis.flush-interval", properties.getFlushInterval(), MIN_MILLIS);
		Duration startup = properties.getStartupSyncTimeout();
		if (startup == null || startup.isNegative()) {
			throw new InvalidBreakerPropertyException("breaker.shared.redis.startup-sync-timeout", startup,
					"a duration of 0 or more (0: do not wait for Redis at start-up)");
		}
		atMostADay("breaker.shared.redis.startup-sync-timeout", startup);
		notEmpty("breaker.shared.redis.key-prefix", properties.getKeyPrefix());
		notEmpty("breaker.shared.redis.channel", properties.getChannel());
		String replicaId = properties.getReplicaId();
		// too long, peers would drop every message of this replica; of a mark's form, its
		// probe slots would be read as the mark and the mark as its slots. The store
		// refuses both too, but naming no property. A generated id ends in its random
		// hex suffix, so it never has a mark's form.
		if (replicaId != null
				&& (replicaId.length() > FleetMessage.MAX_REPLICA || FleetKeys.reservedForMarks(replicaId))) {
			throw new InvalidBreakerPropertyException("breaker.shared.redis.replica-id", replicaId, REPLICA_ID_ALLOWED);
		}
		if (properties.getQuorum() < 1) {
			throw new InvalidBreakerPropertyException("breaker.shared.redis.quorum", properties.getQuorum(),
					"1 or more (1: any replica's trip opens the fleet)");
		}
		String key = properties.getSigningKey();
		if (key != null && !key.isEmpty() && key.length() < MIN_SIGNING_KEY) {
			// never echo a secret, not even a short one
			throw new InvalidBreakerPropertyException("breaker.shared.redis.signing-key",
					"<" + key.length() + " characters>", "empty (no signing), or a secret of at least "
							+ MIN_SIGNING_KEY + " characters shared by every replica");
		}
	}

	/** The store's settings from the properties (after {@link #validate}). */
	static FleetSettings settings(SharedRedisProperties properties) {
		return new FleetSettings(properties.getKeyPrefix(), properties.getChannel(), properties.getTimeout(),
				properties.getReconnectInterval(), properties.getQuorum(), properties.getSigningKey());
	}

	/**
	 * Positive, at least {@code min} (the store's timers count in milliseconds; its ping
	 * runs every half reconnect interval, and Lettuce's reconnect delay starts at 20ms)
	 * and at most a day.
	 */
	private static void between(String property, Duration value, Duration min) {
		if (!BreakerSetting.Range.positive(value)) {
			throw new InvalidBreakerPropertyException(property, value, BreakerSetting.Range.POSITIVE_DURATION);
		}
		if (value.compareTo(min) < 0) {
			throw new InvalidBreakerPropertyException(property, value, "at least " + Numbers.format(min));
		}
		atMostADay(property, value);
	}

	/**
	 * A day at most, as every duration of breaker: past 292 years nanoseconds overflow,
	 * and long before that an interval leaves the replica blind to the fleet.
	 */
	private static void atMostADay(String property, Duration value) {
		Duration max = BreakerSetting.Range.MAX_DURATION;
		if (value.compareTo(max) > 0) {
			throw new InvalidBreakerPropertyException(property, value, "at most " + Numbers.format(max));
		}
	}

	private static void notEmpty(String property, String value) {
		if (value == null || value.isEmpty()) {
			throw new InvalidBreakerPropertyException(property, value, "a non-empty string");
		}
	}

	/**
	 * The Redis that {@code spring.data.redis.*} describes, as Spring Data Redis reads
	 * it: the Sentinels and the primary's name ({@code sentinel.*}) first, then the
	 * Cluster's nodes ({@code cluster.nodes}), else the one server
	 * ({@code host}/{@code port}/{@code database} or {@code url}); localhost:6379 without
	 * any. Credentials ({@code username}/{@code password}, and
	 * {@code sentinel.username}/{@code sentinel.password} for the Sentinels) and TLS
	 * ({@code ssl.enabled}, {@code ssl.bundle}) apply to every node. A static
	 * master/replica set-up is refused: fleet mode writes, so it needs the primary, which
	 * only Sentinel or a Cluster can find again after a failover.
	 */
	static FleetRedis redis(DataRedisConnectionDetails details, Duration timeout) {
		if (details == null) {
			return FleetRedis.of(fleet(RedisURI.builder().withHost("127.0.0.1").withPort(6379), timeout).build());
		}
		SslBundle bundle = details.getSslBundle();
		boolean ssl = bundle != null;
		FleetRedis redis;
		if (details.getSentinel() != null) {
			redis = FleetRedis.of(sentinel(details, details.getSentinel(), ssl, timeout));
		}
		else if (details.getCluster() != null) {
			List<RedisURI> nodes = new ArrayList<>();
			for (DataRedisConnectionDetails.Node node : details.getCluster().getNodes()) {
				RedisURI.Builder uri = RedisURI.builder().withHost(node.host()).withPort(node.port()).withSsl(ssl);
				nodes.add(fleet(credentials(uri, details.getUsername(), details.getPassword()), timeout).build());
			}
			if (nodes.isEmpty()) {
				throw new InvalidBreakerPropertyException("spring.data.redis.cluster.nodes", "",
						"at least one host:port of the Cluster");
			}
			redis = FleetRedis.cluster(nodes);
		}
		else if (details.getMasterReplica() != null) {
			throw new InvalidBreakerPropertyException("spring.data.redis.masterreplica.nodes",
					nodes(details.getMasterReplica().getNodes()),
					"no value while breaker.shared.redis.enabled=true: fleet mode writes, so it needs the primary even after "
							+ "a failover; use Sentinel (spring.data.redis.sentinel.*), a Cluster (spring.data.redis.cluster.nodes), "
							+ "or spring.data.redis.host naming the primary");
		}
		else {
			DataRedisConnectionDetails.Standalone standalone = details.getStandalone();
			RedisURI.Builder uri = RedisURI.builder()
				.withHost(standalone.getHost())
				.withPort(standalone.getPort())
				.withDatabase(standalone.getDatabase())
				.withSsl(ssl);
			redis = FleetRedis
				.of(fleet(credentials(uri, details.getUsername(), details.getPassword()), timeout).build());
		}
		return ssl ? redis.withSsl(sslOptions(bundle)) : redis;
	}

	private static RedisURI sentinel(DataRedisConnectionDetails details, DataRedisConnectionDetails.Sentinel sentinel,
			boolean ssl, Duration timeout) {
		RedisURI.Builder uri = RedisURI.builder()
			.withSentinelMasterId(sentinel.getMaster())
			.withDatabase(sentinel.getDatabase())
			.withSsl(ssl);
		credentials(uri, details.getUsername(), details.getPassword());
		for (DataRedisConnectionDetails.Node node : sentinel.getNodes()) {
			RedisURI.Builder watcher = RedisURI.builder().withHost(node.host()).withPort(node.port()).withSsl(ssl);
			uri.withSentinel(
					fleet(credentials(watcher, sentinel.getUsername(), sentinel.getPassword()), timeout).build());
		}
		if (sentinel.getNodes().isEmpty()) {
			throw new InvalidBreakerPropertyException("spring.data.redis.sentinel.nodes", "",
					"at least one host:port of a Sentinel");
		}
		// after the Sentinels: their URIs take the name and timeout too
		return fleet(uri, timeout).build();
	}

	private static RedisURI.Builder credentials(RedisURI.Builder uri, String username, String password) {
		if (password != null) {
			if (username != null && !username.isEmpty()) {
				uri.withAuthentication(username, password.toCharArray());
			}
			else {
				uri.withPassword(password.toCharArray());
			}
		}
		return uri;
	}

	/**
	 * What every fleet connection carries: the fleet's timeout (also for asking the
	 * Sentinels), a client name an operator sees in {@code CLIENT LIST} (sent in the
	 * {@code HELLO} handshake), and no {@code CLIENT SETINFO} after it, so the fleet's
	 * ACL user needs no {@code CLIENT} command at all.
	 */
	private static RedisURI.Builder fleet(RedisURI.Builder uri, Duration timeout) {
		return uri.withTimeout(timeout).withClientName(CLIENT_NAME).withLibraryName("").withLibraryVersion("");
	}

	private static SslOptions sslOptions(SslBundle bundle) {
		SslOptions.Builder options = SslOptions.builder()
			.keyManager(bundle.getManagers().getKeyManagerFactory())
			.trustManager(bundle.getManagers().getTrustManagerFactory());
		if (bundle.getOptions().getCiphers() != null) {
			options.cipherSuites(bundle.getOptions().getCiphers());
		}
		if (bundle.getOptions().getEnabledProtocols() != null) {
			options.protocols(bundle.getOptions().getEnabledProtocols());
		}
		return options.build();
	}

	private static String nodes(List<DataRedisConnectionDetails.Node> nodes) {
		StringJoiner joined = new StringJoiner(",");
		nodes.forEach(node -> joined.add(node.host() + ":" + node.port()));
		return joined.toString();
	}

}
