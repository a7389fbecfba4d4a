package dev.breaker.http;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.FutureTask;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import dev.breaker.aspect.ClosedScheduler;
import dev.breaker.aspect.DelayScheduler;
import dev.breaker.aspect.SchedulerRefusals;
import dev.breaker.core.Breaker;
import dev.breaker.core.BreakerConfig;
import dev.breaker.core.BreakerRegistry;
import dev.breaker.core.ManualTicker;
import dev.breaker.core.Outcome;
import dev.breaker.observation.CallObserver;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.reactivestreams.Subscription;
import reactor.core.CoreSubscriber;
import reactor.core.Disposable;
import reactor.core.publisher.Hooks;
import reactor.core.publisher.Mono;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationContext;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.client.reactive.JdkClientHttpConnector;
import org.springframework.web.reactive.function.client.ClientResponse;
import org.springframework.web.reactive.function.client.ExchangeFilterFunction;
import org.springframework.web.reactive.function.client.WebClient;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.awaitility.Awaitility.await;

/**
 * An HTTP retry the budget granted but that is never made goes back to the budget: the
 * caller's thread interrupted in the pause, a WebClient subscriber that cancels in it (or
 * as the answer retried arrives), a pause the scheduler refuses, a retry the breaker
 * refuses. In an outage many callers give up this way; were their grants kept, they would
 * use up the retries of those who wait. Against a real server on loopback.
 */
class HttpRetriesNotMadeTests {

	private static final URI ORDERS = URI.create("https://api.acme.com/orders");

	@AutoClose
	private final LoopbackServer server = LoopbackServer.start();

	/**
	 * Its time stands still: a grant kept is not hidden by the budget's window sliding
	 * past it.
	 */
	private final BreakerRegistry registry = BreakerRegistry.builder()
		.defaults(BreakerConfig.builder().ticker(new ManualTicker()).build())
		.build();

	@ParameterizedTest
	@EnumSource(names = { "REST_CLIENT", "REST_TEMPLATE" })
	void aBlockingCallInterruptedInItsRetrysPauseGivesTheRetryBack(ClientUnderTest client) {
		runner(client).withBean(DelayScheduler.class, InterruptedPauses::new).run((context) -> {
			this.server.failNext(10, 503, null);
			Throwable thrown = catchThrowable(() -> client.get(context, this.server.uri("/failing")));
			boolean interrupted = Thread.interrupted();
			assertThat(thrown).isNotNull();
			assertThat(interrupted).as("the caller's thread, still interrupted").isTrue();
			assertRetryGivenBackAfterOneRequest(context);
		});
	}

	/**
	 * A blocking call whose pause the scheduler refuses (a custom scheduler closed with
	 * its context): the retry is not made and goes back, the request fails as an
	 * interrupted one does.
	 */
	@ParameterizedTest
	@EnumSource(names = { "REST_CLIENT", "REST_TEMPLATE" })
	void aBlockingCallWhosePauseTheSchedulerRefusesGivesTheRetryBack(ClientUnderTest client) {
		runner(client).withBean(DelayScheduler.class, ClosedScheduler::new).run((context) -> {
			this.server.failNext(10, 503, null);
			Throwable thrown = catchThrowable(() -> client.get(context, this.server.uri("/failing")));
			assertRetryGivenBackAfterOneRequest(context);
			assertThat(thrown).hasRootCauseInstanceOf(RejectedExecutionException.class);
		});
	}

	@Test
	void aWebClientSubscriberThatCancelsInTheRetrysPauseGivesTheRetryBack() {
		runner(ClientUnderTest.WEB_CLIENT).withBean(HeldPauses.class, HeldPauses::new).run((context) -> {
			this.server.failNext(10, 503, null);
			Disposable call = HttpClients.webClient(context)
				.get()
				.uri(this.server.uri("/failing"))
				.retrieve()
				.bodyToMono(String.class)
				.subscribe((body) -> {
				}, (error) -> {
				});
			assertThat(context.getBean(HeldPauses.class).awaitPause()).as("the granted retry's pause").isTrue();
			call.dispose();
			assertRetryGivenBackAfterOneRequest(context);
		});
	}

