package dev.breaker.benchmarks.fleet;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import dev.breaker.core.BreakerRegistry;
import dev.breaker.redis.FleetSync;
import dev.breaker.redis.FleetSettings;
import dev.breaker.redis.SharedStoreStatus;
import io.lettuce.core.RedisURI;
import redis.embedded.RedisServer;

/**
 * A real Redis (the embedded binary) on a free loopback port, and replicas attached to
 * it.
 */
final class LocalRedis implements AutoCloseable {

	private final int port;

	private final RedisServer server;

	LocalRedis() {
		try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
			port = socket.getLocalPort();
		}
		catch (IOException e) {
			throw new UncheckedIOException(e);
		}
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
			throw new UncheckedIOException(e);
		}
	}

	int port() {
		return port;
	}

	/**
	 * Attaches a registry to the fleet as a replica with a quorum of 1, and waits for its
	 * first sync.
	 */
	FleetSync join(BreakerRegistry registry, String replicaId) throws InterruptedException {
		return join(registry, replicaId, 1);
	}

	/**
	 * Attaches a registry to the fleet as a replica, the way the auto-configuration does,
	 * and waits for its first sync.
	 */
	FleetSync join(BreakerRegistry registry, String replicaId, int quorum) throws InterruptedException {
		SharedStoreStatus status = new SharedStoreStatus(replicaId, Clock.systemUTC());
		RedisURI uri = RedisURI.create("127.0.0.1", port);
		FleetSync sync = new FleetSync(registry, status, uri, FleetSettings.defaults(quorum));
		sync.start();
		if (!sync.awaitFirstSync(Duration.ofSeconds(10))) {
			throw new IllegalStateException("replica " + replicaId + " could not reach Redis on port " + port);
		}
		return sync;
	}

	@Override
	public void close() {
		try {
			server.stop();
		}
		catch (IOException e) {
			throw new UncheckedIOException(e);
		}
	}

	static void pause(long millis) {
		try {
			TimeUnit.MILLISECONDS.sleep(millis);
		}
		catch (InterruptedException e) {
			Thread.currentThread().interrupt();
		}
	}

}
