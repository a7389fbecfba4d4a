package dev.breaker.sample.demo;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;

import redis.embedded.RedisServer;

/**
 * The fleet demo's Redis: the {@code redis-server} binary that the embedded-redis jar
 * carries, on a free loopback port, without persistence; killed and started again on the
 * same port to play an outage (it comes back empty, as a Redis without persistence does).
 */
final class EmbeddedRedis implements AutoCloseable {

	private final int port;

	private RedisServer server;

	private EmbeddedRedis(int port) {
		this.port = port;
	}

	/** Starts a server on a free loopback port. */
	static EmbeddedRedis start() {
		EmbeddedRedis redis = new EmbeddedRedis(freePort());
		redis.startServer();
		return redis;
	}

	int port() {
		return this.port;
	}

	synchronized boolean running() {
		return this.server != null;
	}

	/** Kills the server: every client's connection drops, its data is gone. */
	synchronized void kill() {
		if (this.server != null) {
			try {
				this.server.stop();
			}
			catch (IOException ex) {
				throw new UncheckedIOException("could not stop the embedded redis-server on port " + this.port, ex);
			}
			this.server = null;
		}
	}

	/** Starts an empty server again on the same port. */
	synchronized void restart() {
		kill();
		startServer();
	}

	private synchronized void startServer() {
		try {
			this.server = RedisServer.newRedisServer()
				.port(this.port)
				.bind("127.0.0.1")
				.setting("appendonly no")
				.setting("save \"\"")
				.build();
			this.server.start();
		}
		catch (IOException ex) {
			throw new UncheckedIOException("could not start the embedded redis-server on port " + this.port, ex);
		}
	}

	@Override
	public void close() {
		kill();
	}

	@Override
	public String toString() {
		return "redis-server on 127.0.0.1:" + this.port;
	}

	private static int freePort() {
		try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
			socket.setReuseAddress(true);
			return socket.getLocalPort();
		}
		catch (IOException ex) {
			throw new UncheckedIOException("no free loopback port for redis-server", ex);
		}
	}

}
