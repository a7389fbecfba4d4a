package dev.breaker.redis;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Collectors;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.sentinel.api.StatefulRedisSentinelConnection;

/**
 * The Sentinel set-up production runs, on loopback: a primary, one replica and three
 * Sentinels (quorum 2, a primary is down after 1 s without an answer). Data nodes and
 * Sentinels want passwords: the Sentinels a user of their own ({@link #SENTINEL_USER}),
 * the data nodes their default user's {@link #ADMIN_PASSWORD} (for the Sentinels and the
 * replication) plus whatever users the test adds.
 */
public final class RedisSentinelSet implements AutoCloseable {

	public static final String MASTER = "fleet";

	public static final String ADMIN_PASSWORD = "admin-secret";

	public static final String SENTINEL_USER = "watcher";

	public static final String SENTINEL_PASSWORD = "watcher-secret";

	private final Path dir;

	private final List<RedisProcess> servers = new ArrayList<>();

	private final List<RedisProcess> sentinels = new ArrayList<>();

	private RedisSentinelSet(Path dir) {
		this.dir = dir;
	}

	/**
	 * Starts the set and waits until every Sentinel knows the primary, its replica and
	 * the other two Sentinels.
	 */
	public static RedisSentinelSet start(String... dataNodeConfig) {
		RedisSentinelSet set;
		try {
			set = new RedisSentinelSet(Files.createTempDirectory("breaker-sentinel"));
		}
		catch (IOException e) {
			throw new UncheckedIOException(e);
		}
		try {
			set.startAll(dataNodeConfig);
			return set;
		}
		catch (RuntimeException e) {
			set.close();
			throw e;
		}
	}

	private void startAll(String... dataNodeConfig) {
		List<String> node = new ArrayList<>(
				// the replica syncs at once, not after the default 5 s
				List.of("requirepass " + ADMIN_PASSWORD, "masterauth " + ADMIN_PASSWORD, "repl-diskless-sync-delay 0"));
		node.addAll(List.of(dataNodeConfig));
		RedisProcess primary = RedisProcess.server(dir.resolve("primary"), node.toArray(String[]::new));
		servers.add(primary);
		List<String> replica = new ArrayList<>(node);
		replica.add("replicaof 127.0.0.1 " + primary.port());
		servers.add(RedisProcess.server(dir.resolve("replica"), replica.toArray(String[]::new)));
		awaitReplicaInSync(servers.get(1));
		for (int i = 0; i < 3; i++) {
			sentinels.add(RedisProcess.sentinel(dir.resolve("sentinel-" + i),
					"sentinel monitor " + MASTER + " 127.0.0.1 " + primary.port() + " 2",
					"sentinel auth-pass " + MASTER + " " + ADMIN_PASSWORD,
					"sentinel down-after-milliseconds " + MASTER + " 1000",
					"sentinel failover-timeout " + MASTER + " 4000", "user default off",
					"user " + SENTINEL_USER + " on >" + SENTINEL_PASSWORD + " allchannels +@all",
					"sentinel sentinel-user " + SENTINEL_USER, "sentinel sentinel-pass " + SENTINEL_PASSWORD));
		}
		awaitSentinelsAgree(1);
	}

	/**
	 * {@code host:port,host:port,host:port}, for
	 * {@code spring.data.redis.sentinel.nodes}.
	 */
	public String sentinelNodes() {
		return sentinels.stream().map(RedisProcess::address).collect(Collectors.joining(","));
	}

	/** The data nodes, primary first at start-up. */
	public List<RedisProcess> servers() {
		return servers;
	}

	/** The port of the primary as the Sentinels name it now. */
	public int primaryPort() {
		return onSentinel(0, s -> ((InetSocketAddress) s.sync().getMasterAddrByName(MASTER)).getPort());
	}

	/** Crashes the primary (SIGKILL); returns its port. */
	public int killPrimary() {
		int port = primaryPort();
		servers.stream().filter(s -> s.port() == port).findFirst().orElseThrow().kill();
		return port;
	}

