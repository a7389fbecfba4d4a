package dev.breaker.redis;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;

import redis.embedded.RedisServer;

/**
 * A real Redis server for tests: the embedded binary on a free loopback port, no
 * persistence, stoppable and restartable on the same port to play an outage.
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