	@Test
	void aWebClientPauseTheSchedulerRefusesGivesTheRetryBack() {
		runner(ClientUnderTest.WEB_CLIENT).withBean(DelayScheduler.class, InterruptedPauses::new).run((context) -> {
			this.server.failNext(10, 503, null);
			assertThat(catchThrowable(() -> ClientUnderTest.WEB_CLIENT.get(context, this.server.uri("/failing"))))
				.isNotNull();
			assertRetryGivenBackAfterOneRequest(context);
		});
	}

	/**
	 * The caller cancels after the retry's pause ended but before the retry's attempt
	 * took its grant (the first thing the retry does). The hand-off is set by hand: once
	 * the retried answer is released (nothing in flight), the pause is ended, and the
	 * cancel comes as the retry begins to build its attempt, on the thread that goes on
	 * from the pause (Reactor's assembly hook, armed for this one moment only).
	 */
	@Test
	void aWebClientSubscriberThatCancelsAsTheRetrysPauseEndsGivesTheRetryBack() {
		runner(ClientUnderTest.WEB_CLIENT).withBean(EndedPauses.class, EndedPauses::new).run((context) -> {
			this.server.failNext(10, 503, null);
			AtomicReference<Object> delivered = new AtomicReference<>();
			Disposable call = HttpClients.webClient(context)
				.get()
				.uri(this.server.uri("/failing"))
				.retrieve()
				.bodyToMono(String.class)
				.subscribe(delivered::set, delivered::set);
			EndedPauses pauses = context.getBean(EndedPauses.class);
			assertThat(pauses.awaitPause()).as("the granted retry's pause").isTrue();
			Breaker breaker = this.server.breaker(context);
			await().atMost(Duration.ofSeconds(10)).until(() -> breaker.snapshot().inFlight() == 0);
			pauses.endThen(call::dispose);
			assertRetryGivenBackAfterOneRequest(context);
			assertThat(this.server.breaker(context).totals().calls(Outcome.TIMEOUT)).as("timeouts recorded").isZero();
			assertThat(delivered).as("delivered to the subscriber that cancelled").hasNullValue();
		});
	}

