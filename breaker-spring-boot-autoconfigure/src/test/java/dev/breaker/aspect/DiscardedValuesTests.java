package dev.breaker.aspect;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.channels.ServerSocketChannel;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.breaker.annotation.CircuitGuarded;
import dev.breaker.autoconfigure.BreakerAutoConfiguration;
import dev.breaker.core.ManualTicker;
import dev.breaker.core.OutcomeClassifier;
import io.netty.buffer.UnpooledByteBufAllocator;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import reactor.core.Disposable;
import reactor.core.publisher.Mono;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.NettyDataBuffer;
import org.springframework.core.io.buffer.NettyDataBufferFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.client.ClientHttpRequestFactory;
import org.springframework.http.client.ClientHttpResponse;
import org.springframework.http.client.SimpleClientHttpRequestFactory;
import org.springframework.http.client.reactive.JdkClientHttpConnector;
import org.springframework.web.reactive.function.client.ClientRequest;
import org.springframework.web.reactive.function.client.ClientResponse;
import org.springframework.web.reactive.function.client.ExchangeFunction;
import org.springframework.web.reactive.function.client.ExchangeFunctions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A value the classifier counts as a failure and that is retried is discarded: when it is
 * a per-call response (a {@link ClientHttpResponse}, a WebClient {@link ClientResponse},
 * a {@link DataBuffer}) the aspect frees it once nothing can deliver it, and never the
 * value the caller gets; any other value (an {@link AutoCloseable} it does not own) is
 * left alone.
 */
class DiscardedValuesTests {

	private final ApplicationContextRunner runner = withoutServices().withUserConfiguration(Services.class);

	private final NettyDataBufferFactory buffers = new NettyDataBufferFactory(UnpooledByteBufAllocator.DEFAULT);

