package dev.breaker.http;

import java.time.Duration;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;

import dev.breaker.aspect.DelayScheduler;
import dev.breaker.core.Breaker;
import dev.breaker.core.Outcome;
import dev.breaker.core.Permit;
import dev.breaker.observation.CallObserver;
import reactor.core.publisher.Mono;

import org.springframework.web.reactive.function.client.ClientRequest;
import org.springframework.web.reactive.function.client.ClientResponse;
import org.springframework.web.reactive.function.client.ExchangeFilterFunction;
import org.springframework.web.reactive.function.client.ExchangeFunction;

/**
 * Guards every exchange of a {@code WebClient} with the breaker of its host: an exchange
 * the breaker refuses fails with {@link BreakerRejectedException} before anything is
 * sent.
 *
 * <p>
 * The call is timed from subscription to the end of the response body, so a server that
 * sends its headers and then stalls is a slow call, and an error while the body streams
 * counts against the host. A subscriber that cancels before the headers arrive (for
 * example {@code Mono.timeout}) gave up waiting on the host, which counts as a
 * {@link Outcome#TIMEOUT}; one that cancels the body part way keeps the verdict of the
 * status.
 *
 * <p>
 * With retries configured for the host ({@link HttpRetryPolicy}), an exchange that may
 * repeat is made again after a failed attempt, the pause scheduled rather than slept:
 * each attempt asks the breaker (while it rejects there is no retry: the exchange fails
 * with {@link BreakerRejectedException}) and the breaker's retry budget (a retry it
 * refuses is not made: the caller gets the last answer). The body of an answer that is
 * retried is released unread. The request body of an exchange that may be retried is kept
 * as the first attempt writes it, so every attempt sends it whole (see
 * {@link ReplayableBody}); other exchanges stream theirs as before.
 */
public final class HttpBreakerFilter implements ExchangeFilterFunction {

	private final HostBreakers breakers;

	private final DelayScheduler delays;

	private final CallObserver calls;

	/**
	 * A filter whose retries (if its breakers have any) wait on a shared timer thread.
	 */
	public HttpBreakerFilter(HostBreakers breakers) {
		this(breakers, DelayScheduler.shared(), CallObserver.NONE);
	}

	/**
	 * @param breakers the per-host breakers and how their requests are judged and retried
	 * @param delays where the pause before a retry is scheduled
	 */
	public HttpBreakerFilter(HostBreakers breakers, DelayScheduler delays) {
		this(breakers, delays, CallObserver.NONE);
	}

	/**
	 * @param breakers the per-host breakers and how their requests are judged and retried
	 * @param calls told of every guarded request and every rejection (tracing)
	 */
	public HttpBreakerFilter(HostBreakers breakers, CallObserver calls) {
		this(breakers, DelayScheduler.shared(), calls);
	}

	/**
	 * @param breakers the per-host breakers and how their requests are judged and retried
	 * @param delays where the pause before a retry is scheduled
	 * @param calls told of every guarded request and every rejection (tracing)
	 */
	public HttpBreakerFilter(HostBreakers breakers, DelayScheduler delays, CallObserver calls) {
		this.breakers = breakers;
		this.delays = delays;
		this.calls = calls;
	}

	@Override
	public Mono<ClientResponse> filter(ClientRequest request, ExchangeFunction next) {
		return Mono.defer(() -> {
			Breaker breaker = this.breakers.breaker(request.url());
			if (breaker == null) {
				return next.exchange(request);
			}
			HttpRetryPolicy retry = this.breakers.retryPolicy(breaker);
			int most = retry.maxRetries(request.method(), request.headers());
			if (most == 0) {
				return attempt(breaker, request, next);
			}
			ReplayableBody body = new ReplayableBody(request);
			return attempts(breaker, retry, body.applyTo(request), body, next, 0, most);
		});
	}

	/** One attempt, then (while retries are left and allowed) the next ones. */
	private Mono<ClientResponse> attempts(Breaker breaker, HttpRetryPolicy retry, ClientRequest request,
			ReplayableBody body, ExchangeFunction next, int retries, int most) {
		Exchange[] exchange = new Exchange[1];
		return Mono.defer(() -> {
			Mono<ClientResponse> answer = attempt(breaker, request, next, exchange);
			return answer.map(Answer::of).onErrorResume((error) -> Mono.just(Answer.failed(error)));
		}).flatMap((answer) -> {
			Mono<ClientResponse> again = attempts(breaker, retry, request, body, next, retries + 1, most);
			if (answer.error() != null) {
				Outcome outcome = this.breakers.classify(breaker, answer.error());
				boolean retried = retries < most && exchange[0] != null && retry.retries(outcome);
				Duration pause = retried ? allowed(breaker, retry, retries, null, body) : null;
				return (pause != null) ? delay(pause).then(again) : Mono.error(answer.error());
			}
			ClientResponse response = answer.response();
			int status = response.statusCode().value();
			if (retries < most && retry.retries(status, exchange[0].outcome)) {
				Duration retryAfter = this.breakers.retryAfter(breaker, status, response.headers().asHttpHeaders());
				Duration pause = allowed(breaker, retry, retries, retryAfter, body);
				if (pause != null) {
					return response.releaseBody().then(delay(pause)).then(again);
				}
			}
			return Mono.just(response);
		});
	}

