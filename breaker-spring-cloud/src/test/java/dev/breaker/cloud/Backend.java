package dev.breaker.cloud;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import com.sun.net.httpserver.HttpServer;

/**
 * A backend on loopback that answers 200 "stock of <path>", or 500 while it is made to
 * fail; counts its requests.
 */
final class Backend implements AutoCloseable {

	private final HttpServer server;

	private final AtomicBoolean failing = new AtomicBoolean();

	private final AtomicInteger requests = new AtomicInteger();

	Backend() throws IOException {
		this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
		this.server.createContext("/", (exchange) -> {
			this.requests.incrementAndGet();
			boolean fail = this.failing.get();
			byte[] body = (fail ? "backend down" : "stock of " + exchange.getRequestURI().getPath())
				.getBytes(StandardCharsets.UTF_8);
			exchange.getResponseHeaders().add("Content-Type", "text/plain");
			exchange.sendResponseHeaders(fail ? 500 : 200, body.length);
			try (OutputStream out = exchange.getResponseBody()) {
				out.write(body);
			}
		});
		this.server.start();
	}

	String url() {
		return "http://127.0.0.1:" + this.server.getAddress().getPort();
	}

	void fail(boolean fail) {
		this.failing.set(fail);
	}

	int requests() {
		return this.requests.get();
	}

	@Override
	public void close() {
		this.server.stop(0);
	}

}