	private static ApplicationContextRunner withoutServices() {
		return new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, BreakerAutoConfiguration.class))
			.withBean("staleIsAFailure", OutcomeClassifier.class,
					() -> OutcomeClassifier.builder().failureResult(DiscardedValuesTests::stale).build())
			.withPropertyValues("breaker.instances.leases.retry.intervals=50ms",
					"breaker.instances.once.retry.intervals=50ms",
					"breaker.instances.once.retry.record-each-attempt=true",
					"breaker.instances.once.consecutive-failures=1", "breaker.instances.once.failure-rate-threshold=0",
					"breaker.instances.nobudget.retry.intervals=50ms",
					"breaker.instances.nobudget.retry.budget.ratio=0",
					"breaker.instances.nobudget.retry.budget.min-per-second=0",
					"breaker.instances.racing.retry.intervals=1ms,1ms");
	}

	@Test
	void aValueTheNextAttemptKeptIsNeverFreedByTheThreadThatHandedThePauseOver() {
		RacingDelays delays = new RacingDelays();
		withoutServices().withBean(Leases.class).withBean(DelayScheduler.class, () -> delays).run((context) -> {
			CountedResponse retried = new CountedResponse();
			CountedResponse kept = delays.kept;
			context.getBean(Leases.class).script().then(retried, kept);
			CompletableFuture<Object> result = context.getBean(Leases.class).racing();
			assertThat(result).succeedsWithin(Duration.ofSeconds(10)).isSameAs(kept);
			assertThat(kept.closes()).as("the delivered response's closes").isZero();
			assertThat(retried.closes()).as("the retried response's closes").isEqualTo(1);
		});
	}

	/**
	 * Runs the first pause's task at once on a thread of its own, and returns only once
	 * that next attempt asks for its own pause; that one it refuses (a scheduler closed
	 * with its context), but not before the response that attempt kept is closed, or a
	 * second has passed.
	 */
	static final class RacingDelays implements DelayScheduler {

		final CountedResponse kept = new CountedResponse();

		private final CountDownLatch nextAsked = new CountDownLatch(1);

		private final AtomicInteger schedules = new AtomicInteger();

		@Override
		public void sleep(Duration pause) {
		}

		@Override
		public Future<?> schedule(Duration delay, Runnable task) {
			if (this.schedules.incrementAndGet() == 1) {
				Thread next = new Thread(task, "next-attempt");
				next.setDaemon(true);
				next.start();
				await(this.nextAsked, Duration.ofSeconds(10));
				return CompletableFuture.completedFuture(null);
			}
			this.nextAsked.countDown();
			await(this.kept.closed, Duration.ofSeconds(1));
			throw new RejectedExecutionException("scheduler closed");
		}

		private static void await(CountDownLatch latch, Duration most) {
			try {
				latch.await(most.toMillis(), TimeUnit.MILLISECONDS);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}

	}

	/**
	 * A 503 response that counts its closes, and whose close then fails with
	 * {@code failure} unless it is null.
	 */
	record CountedResponse(CountDownLatch closed, @Nullable String failure) implements ClientHttpResponse {

		CountedResponse() {
			this(new CountDownLatch(Integer.MAX_VALUE), null);
		}

		static CountedResponse failing(String failure) {
			return new CountedResponse(new CountDownLatch(Integer.MAX_VALUE), failure);
		}

		long closes() {
			return Integer.MAX_VALUE - this.closed.getCount();
		}

		@Override
		public HttpStatusCode getStatusCode() {
			return HttpStatusCode.valueOf(503);
		}

		@Override
		public String getStatusText() {
			return "Service Unavailable";
		}

		@Override
		public HttpHeaders getHeaders() {
			return new HttpHeaders();
		}

		@Override
		public InputStream getBody() {
			return InputStream.nullInputStream();
		}

		@Override
		public void close() {
			this.closed.countDown();
			if (this.failure != null) {
				throw new IllegalStateException(this.failure);
			}
		}

	}

	@Test
	void aPlainCallClosesTheClientHttpResponseItRetriesAndNeverTheOneItReturns() throws Exception {
		try (BigBodyServer server = new BigBodyServer()) {
			this.runner.run((context) -> {
				Leases leases = context.getBean(Leases.class);
				try (ClientHttpResponse delivered = leases.get(new SimpleClientHttpRequestFactory(), server.uri())) {
					assertThat(server.firstBodyDone.await(10, TimeUnit.SECONDS))
						.as("the retried 503's body read to its end")
						.isTrue();
					assertThat(delivered.getStatusCode().value()).isEqualTo(200);
					assertThat(delivered.getBody().readAllBytes()).asString(StandardCharsets.UTF_8).isEqualTo("ok");
				}
			});
		}
	}

	@Test
	void aRetriedValueTheAspectDoesNotOwnIsNeverClosed() {
		this.runner.run((context) -> {
			Leases leases = context.getBean(Leases.class);
			Lease stale = Lease.expired();
			Lease fresh = Lease.valid();
			leases.script().then(stale, fresh);
			assertThat(leases.lease()).isSameAs(fresh);
			assertThat(stale.closes()).as("the retried lease's closes").hasValue(0);
			assertThat(fresh.closes()).as("the returned lease's closes").hasValue(0);
		});
	}

	/** A cached value returned on both attempts is delivered as it was, open. */
	@Test
	void theSameInstanceReturnedByTwoAttemptsIsDeliveredOpen() {
		this.runner.run((context) -> {
			Leases leases = context.getBean(Leases.class);
			Lease shared = Lease.expired();
			leases.script().then(shared, shared);
			assertThat(leases.lease()).isSameAs(shared);
			assertThat(shared.closes()).as("the shared lease's closes").hasValue(0);
		});
	}

	/**
	 * A shared resource (a bean, say: here a listening socket; an executor or an
	 * {@code HttpClient} is {@link AutoCloseable} too from Java 21) that a method returns
	 * and whose result is retried is not closed: the aspect does not own it.
	 */
	@Test
	void aSharedResourceReturnedAndRetriedIsNotClosed() throws Exception {
		try (ServerSocketChannel shared = ServerSocketChannel.open()) {
			shared.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
			this.runner.run((context) -> {
				Leases leases = context.getBean(Leases.class);
				Lease fresh = Lease.valid();
				leases.script().then(shared, fresh);
				assertThat(leases.anything()).isSameAs(fresh);
				assertThat(shared.isOpen()).as("the shared socket open").isTrue();
			});
		}
	}

	@Test
	void theLastAttemptsValueCountedAsAFailureIsDeliveredUnreleased() {
		this.runner.run((context) -> {
			Leases leases = context.getBean(Leases.class);
			NettyDataBuffer first = buffer("stale");
			NettyDataBuffer last = buffer("stale");
			leases.script().then(first, last);
			assertThat(leases.anything()).isSameAs(last);
			assertThat(first.getNativeBuffer().refCnt()).as("the retried buffer's references").isZero();
			assertThat(last.getNativeBuffer().refCnt()).as("the delivered buffer's references").isEqualTo(1);
			last.release();
		});
	}

	@Test
	void aValueWhoseRetryTheBudgetRefusesIsDeliveredUnreleased() {
		this.runner.run((context) -> {
			Leases leases = context.getBean(Leases.class);
			NettyDataBuffer stale = buffer("stale");
			leases.script().then(stale);
			assertThat(leases.noBudget()).isSameAs(stale);
			assertThat(leases.script().calls()).as("attempts").isEqualTo(1);
			assertThat(stale.getNativeBuffer().refCnt()).as("the delivered buffer's references").isEqualTo(1);
			stale.release();
		});
	}

	@Test
	void aCompletionStageReleasesTheDataBufferItRetriesAndNeverTheOneItCompletesWith() {
		this.runner.run((context) -> {
			Leases leases = context.getBean(Leases.class);
			NettyDataBuffer stale = buffer("stale");
			NettyDataBuffer fresh = buffer("fresh");
			leases.script().then(stale, fresh);
			CompletableFuture<Object> result = leases.later();
			// freed by the attempt's thread as the pause is scheduled, not by the task
			// that ends the pause (on a real scheduler, a thread every call shares)
			assertThat(stale.getNativeBuffer().refCnt()).as("the retried buffer's references during the pause")
				.isZero();
			context.getBean(ManualDelays.class).runPending();
			assertThat(result).isCompletedWithValue(fresh);
			assertThat(stale.getNativeBuffer().refCnt()).as("the retried buffer's references").isZero();
			assertThat(fresh.getNativeBuffer().refCnt()).as("the delivered buffer's references").isEqualTo(1);
			fresh.release();
		});
	}

	@Test
	void aMonoReleasesTheDataBufferItRetriesAndNeverTheOneItEmits() {
		this.runner.run((context) -> {
			Leases leases = context.getBean(Leases.class);
			NettyDataBuffer stale = buffer("stale");
			NettyDataBuffer fresh = buffer("fresh");
			leases.script().then(stale, fresh);
			CompletableFuture<Object> result = leases.monoValue().toFuture();
			assertThat(stale.getNativeBuffer().refCnt()).as("the retried buffer's references during the pause")
				.isZero();
			context.getBean(ManualDelays.class).runPending();
			assertThat(result).isCompletedWithValue(fresh);
			assertThat(stale.getNativeBuffer().refCnt()).as("the retried buffer's references").isZero();
			assertThat(fresh.getNativeBuffer().refCnt()).as("the emitted buffer's references").isEqualTo(1);
			fresh.release();
		});
	}

	@Test
	void aMonoLeavesARetriedValueItDoesNotOwnOpen() {
		this.runner.run((context) -> {
			Leases leases = context.getBean(Leases.class);
			Lease stale = Lease.expired();
			Lease fresh = Lease.valid();
			leases.script().then(stale, fresh);
			CompletableFuture<Object> result = leases.monoValue().toFuture();
			context.getBean(ManualDelays.class).runPending();
			assertThat(result).isCompletedWithValue(fresh);
			assertThat(stale.closes()).hasValue(0);
			assertThat(fresh.closes()).hasValue(0);
		});
	}

	@Test
	void aValueRetriedWhenItsCallerGivesUpDuringThePauseIsFreed() {
		this.runner.run((context) -> {
			Leases leases = context.getBean(Leases.class);
			NettyDataBuffer staleForAStage = buffer("stale");
			NettyDataBuffer staleForAMono = buffer("stale");
			leases.script().then(staleForAStage, staleForAMono);
			leases.later().cancel(true);
			Disposable subscription = leases.monoValue().subscribe();
			subscription.dispose();
			context.getBean(ManualDelays.class).runPending();
			assertThat(leases.script().calls()).as("attempts").isEqualTo(2);
			assertThat(staleForAStage.getNativeBuffer().refCnt()).isZero();
			assertThat(staleForAMono.getNativeBuffer().refCnt()).isZero();
		});
	}

	/**
	 * A stage that cannot be cancelled runs on after its caller gave up; it may be shared
	 * (a cache's future), so the value it completes with is left to its other holders.
	 */
	@Test
	void aCompletionStageValueThatArrivesAfterItsCallerGaveUpIsLeftAlone() {
		this.runner.run((context) -> {
			Leases leases = context.getBean(Leases.class);
			CompletableFuture<Object> late = new CompletableFuture<>();
			leases.script().then(late.minimalCompletionStage(), late.minimalCompletionStage());
			leases.leaseStage().toCompletableFuture().cancel(true);
			NettyDataBuffer shared = buffer("fresh");
			late.complete(shared);
			assertThat(shared.getNativeBuffer().refCnt()).as("the late buffer's references").isEqualTo(1);
			CompletableFuture<Object> other = leases.leaseStage().toCompletableFuture();
			assertThat(other).isCompletedWithValue(shared);
			assertThat(shared.toString(StandardCharsets.UTF_8)).isEqualTo("fresh");
			shared.release();
		});
	}

	/**
	 * The scheduler refuses the pause just as the caller cancels: the caller's giving up
	 * frees the retried value and the refused pause then delivers nothing, so the value
	 * is freed once (a buffer with two references keeps one).
	 */
	@Test
	void aValueWhosePauseIsRefusedAsItsCallerCancelsIsFreedOnce() {
		this.runner.run((context) -> {
			Leases leases = context.getBean(Leases.class);
			CompletableFuture<Object> attempt = new CompletableFuture<>();
			leases.script().then(attempt);
			CompletableFuture<Object> result = leases.leaseStage().toCompletableFuture();
			context.getBean(ManualDelays.class).refuseNext(() -> result.cancel(true));
			NettyDataBuffer stale = buffer("stale");
			stale.retain();
			attempt.complete(stale);
			assertThat(result).isCancelled();
			assertThat(stale.getNativeBuffer().refCnt()).as("the references left to the test").isEqualTo(1);
			stale.release();
		});
	}

	@Test
	void aValueWhoseRetryTheBreakerRejectsIsReleasedAndTheCallFallsBack() {
		this.runner.run((context) -> {
			Leases leases = context.getBean(Leases.class);
			NettyDataBuffer stale = buffer("stale");
			leases.script().then(stale);
			assertThat(leases.once()).isSameAs(Leases.CACHED);
			assertThat(leases.script().calls()).as("attempts").isEqualTo(1);
			assertThat(stale.getNativeBuffer().refCnt()).isZero();
		});
	}

	@Test
	void aValueDeliveredBecauseThePauseWasInterruptedIsNotReleased() {
		this.runner.run((context) -> {
			Leases leases = context.getBean(Leases.class);
			NettyDataBuffer stale = buffer("stale");
			leases.script().then(stale);
			Thread.currentThread().interrupt();
			Object answer;
			try {
				answer = leases.anything();
			}
			finally {
				Thread.interrupted();
			}
			assertThat(answer).isSameAs(stale);
			assertThat(stale.getNativeBuffer().refCnt()).isEqualTo(1);
			stale.release();
		});
	}

	@Test
	void aCloseThatThrowsNeverReachesTheCallerAndIsLoggedEscapedAndAtMostOnceAMinute() {
		this.runner.run((context) -> {
			Leases leases = context.getBean(Leases.class);
			List<String> warnings = new CopyOnWriteArrayList<>();
			Logger logger = Logger.getLogger("dev.breaker.aspect.DiscardedValues");
			Handler handler = new Handler() {

				@Override
				public void publish(LogRecord record) {
					if (record.getLevel() == Level.WARNING) {
						warnings.add(record.getMessage());
					}
				}

				@Override
				public void flush() {
				}

				@Override
				public void close() {
				}

			};
			logger.addHandler(handler);
			try {
				String forged = "pool gone\nWARN forged line " + "x".repeat(500);
				for (int i = 0; i < 3; i++) {
					Lease fresh = Lease.valid();
					leases.script().then(CountedResponse.failing(forged), fresh);
					assertThat(leases.anything()).isSameAs(fresh);
				}
				assertThat(warnings).hasSize(1);
				assertThat(warnings.get(0))
					.startsWith("breaker 'leases' could not free a discarded " + CountedResponse.class.getName()
							+ ": java.lang.IllegalStateException: pool gone\\nWARN forged line xxx")
					.doesNotContain("\n")
					.endsWith("…")
					.hasSizeLessThan(400);
				context.getBean(ManualTicker.class).advance(java.time.Duration.ofMinutes(1));
				leases.script().then(CountedResponse.failing("pool gone"), Lease.valid());
				leases.anything();
				assertThat(warnings).hasSize(2);
				assertThat(warnings.get(1)).endsWith("pool gone (and 2 more since the last warning)");
			}
			finally {
				logger.removeHandler(handler);
			}
		});
	}

	/**
	 * A WebClient {@link ClientResponse} returned from a guarded {@code Mono} and retried
	 * has its body released (read and dropped, as WebClient's own retries do), so the
	 * connection is freed: a real loopback server's write of that body ends, which it
	 * never does while nobody reads it (16 MB outgrow the sockets' buffers).
	 */
	@Test
	void aMonoReleasesTheBodyOfAClientResponseItRetries() throws Exception {
		try (BigBodyServer server = new BigBodyServer()) {
			this.runner.run((context) -> {
				Leases leases = context.getBean(Leases.class);
				ExchangeFunction exchange = ExchangeFunctions.create(new JdkClientHttpConnector());
				CompletableFuture<ClientResponse> result = leases.exchange(exchange, server.uri()).toFuture();
				ManualDelays delays = context.getBean(ManualDelays.class);
				// the 503 came and its retry waits for its pause
				await().atMost(Duration.ofSeconds(10)).until(() -> !delays.scheduled.isEmpty());
				delays.runPending();
				assertThat(server.firstBodyDone.await(10, TimeUnit.SECONDS)).as("the 503's body read to its end")
					.isTrue();
				ClientResponse delivered = result.get(10, TimeUnit.SECONDS);
				assertThat(delivered.statusCode().value()).isEqualTo(200);
				assertThat(delivered.bodyToMono(String.class).block(Duration.ofSeconds(10))).isEqualTo("ok");
			});
		}
	}

	/**
	 * Answers its first request with a 503 and a body too big for the sockets' buffers
	 * (its write ends only when the client reads it), later ones with a 200.
	 */
	static final class BigBodyServer implements AutoCloseable {

		/** The first answer's body was written to its end (or the client hung up). */
		final CountDownLatch firstBodyDone = new CountDownLatch(1);

		private final HttpServer server;

		private final AtomicInteger requests = new AtomicInteger();

		BigBodyServer() throws IOException {
			this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
			this.server.setExecutor(Executors.newCachedThreadPool());
			this.server.createContext("/", this::handle);
			this.server.start();
		}

		URI uri() {
			return URI.create("http://127.0.0.1:" + this.server.getAddress().getPort() + "/");
		}

		private void handle(HttpExchange exchange) throws IOException {
			try (exchange) {
				exchange.getRequestBody().readAllBytes();
				if (this.requests.incrementAndGet() > 1) {
					byte[] ok = "ok".getBytes(StandardCharsets.UTF_8);
					exchange.sendResponseHeaders(200, ok.length);
					exchange.getResponseBody().write(ok);
					return;
				}
				byte[] chunk = new byte[64 * 1024];
				int chunks = 256; // 16 MB
				exchange.sendResponseHeaders(503, (long) chunk.length * chunks);
				OutputStream body = exchange.getResponseBody();
				try {
					for (int i = 0; i < chunks; i++) {
						body.write(chunk);
					}
					body.flush();
				}
				finally {
					this.firstBodyDone.countDown();
				}
			}
		}

		@Override
		public void close() {
			this.server.stop(0);
		}

	}

	private NettyDataBuffer buffer(String text) {
		NettyDataBuffer buffer = this.buffers.allocateBuffer(16);
		buffer.write(text, StandardCharsets.UTF_8);
		return buffer;
	}

	/**
	 * A stale lease, a 5xx response, a listening socket, or a buffer reading "stale":
	 * what the classifier counts as failed.
	 */
	private static boolean stale(Object value) {
		if (value instanceof Lease lease) {
			return lease.stale();
		}
		if (value instanceof ClientResponse response) {
			return response.statusCode().is5xxServerError();
		}
		if (value instanceof ClientHttpResponse response) {
			try {
				return response.getStatusCode().is5xxServerError();
			}
			catch (IOException ex) {
				return true;
			}
		}
		if (value instanceof ServerSocketChannel) {
			return true;
		}
		return value instanceof DataBuffer buffer && buffer.toString(StandardCharsets.UTF_8).equals("stale");
	}

	@Configuration(proxyBeanMethods = false)
	@Import(ManualTime.class)
	static class Services {

		@Bean
		Leases leases() {
			return new Leases();
		}

	}

	/** A resource that counts its closes. */
	record Lease(boolean stale, AtomicInteger closes) implements AutoCloseable {

		static Lease expired() {
			return new Lease(true, new AtomicInteger());
		}

		static Lease valid() {
			return new Lease(false, new AtomicInteger());
		}

		@Override
		public void close() {
			this.closes.incrementAndGet();
		}

	}

	static class Leases {

		static final Lease CACHED = Lease.valid();

		private final Script script = new Script();

		Script script() {
			return this.script;
		}

		@CircuitGuarded(name = "leases")
		public Lease lease() throws Exception {
			return (Lease) this.script.next();
		}

		@CircuitGuarded(name = "leases")
		public Object anything() throws Exception {
			return this.script.next();
		}

		@CircuitGuarded(name = "nobudget")
		public Object noBudget() throws Exception {
			return this.script.next();
		}

		@CircuitGuarded(name = "leases")
		public CompletableFuture<Object> later() throws Exception {
			return CompletableFuture.completedFuture(this.script.next());
		}

		@CircuitGuarded(name = "racing")
		public CompletableFuture<Object> racing() throws Exception {
			return CompletableFuture.completedFuture(this.script.next());
		}

		@CircuitGuarded(name = "leases")
		public ClientHttpResponse get(ClientHttpRequestFactory factory, URI uri) throws IOException {
			return factory.createRequest(uri, HttpMethod.GET).execute();
		}

		@CircuitGuarded(name = "leases")
		@SuppressWarnings("unchecked")
		public CompletionStage<Object> leaseStage() throws Exception {
			return (CompletionStage<Object>) this.script.next();
		}

		@CircuitGuarded(name = "leases")
		public Mono<Object> monoValue() throws Exception {
			return Mono.just(this.script.next());
		}

		@CircuitGuarded(name = "once", fallbackMethod = "cached")
		public Object once() throws Exception {
			return this.script.next();
		}

		@CircuitGuarded(name = "leases")
		public Mono<ClientResponse> exchange(ExchangeFunction exchange, URI uri) {
			return exchange.exchange(ClientRequest.create(HttpMethod.GET, uri).build());
		}

		Lease cached(Throwable cause) {
			return CACHED;
		}

	}

}