	/**
	 * The caller cancels while the retried answer is on its way (past the connector, not
	 * yet at the breaker's filter): Reactive Streams lets a signal in flight arrive after
	 * the cancel (as when {@code Mono.timeout} fires as the answer comes in). The answer
	 * then grants the retry and schedules its pause into a call already cancelled. The
	 * hand-off is set by hand: a filter behind the breaker's lets the cancel pass no
	 * further (nothing left to stop) and disposes the call just before it delivers the
	 * answer.
	 */
	@Test
	void aWebClientSubscriberThatCancelsAsTheRetriedAnswerArrivesGivesTheRetryBack() throws InterruptedException {
		this.server.failNext(10, 503, null);
		HeldPauses pauses = new HeldPauses();
		AtomicReference<Disposable> call = new AtomicReference<>();
		ExchangeFilterFunction cancelAsTheAnswerArrives = (request, next) -> new Mono<ClientResponse>() {
			@Override
			public void subscribe(CoreSubscriber<? super ClientResponse> actual) {
				next.exchange(request).subscribe(new CancelledAsTheAnswerArrives(actual, () -> call.get().dispose()));
			}
		};
		WebClient client = WebClient.builder()
			.clientConnector(new JdkClientHttpConnector())
			.filter(new HttpBreakerFilter(retryingOnce(), pauses))
			.filter(cancelAsTheAnswerArrives)
			.build();
		call.set(client.get().uri(this.server.uri("/failing")).retrieve().bodyToMono(String.class).subscribe((body) -> {
		}, (error) -> {
		}));
		assertThat(pauses.awaitPause()).as("the granted retry's pause").isTrue();
		Breaker breaker = this.registry.find(this.server.breakerName()).orElseThrow();
		await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
			assertThat(breaker.totals().retries()).as("retries granted").isEqualTo(1);
			assertThat(breaker.snapshot().retryBudget().retries()).as("retries taken from the budget").isZero();
			assertThat(breaker.snapshot().inFlight()).as("in flight").isZero();
		});
		assertThat(this.server.requests()).as("requests").isEqualTo(1);
	}

	@Test
	void aWebClientPauseTheSchedulerRefusesEndsWithTheLastAnswer() {
		runner(ClientUnderTest.WEB_CLIENT).withBean(DelayScheduler.class, InterruptedPauses::new).run((context) -> {
			this.server.failNext(10, 503, null);
			assertThat(catchThrowable(() -> ClientUnderTest.WEB_CLIENT.get(context, this.server.uri("/failing"))))
				.isInstanceOf(ClientUnderTest.WEB_CLIENT.statusError(503));
			assertRetryGivenBackAfterOneRequest(context);
		});
	}

	@Test
	void aWebClientPauseTheSchedulerRefusesAfterAConnectionErrorEndsWithThatError() {
		runner(ClientUnderTest.WEB_CLIENT).withBean(DelayScheduler.class, InterruptedPauses::new).run((context) -> {
			URI refusing = LoopbackServer.refusingUri();
			assertThat(catchThrowable(() -> ClientUnderTest.WEB_CLIENT.get(context, refusing)))
				.isInstanceOf(ClientUnderTest.WEB_CLIENT.ioError());
			Breaker breaker = context.getBean(BreakerRegistry.class).breaker("http", HostBreakers.hostKey(refusing));
			assertThat(breaker.totals().retries()).as("retries granted").isEqualTo(1);
			assertThat(breaker.snapshot().retryBudget().retries()).as("retries taken from the budget").isZero();
			assertThat(breaker.snapshot().inFlight()).as("in flight").isZero();
		});
	}

	@ParameterizedTest
	@EnumSource
	void aRetryTheBreakerRefusesGivesItsTokenBack(ClientUnderTest client) {
		runner(client).withBean(RecordingDelays.class, RecordingDelays::new)
			.withPropertyValues("breaker.defaults.consecutive-failures=2")
			.run((context) -> {
				this.server.failNext(10, 503, null);
				assertThat(catchThrowable(() -> client.get(context, this.server.uri("/failing"))))
					.isInstanceOf(BreakerRejectedException.class);
				assertThat(this.server.requests()).as("requests").isEqualTo(2);
				// the second request's retry was made; the third's, refused, went back
				assertThat(this.server.breaker(context).snapshot().retryBudget().retries())
					.as("retries taken from the budget")
					.isEqualTo(1);
			});
	}

	/**
	 * The hand-off between a WebClient subscriber cancelling as the retry's pause ends
	 * ({@code notMade()}, on its thread) and the retry's attempt (on the timer's): when
	 * the cancel took the grant back first, the retry is not sent. Without the loop's
	 * network part: the two threads' order is set by hand.
	 */
	@Test
	void aRetryWhoseGrantWentBackBeforeItsAttemptIsNotMade() {
		AtomicInteger told = new AtomicInteger();
		CallObserver counting = new CallObserver() {
			@Override
			public void onCall(String name, Breaker breaker) {
				told.incrementAndGet();
			}
		};
		HttpRetryLoop.Attempts attempts = new HttpRetryLoop(retryingOnce(), new HeldPauses(), counting,
				SchedulerRefusals.withoutContext())
			.start(ORDERS, HttpMethod.GET, new HttpHeaders());
		assertThat(attempts).isNotNull();
		HttpHeaders none = new HttpHeaders();
		attempts.acquire().release(attempts.judge(503, none));
		assertThat(attempts.afterAnswer(503, none, true)).as("the retry's pause").isNotNull();
		attempts.notMade(); // the caller gave up as the pause ended
		assertThat(attempts.acquire()).as("the retry's permit").isNull();
		assertThat(attempts.withdrawn()).as("withdrawn rather than rejected").isTrue();
		Breaker breaker = this.registry.find("http:api.acme.com").orElseThrow();
		assertThat(told).as("attempts asked for").hasValue(1);
		assertThat(breaker.snapshot().retryBudget().retries()).as("retries taken from the budget").isZero();
		assertThat(breaker.snapshot().inFlight()).as("in flight").isZero();
	}

	/** Breakers of this test's registry with one retry, for a 503 or an I/O error. */
	private HostBreakers retryingOnce() {
		HttpRetryPolicy once = new HttpRetryPolicy(List.of(Duration.ofMillis(100)), 0, Set.of(Outcome.FAILURE),
				Set.of(), false);
		return new HostBreakers(this.registry, HttpClassifier.defaults(), Map.of(), once, Map.of());
	}

	private ApplicationContextRunner runner(ClientUnderTest client) {
		return client.runner()
			.withPropertyValues("breaker.defaults.consecutive-failures=0", "breaker.defaults.failure-rate-threshold=0",
					"breaker.http.retry.intervals=100ms,200ms,400ms", "breaker.http.retry.jitter=0");
	}

	private void assertRetryGivenBackAfterOneRequest(ApplicationContext context) {
		Breaker breaker = this.server.breaker(context);
		assertThat(this.server.requests()).as("requests").isEqualTo(1);
		assertThat(breaker.totals().retries()).as("retries granted").isEqualTo(1);
		assertThat(breaker.snapshot().retryBudget().retries()).as("retries taken from the budget").isZero();
		assertThat(breaker.snapshot().inFlight()).as("in flight").isZero();
	}

	/**
	 * Pauses that never happen: a sleep as on an interrupted thread, a schedule as on a
	 * scheduler closed with its context.
	 */
	static final class InterruptedPauses implements DelayScheduler {

		@Override
		public void sleep(Duration pause) throws InterruptedException {
			throw new InterruptedException("interrupted during the pause");
		}

		@Override
		public Future<?> schedule(Duration delay, Runnable task) {
			throw new RejectedExecutionException("scheduler closed");
		}

	}

	/**
	 * Pauses that end when the test says: {@link #endThen} ends the first one and runs
	 * {@code meanwhile} as the retry that follows it begins: when the first operator is
	 * assembled after the pause ended (before the retry asks for anything), on the thread
	 * that goes on from the pause (this one, or the one that released the answer retried
	 * if it came last).
	 */
	static final class EndedPauses implements DelayScheduler {

		private static final String HOOK = EndedPauses.class.getName();

		private final CountDownLatch scheduled = new CountDownLatch(1);

		private volatile Runnable task;

		@Override
		public void sleep(Duration pause) {
			throw new UnsupportedOperationException("a reactive client schedules its pauses");
		}

		@Override
		public Future<?> schedule(Duration delay, Runnable task) {
			FutureTask<Void> pause = new FutureTask<>(task, null);
			if (this.task == null) {
				this.task = pause;
				this.scheduled.countDown();
			}
			return pause;
		}

		boolean awaitPause() throws InterruptedException {
			return this.scheduled.await(10, TimeUnit.SECONDS);
		}

		void endThen(Runnable meanwhile) throws InterruptedException {
			AtomicBoolean armed = new AtomicBoolean(true);
			CountDownLatch ran = new CountDownLatch(1);
			Hooks.onEachOperator(HOOK, (publisher) -> {
				if (armed.compareAndSet(true, false)) {
					meanwhile.run();
					ran.countDown();
				}
				return publisher;
			});
			try {
				this.task.run();
				assertThat(ran.await(10, TimeUnit.SECONDS)).as("the retry begun as its pause ended").isTrue();
			}
			finally {
				Hooks.resetOnEachOperator(HOOK);
			}
		}

	}

	/**
	 * Passes an exchange's signals on, but not its subscriber's cancel (the answer is on
	 * its way: nothing to stop), and runs {@code cancel} just before it delivers the
	 * answer.
	 */
	private record CancelledAsTheAnswerArrives(CoreSubscriber<? super ClientResponse> actual,
			Runnable cancel) implements CoreSubscriber<ClientResponse> {

		@Override
		public void onSubscribe(Subscription exchange) {
			this.actual.onSubscribe(new Subscription() {
				@Override
				public void request(long n) {
					exchange.request(n);
				}

				@Override
				public void cancel() {
				}
			});
		}

		@Override
		public void onNext(ClientResponse response) {
			this.cancel.run();
			this.actual.onNext(response);
		}

		@Override
		public void onError(Throwable error) {
			this.actual.onError(error);
		}

		@Override
		public void onComplete() {
			this.actual.onComplete();
		}

	}

	/** Pauses that never end: the test sees the first one scheduled. */
	static final class HeldPauses implements DelayScheduler {

		private final CountDownLatch scheduled = new CountDownLatch(1);

		@Override
		public void sleep(Duration pause) {
			throw new UnsupportedOperationException("a reactive client schedules its pauses");
		}

		@Override
		public Future<?> schedule(Duration delay, Runnable task) {
			this.scheduled.countDown();
			return new FutureTask<>(task, null);
		}

		boolean awaitPause() throws InterruptedException {
			return this.scheduled.await(10, TimeUnit.SECONDS);
		}

	}

}