	/**
	 * The pause before the next retry when one is to be made (the budget asked last);
	 * else null.
	 */
	private static Duration allowed(Breaker breaker, HttpRetryPolicy retry, int retries, Duration retryAfter,
			ReplayableBody body) {
		return body.replayable() ? retry.nextPause(breaker, retries, retryAfter) : null;
	}

	private Mono<ClientResponse> attempt(Breaker breaker, ClientRequest request, ExchangeFunction next) {
		return attempt(breaker, request, next, new Exchange[1]);
	}

	/**
	 * One guarded exchange; {@code made[0]} is its exchange once the breaker let it
	 * through.
	 */
	private Mono<ClientResponse> attempt(Breaker breaker, ClientRequest request, ExchangeFunction next,
			Exchange[] made) {
		this.calls.onCall(breaker.name(), breaker);
		Permit permit = breaker.acquire();
		if (!permit.granted()) {
			this.calls.onRejected(breaker.name(), breaker.rejection());
			return Mono.error(this.breakers.rejected(breaker, request.method(), request.url()));
		}
		Exchange exchange = new Exchange(breaker, permit);
		made[0] = exchange;
		return next.exchange(request)
			.map(exchange::responded)
			.doOnError(exchange::failed)
			.doOnCancel(exchange::gaveUp)
			// an exchange that completes empty never reached the host's verdict
			.doOnSuccess((response) -> {
				if (response == null) {
					exchange.release(Outcome.IGNORED);
				}
			});
	}

	/** A pause on the filter's scheduler, cancelled with its subscriber. */
	private Mono<Long> delay(Duration pause) {
		return Mono.create((sink) -> {
			Future<?> task = this.delays.schedule(pause, () -> sink.success(0L));
			sink.onCancel(() -> task.cancel(false));
		});
	}

	/** What an attempt ended with: a response, or an error. */
	private record Answer(ClientResponse response, Throwable error) {

		static Answer of(ClientResponse response) {
			return new Answer(response, null);
		}

		static Answer failed(Throwable error) {
			return new Answer(null, error);
		}

	}

	/**
	 * One guarded exchange; its permit is released exactly once, whichever signal comes
	 * first.
	 */
	private final class Exchange {

		private final Breaker breaker;

		private final Permit permit;

		private final long start;

		private final AtomicBoolean released = new AtomicBoolean();

		private volatile boolean answered;

		/** The verdict of the status, once answered. */
		private volatile Outcome outcome;

		Exchange(Breaker breaker, Permit permit) {
			this.breaker = breaker;
			this.permit = permit;
			this.start = breaker.nanos();
		}

		/**
		 * The response, its body watched so the permit is released when the body ends.
		 */
		ClientResponse responded(ClientResponse response) {
			this.answered = true;
			int status = response.statusCode().value();
			HostBreakers breakers = HttpBreakerFilter.this.breakers;
			breakers.honourRetryAfter(this.breaker, status, response.headers().asHttpHeaders());
			Outcome outcome = breakers.classify(this.breaker, status, response.headers().asHttpHeaders());
			this.outcome = outcome;
			return response.mutate()
				.body((body) -> body.doOnComplete(() -> release(outcome))
					.doOnCancel(() -> release(outcome))
					.doOnError((error) -> bodyFailed(error, outcome)))
				.build();
		}

		private void bodyFailed(Throwable error, Outcome statusOutcome) {
			// A timeout or reset half way through the body is the host's fault, whatever
			// the status said.
			Outcome failed = HttpBreakerFilter.this.breakers.classify(this.breaker, error);
			release((failed != Outcome.IGNORED) ? failed : statusOutcome);
		}

		/**
		 * The subscriber cancelled: before the answer it gave up waiting; after, the body
		 * decides.
		 */
		void gaveUp() {
			if (!this.answered) {
				release(Outcome.TIMEOUT);
			}
		}

		void failed(Throwable error) {
			release(HttpBreakerFilter.this.breakers.classify(this.breaker, error));
		}

		void release(Outcome outcome) {
			if (this.released.compareAndSet(false, true)) {
				this.breaker.release(this.permit, outcome, this.breaker.nanos() - this.start);
			}
		}

	}

}