	/**
	 * Waits until the Sentinels name another primary than {@code oldPort}; returns
	 * System.nanoTime() then.
	 */
	public long awaitPromotion(int oldPort, Duration timeout) {
		long deadline = System.nanoTime() + timeout.toNanos();
		while (System.nanoTime() < deadline) {
			try {
				SocketAddress address = onSentinel(1, s -> s.sync().getMasterAddrByName(MASTER));
				if (((InetSocketAddress) address).getPort() != oldPort) {
					return System.nanoTime();
				}
			}
			catch (RuntimeException busy) {
				// a Sentinel in the middle of the failover: ask again
			}
			RedisProcess.pause(20);
		}
		throw new IllegalStateException("the Sentinels promoted no replica within " + timeout);
	}

	/**
	 * Runs {@code work} on an admin connection (the default user) to the current primary.
	 */
	public <T> T onPrimary(Function<StatefulRedisConnection<String, String>, T> work) {
		return onNode(primaryPort(), work);
	}

	private <T> T onNode(int port, Function<StatefulRedisConnection<String, String>, T> work) {
		RedisClient client = RedisClient.create(RedisURI.builder()
			.withHost("127.0.0.1")
			.withPort(port)
			.withPassword(ADMIN_PASSWORD.toCharArray())
			.withTimeout(Duration.ofSeconds(2))
			.build());
		try (StatefulRedisConnection<String, String> connection = client.connect()) {
			return work.apply(connection);
		}
		finally {
			client.shutdown(Duration.ZERO, Duration.ofSeconds(1));
		}
	}

	private <T> T onSentinel(int index, Function<StatefulRedisSentinelConnection<String, String>, T> work) {
		RedisProcess sentinel = sentinels.get(index % sentinels.size());
		RedisClient client = RedisClient.create(RedisURI.builder()
			.withHost("127.0.0.1")
			.withPort(sentinel.port())
			.withAuthentication(SENTINEL_USER, SENTINEL_PASSWORD.toCharArray())
			.withTimeout(Duration.ofSeconds(2))
			.build());
		try (StatefulRedisSentinelConnection<String, String> connection = client.connectSentinel()) {
			return work.apply(connection);
		}
		finally {
			client.shutdown(Duration.ZERO, Duration.ofSeconds(1));
		}
	}

	private boolean inSync(RedisProcess node) {
		try {
			String info = onNode(node.port(), c -> c.sync().info("replication"));
			return info.contains("role:slave") && info.contains("master_link_status:up");
		}
		catch (RuntimeException notYet) {
			return false;
		}
	}

	private void awaitReplicaInSync(RedisProcess replica) {
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
		while (!inSync(replica)) {
			if (System.nanoTime() > deadline) {
				throw new IllegalStateException("the replica did not get in sync with the primary");
			}
			RedisProcess.pause(50);
		}
	}

	/**
	 * Every Sentinel knows the other two and {@code replicas} replica(s) in sync, and
	 * none sees the primary down.
	 */
	private void awaitSentinelsAgree(int replicas) {
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
		while (System.nanoTime() < deadline) {
			boolean agreed = true;
			for (int i = 0; i < sentinels.size() && agreed; i++) {
				try {
					Map<String, String> master = onSentinel(i, s -> s.sync().master(MASTER));
					agreed = "2".equals(master.get("num-other-sentinels"))
							&& String.valueOf(replicas).equals(master.get("num-slaves"))
							&& "master".equals(master.get("flags"));
				}
				catch (RuntimeException notYet) {
					agreed = false;
				}
			}
			if (agreed) {
				return;
			}
			RedisProcess.pause(100);
		}
		throw new IllegalStateException(
				"the Sentinels did not agree on the set-up within 30 s; see the logs under " + dir);
	}

	@Override
	public void close() {
		sentinels.forEach(RedisProcess::close);
		servers.forEach(RedisProcess::close);
	}

}
