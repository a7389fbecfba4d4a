package dev.breaker.sample.demo;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * An open-loop load generator on loopback: it sends at a fixed rate whatever the answers
 * take (as real customers do), so a slow server sees requests pile up instead of a
 * politely waiting client. Bounded in time, in count and in requests in flight.
 */
final class LoadGenerator implements AutoCloseable {

	/** What a request asks for. */
	enum Endpoint {

		CHECKOUT, CATALOG, RECOMMENDATIONS

	}

	/** How a request ended. */
	enum Result {

		/** Answered by the service itself. */
		OK,
		/** Answered by a fallback (payment queued, recommendations not live). */
		FALLBACK,
		/** Answered with an error status. */
		ERROR,
		/** No answer within the client's timeout, or the connection failed. */
		TIMEOUT,
		/** Not sent: the generator already had its maximum of requests in flight. */
		NOT_SENT

	}

	/** One finished request. */
	record Sample(Endpoint endpoint, long sentNanos, long doneNanos, Result result) {

		long latencyNanos() {
			return this.doneNanos - this.sentNanos;
		}

		boolean answered() {
			return this.result == Result.OK || this.result == Result.FALLBACK;
		}

	}

	// Three checkouts, six catalog views and one recommendation in every ten requests.
	private static final Endpoint[] MIX = { Endpoint.CHECKOUT, Endpoint.CATALOG, Endpoint.CATALOG,
			Endpoint.RECOMMENDATIONS, Endpoint.CATALOG, Endpoint.CHECKOUT, Endpoint.CATALOG, Endpoint.CATALOG,
			Endpoint.CHECKOUT, Endpoint.CATALOG };

	private final URI base;

	private final int ratePerSecond;

	private final long rampNanos;

	private final long maxRequests;

	private final Duration timeout;

	private final int maxInFlight;

	private final ExecutorService clientThreads;

	private final HttpClient client;

	private final ConcurrentLinkedQueue<Sample> finished = new ConcurrentLinkedQueue<>();

	private final AtomicInteger inFlight = new AtomicInteger();

	private volatile boolean running;

	private volatile long sent;

	private Thread dispatcher;

	/**
	 * @param base where the app listens
	 * @param ratePerSecond the steady rate
	 * @param ramp how long the rate takes to climb from 0 to the steady rate (a cold JVM
	 * is not hit at full rate)
	 * @param maxDuration when sending stops
	 * @param timeout how long a request may take before it counts as unanswered
	 * @param maxInFlight the most requests waiting for an answer at once
	 */
	LoadGenerator(URI base, int ratePerSecond, Duration ramp, Duration maxDuration, Duration timeout, int maxInFlight) {
		this.base = base;
		this.ratePerSecond = ratePerSecond;
		this.rampNanos = ramp.toNanos();
		this.maxRequests = due(maxDuration.toNanos());
		this.timeout = timeout;
		this.maxInFlight = maxInFlight;
		this.clientThreads = Executors.newFixedThreadPool(8, (task) -> {
			Thread thread = new Thread(task, "demo-load-client");
			thread.setDaemon(true);
			return thread;
		});
		this.client = HttpClient.newBuilder()
			.version(HttpClient.Version.HTTP_1_1)
			.connectTimeout(timeout)
			.executor(this.clientThreads)
			.build();
	}

	/** Starts sending; stops by itself after the maximum duration's worth of requests. */
	void start() {
		this.running = true;
		this.dispatcher = new Thread(this::dispatch, "demo-load-dispatcher");
		this.dispatcher.setDaemon(true);
		this.dispatcher.start();
	}

	private void dispatch() {
		long start = System.nanoTime();
		long count = 0;
		while (this.running && count < this.maxRequests) {
			long due = Math.min(this.maxRequests, due(System.nanoTime() - start));
			while (count < due) {
				send(MIX[(int) (count % MIX.length)], count);
				count++;
				this.sent = count;
			}
			LockSupport.parkNanos(1_000_000L);
		}
		this.running = false;
	}

	/**
	 * How many requests are due after {@code elapsed} ns: the integral of a linear ramp,
	 * then the steady rate.
	 */
	private long due(long elapsed) {
		double seconds = elapsed / 1e9;
		double ramp = this.rampNanos / 1e9;
		if (seconds < ramp) {
			return (long) (this.ratePerSecond * seconds * seconds / (2 * ramp));
		}
		return (long) (this.ratePerSecond * (seconds - ramp / 2));
	}

	private void send(Endpoint endpoint, long number) {
		long sentNanos = System.nanoTime();
		if (this.inFlight.get() >= this.maxInFlight) {
			this.finished.add(new Sample(endpoint, sentNanos, sentNanos, Result.NOT_SENT));
			return;
		}
		this.inFlight.incrementAndGet();
		this.client.sendAsync(request(endpoint, number), HttpResponse.BodyHandlers.ofString())
			.whenComplete((response, error) -> {
				this.inFlight.decrementAndGet();
				this.finished
					.add(new Sample(endpoint, sentNanos, System.nanoTime(), classify(endpoint, response, error)));
			});
	}

	private HttpRequest request(Endpoint endpoint, long number) {
		String user = "user-" + (1 + number % 50);
		HttpRequest.Builder request = HttpRequest.newBuilder().timeout(this.timeout);
		return switch (endpoint) {
			case CHECKOUT -> request.uri(this.base.resolve("/checkout"))
				.header("Content-Type", "application/json")
				.POST(HttpRequest.BodyPublishers.ofString("{\"userId\":\"" + user + "\",\"items\":[{\"sku\":\"sku-"
						+ (1 + number % 24) + "\",\"quantity\":1}]}"))
				.build();
			case CATALOG -> request.uri(this.base.resolve("/catalog")).GET().build();
			case RECOMMENDATIONS -> request.uri(this.base.resolve("/recommendations/" + user)).GET().build();
		};
	}

	private static Result classify(Endpoint endpoint, HttpResponse<String> response, Throwable error) {
		if (error != null) {
			return (error instanceof HttpTimeoutException || error.getCause() instanceof HttpTimeoutException
					|| error instanceof java.io.IOException || error.getCause() instanceof java.io.IOException)
							? Result.TIMEOUT : Result.ERROR;
		}
		if (response.statusCode() != 200) {
			return Result.ERROR;
		}
		String body = response.body();
		return switch (endpoint) {
			case CHECKOUT -> body.contains("\"status\":\"QUEUED\"") ? Result.FALLBACK : Result.OK;
			case CATALOG -> Result.OK;
			case RECOMMENDATIONS -> body.contains("\"source\":\"live\"") ? Result.OK : Result.FALLBACK;
		};
	}

	/** The requests finished since the last call. */
	List<Sample> drain() {
		List<Sample> drained = new ArrayList<>();
		for (Sample sample = this.finished.poll(); sample != null; sample = this.finished.poll()) {
			drained.add(sample);
		}
		return drained;
	}

	long sent() {
		return this.sent;
	}

	int inFlight() {
		return this.inFlight.get();
	}

	/**
	 * Stops sending and waits, at most for the client timeout and a little, for the
	 * answers in flight.
	 */
	void stop() throws InterruptedException {
		this.running = false;
		if (this.dispatcher != null) {
			this.dispatcher.join();
		}
		long deadline = System.nanoTime() + this.timeout.toNanos() + TimeUnit.SECONDS.toNanos(1);
		while (this.inFlight.get() > 0 && System.nanoTime() < deadline) {
			LockSupport.parkNanos(10_000_000L);
		}
	}

	@Override
	public void close() {
		this.running = false;
		this.clientThreads.shutdownNow();
	}

}
