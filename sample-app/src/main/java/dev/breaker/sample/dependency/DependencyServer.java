package dev.breaker.sample.dependency;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

/**
 * A remote dependency of the sample: a real HTTP server on its own loopback port, with
 * its own bounded pool of worker threads, whose behaviour is switched by
 * {@link #chaos(Chaos)}.
 */
public final class DependencyServer implements AutoCloseable {

	/** What the dependency answers when it is healthy. */
	@FunctionalInterface
	public interface Endpoint {

		/** The answer to one request; {@code body} is the request body as text. */
		Answer answer(String method, String path, String body);

	}

	/** An HTTP answer: a status and a JSON body. */
	public record Answer(int status, String json) {

		public static Answer ok(String json) {
			return new Answer(200, json);
		}

	}

	/** What a dependency has done since it started, for the chaos API and the page. */
	public record Counts(long answered, long failed, long wedged, int inProgress) {
	}

	static {
		// The JDK server writes the headers and the body of an answer as two segments;
		// without TCP_NODELAY the second waits for the client's delayed ACK, adding
		// ~40 ms to every answer. Read once, by the process's first JDK HttpServer.
		if (System.getProperty("sun.net.httpserver.nodelay") == null) {
			System.setProperty("sun.net.httpserver.nodelay", "true");
		}
	}

	private final String name;

	private final Duration latency;

	private final Duration maxWedge;

	private final Endpoint endpoint;

	private final HttpServer server;

	private final ExecutorService workers;

	private final AtomicInteger inProgress = new AtomicInteger();

	private final LongAdder received = new LongAdder();

	private final LongAdder answered = new LongAdder();

	private final LongAdder failed = new LongAdder();

	private final LongAdder wedged = new LongAdder();

	private volatile Chaos chaos;

	// Wedged requests wait on this latch; changing the mode counts it down so that the
	// worker threads they hold come back when the incident ends, long after their
	// callers gave up.
	private volatile CountDownLatch wedge = new CountDownLatch(0);

	private DependencyServer(String name, int threads, Duration latency, Duration maxWedge, Chaos initial,
			Endpoint endpoint) throws IOException {
		this.name = name;
		this.latency = latency;
		this.maxWedge = maxWedge;
		this.endpoint = endpoint;
		this.chaos = initial;
		AtomicInteger threadNumber = new AtomicInteger();
		this.workers = new ThreadPoolExecutor(threads, threads, 0, TimeUnit.MILLISECONDS, new LinkedBlockingQueue<>(),
				(task) -> {
					Thread thread = new Thread(task, name + "-server-" + threadNumber.incrementAndGet());
					thread.setDaemon(true);
					return thread;
				});
		this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 512);
		this.server.setExecutor(this.workers);
		this.server.createContext("/", this::handle);
	}

	/**
	 * Starts a dependency on a free loopback port.
	 * @param name the dependency's name in the chaos API, e.g. {@code "payments"}
	 * @param threads the size of its worker pool: what it can serve at once
	 * @param latency how long a healthy answer takes
	 * @param maxWedge the longest a wedged request is held before the server lets it go
	 * @param initial the chaos it starts with
	 * @param endpoint what it answers when healthy
	 */
	public static DependencyServer start(String name, int threads, Duration latency, Duration maxWedge, Chaos initial,
			Endpoint endpoint) throws IOException {
		DependencyServer dependency = new DependencyServer(name, threads, latency, maxWedge, initial, endpoint);
		dependency.server.start();
		return dependency;
	}

	public String name() {
		return this.name;
	}

	/** Where it listens, e.g. {@code http://127.0.0.1:41234}. */
	public URI baseUri() {
		InetSocketAddress address = this.server.getAddress();
		return URI.create("http://" + address.getAddress().getHostAddress() + ":" + address.getPort());
	}

	public Chaos chaos() {
		return this.chaos;
	}

	/**
	 * Switches the dependency's behaviour for every request from now on; releases wedged
	 * ones.
	 */
	public synchronized void chaos(Chaos next) {
		CountDownLatch previous = this.wedge;
		this.wedge = (next.mode() == ChaosMode.WEDGED) ? new CountDownLatch(1) : new CountDownLatch(0);
		this.chaos = next;
		previous.countDown();
	}

	public Counts counts() {
		return new Counts(this.answered.sum(), this.failed.sum(), this.wedged.sum(), this.inProgress.get());
	}

	/** Requests that reached the server since it started, whatever became of them. */
	public long received() {
		return this.received.sum();
	}

	private void handle(HttpExchange exchange) throws IOException {
		this.received.increment();
		this.inProgress.incrementAndGet();
		try (exchange) {
			String body = readBody(exchange.getRequestBody());
			Chaos current = this.chaos;
			switch (current.mode()) {
				case HEALTHY -> answer(exchange, body, this.latency);
				case SLOW -> answer(exchange, body, current.slowLatency());
				case WEDGED -> hang(exchange, body);
				case DOWN -> fail(exchange, 503, "down");
				case FLAKY -> {
					if (ThreadLocalRandom.current().nextInt(100) < current.failurePercent()) {
						pause(this.latency);
						fail(exchange, 500, "flaky");
					}
					else {
						answer(exchange, body, this.latency);
					}
				}
			}
		}
		finally {
			this.inProgress.decrementAndGet();
		}
	}

	private void answer(HttpExchange exchange, String body, Duration after) throws IOException {
		pause(after);
		Answer answer = this.endpoint.answer(exchange.getRequestMethod(), exchange.getRequestURI().getPath(), body);
		if (answer.status() >= 500) {
			this.failed.increment();
		}
		else {
			this.answered.increment();
		}
		send(exchange, answer.status(), answer.json());
	}

	private void hang(HttpExchange exchange, String body) throws IOException {
		this.wedged.increment();
		try {
			this.wedge.await(this.maxWedge.toMillis(), TimeUnit.MILLISECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return;
		}
		// The caller timed out long ago: the answer fails quietly on a closed connection.
		try {
			answer(exchange, body, Duration.ZERO);
		}
		catch (IOException ex) {
			// expected: nobody is listening any more
		}
	}

	private void fail(HttpExchange exchange, int status, String reason) throws IOException {
		this.failed.increment();
		send(exchange, status, "{\"error\":\"" + this.name + " is " + reason + "\"}");
	}

	private static void send(HttpExchange exchange, int status, String json) throws IOException {
		byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
		exchange.getResponseHeaders().set("Content-Type", "application/json");
		exchange.sendResponseHeaders(status, bytes.length);
		try (OutputStream out = exchange.getResponseBody()) {
			out.write(bytes);
		}
	}

	private static String readBody(InputStream in) throws IOException {
		return new String(in.readAllBytes(), StandardCharsets.UTF_8);
	}

	private static void pause(Duration duration) {
		if (duration.isZero()) {
			return;
		}
		try {
			Thread.sleep(duration.toMillis());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	@Override
	public void close() {
		chaos(this.chaos.withMode(ChaosMode.HEALTHY));
		this.server.stop(0);
		this.workers.shutdownNow();
	}

	@Override
	public String toString() {
		return this.name + " at " + baseUri() + " (" + this.chaos.mode().label() + ")";
	}

}
