package dev.breaker.redis;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Clock;
import java.time.Duration;

import dev.breaker.core.BreakerRegistry;
import io.lettuce.core.RedisURI;
import redis.embedded.RedisServer;

/**
 * A real Redis server for tests: the embedded binary on a free loopback port, no
 * persistence, stoppable and restartable on the same port to play an outage. The fleet
 * benchmarks run on it too (the module's test jar holds it).
 */
public final class RedisServerHarness implements AutoCloseable {

	private final int port;

	private RedisServer server;

	private RedisServerHarness(int port) {
		this.port = port;
	}

	/** Starts a server on a free port. */
	public static RedisServerHarness start() {
		RedisServerHarness harness = new RedisServerHarness(freePort());
		harness.startServer();
		return harness;
	}

	public int port() {
		return port;
	}

	public String url() {
		return "redis://127.0.0.1:" + port;
	}

	/**
	 * Attaches {@code registry} to the fleet on this server as a replica, the way the
	 * auto-configuration does (default fleet settings but the quorum), and waits up to 10
	 * s for its first sync.
	 * @return the started sync; the caller closes it
	 * @throws IllegalStateException when the first sync did not come (the sync is closed)
	 */
	public FleetSync join(BreakerRegistry registry, String replicaId, int quorum) throws InterruptedException {
		SharedStoreStatus status = new SharedStoreStatus(replicaId, Clock.systemUTC());
		FleetSync sync = new FleetSync(registry, status, RedisURI.create("127.0.0.1", port),
				FleetSettings.defaults(quorum));
		sync.start();
		if (!sync.awaitFirstSync(Duration.ofSeconds(10))) {
			sync.close();
			throw new IllegalStateException("replica " + replicaId + " could not reach Redis on port " + port);
		}
		return sync;
	}

	/** Kills the server: connected clients see the connection drop. Its data is gone. */
	public synchronized void stop() {
		if (server != null) {
			try {
				server.stop();
			}
			catch (IOException e) {
				throw new UncheckedIOException(e);
			}
			server = null;
		}
	}

	/** Starts an empty server again on the same port. */
	public synchronized void restart() {
		stop();
		startServer();
	}

	private synchronized void startServer() {
		try {
			server = RedisServer.newRedisServer()
				.port(port)
				.bind("127.0.0.1")
				.setting("appendonly no")
				.setting("save \"\"")
				.build();
			server.start();
		}
		catch (IOException e) {
			throw new UncheckedIOException("could not start the embedded redis-server on port " + port, e);
		}
	}

	@Override
	public void close() {
		stop();
	}

	private static int freePort() {
		try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
			socket.setReuseAddress(true);
			return socket.getLocalPort();
		}
		catch (IOException e) {
			throw new UncheckedIOException(e);
		}
	}

}
