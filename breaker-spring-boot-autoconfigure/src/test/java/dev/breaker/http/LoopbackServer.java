package dev.breaker.http;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.HttpURLConnection;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.breaker.core.Breaker;
import dev.breaker.core.BreakerRegistry;

import org.springframework.context.ApplicationContext;

/**
 * A real HTTP server on loopback (JDK {@code HttpServer}, port 0) that answers as told by
 * the path, and counts the requests that reached it.
 *
 * <ul>
 * <li>{@code /status/{code}[?retry-after=v]}: that status, with that
 * {@code Retry-After}</li>
 * <li>{@code /hang}: never answers until the server closes</li>
 * <li>{@code /flaky}: the status last given to {@link #flakyStatus(int)} (200 at
 * first)</li>
 * <li>{@code /failing}: the next {@link #failNext(int, int, String)} requests answer that
 * status (with that {@code Retry-After}, if any), then 200</li>
 * </ul>
 * Every request's method, body and {@code Idempotency-Key} header is kept
 * ({@link #received()}).
 */
public final class LoopbackServer implements AutoCloseable {

	static {
		// Without TCP_NODELAY the JDK server's separate header and body writes meet the
		// client's delayed ACK: about 40 ms a request, too much for thousands of them.
		System.setProperty("sun.net.httpserver.nodelay", "true");
	}

	/** One request as the server saw it. */
	public record Received(String method, String path, String body, String idempotencyKey) {
	}

	private final java.util.List<Received> received = new java.util.concurrent.CopyOnWriteArrayList<>();

	private final AtomicInteger failuresLeft = new AtomicInteger();

	private volatile int failStatus = 503;

	private volatile String failRetryAfter;

	private volatile boolean keepRequests = true;

	private final HttpServer server;

	private final ExecutorService executor = Executors.newCachedThreadPool();

	private final AtomicInteger requests = new AtomicInteger();

	private final AtomicInteger flakyStatus = new AtomicInteger(200);

	private final CountDownLatch closing = new CountDownLatch(1);

	/**
	 * A started server, for a field a test closes with {@code @AutoClose}: a new one for
	 * every test.
	 */
	public static LoopbackServer start() {
		try {
			return new LoopbackServer();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	public LoopbackServer() throws IOException {
		this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 50);
		this.server.setExecutor(this.executor);
		this.server.createContext("/", this::handle);
		this.server.start();
		warmUp();
	}

	// The first answer of a fresh server is slow (threads, class loading); tests with
	// short read timeouts should measure the breaker, not that.
	private void warmUp() throws IOException {
		HttpURLConnection connection = (HttpURLConnection) uri("/status/200").toURL().openConnection();
		try (InputStream body = connection.getInputStream()) {
			body.readAllBytes();
		}
		finally {
			connection.disconnect();
		}
		this.requests.set(0);
		this.received.clear();
	}

	/** {@code http://127.0.0.1:<port>} */
	public String url() {
		return "http://127.0.0.1:" + this.server.getAddress().getPort();
	}

	public URI uri(String path) {
		return URI.create(url() + path);
	}

	/** The name of the breaker guarding this server: {@code http:127.0.0.1:<port>}. */
	public String breakerName() {
		return "http:127.0.0.1:" + this.server.getAddress().getPort();
	}

	/** The breaker guarding this server in {@code context}, once a request made it. */
	public Breaker breaker(ApplicationContext context) {
		return context.getBean(BreakerRegistry.class).find(breakerName()).orElseThrow();
	}

	public int requests() {
		return this.requests.get();
	}

	public void flakyStatus(int status) {
		this.flakyStatus.set(status);
	}

	/**
	 * The next {@code times} requests to {@code /failing} answer {@code status}; then
	 * 200.
	 */
	public void failNext(int times, int status, String retryAfter) {
		this.failStatus = status;
		this.failRetryAfter = retryAfter;
		this.failuresLeft.set(times);
	}

	/** The requests so far, oldest first (none kept after {@link #keepNoRequests()}). */
	public java.util.List<Received> received() {
		return java.util.List.copyOf(this.received);
	}

	/** Stops keeping requests (for tests that send many thousands). */
	public void keepNoRequests() {
		this.keepRequests = false;
	}

	/** A URL on loopback where nothing listens: the port was bound, then let go. */
	public static URI refusingUri() throws IOException {
		try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
			return URI.create("http://127.0.0.1:" + socket.getLocalPort() + "/");
		}
	}

	private void handle(HttpExchange exchange) throws IOException {
		this.requests.incrementAndGet();
		try (exchange) {
			byte[] body = exchange.getRequestBody().readAllBytes();
			String path = exchange.getRequestURI().getPath();
			if (this.keepRequests) {
				this.received
					.add(new Received(exchange.getRequestMethod(), path, new String(body, StandardCharsets.UTF_8),
							exchange.getRequestHeaders().getFirst("Idempotency-Key")));
			}
			if (path.equals("/failing")) {
				if (this.failuresLeft.getAndUpdate((n) -> Math.max(0, n - 1)) > 0) {
					if (this.failRetryAfter != null) {
						exchange.getResponseHeaders().add("Retry-After", this.failRetryAfter);
					}
					respond(exchange, this.failStatus);
				}
				else {
					respond(exchange, 200);
				}
			}
			else if (path.equals("/hang")) {
				awaitClose();
				respond(exchange, 200);
			}
			else if (path.equals("/flaky")) {
				respond(exchange, this.flakyStatus.get());
			}
			else if (path.startsWith("/status/")) {
				String query = exchange.getRequestURI().getRawQuery();
				if (query != null && query.startsWith("retry-after=")) {
					String value = URLDecoder.decode(query.substring("retry-after=".length()), StandardCharsets.UTF_8);
					exchange.getResponseHeaders().add("Retry-After", value);
				}
				respond(exchange, Integer.parseInt(path.substring("/status/".length())));
			}
			else {
				respond(exchange, 404);
			}
		}
	}

	private void awaitClose() {
		try {
			this.closing.await(30, TimeUnit.SECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	private static void respond(HttpExchange exchange, int status) throws IOException {
		byte[] body = ("status " + status).getBytes(StandardCharsets.UTF_8);
		exchange.getResponseHeaders().add("Content-Type", "text/plain");
		exchange.sendResponseHeaders(status, body.length);
		try (OutputStream out = exchange.getResponseBody()) {
			out.write(body);
		}
	}

	@Override
	public void close() {
		this.closing.countDown();
		this.server.stop(0);
		this.executor.shutdownNow();
	}

}
