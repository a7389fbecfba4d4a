package dev.breaker.http;

import java.time.Duration;
import java.util.concurrent.Future;

import dev.breaker.aspect.DelayScheduler;
import dev.breaker.aspect.SchedulerRefusals;
import dev.breaker.core.Outcome;
import dev.breaker.core.ReleaseOnce;
import dev.breaker.observation.CallObserver;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;

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
 * {@link ReplayableBody}); other exchanges stream theirs as before. The retry loop is
 * {@code HttpRetryLoop}, shared with the RestClient/RestTemplate interceptor; this filter
 * makes each exchange and schedules the pauses.
 */
public final class HttpBreakerFilter implements ExchangeFilterFunction {

	private final HttpRetryLoop loop;

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
		this(breakers, delays, calls, SchedulerRefusals.withoutContext());
	}

	/**
	 * As its auto-configuration makes it: a pause its scheduler refuses while
	 * {@code refusals}' context is live (a saturated executor) is warned, at most once a
	 * minute per host's breaker; once the context closes it is a debug line. (Made
	 * without them, every refused pause is taken for a closing context's: a debug line.)
	 * @param breakers the per-host breakers and how their requests are judged and retried
	 * @param delays how the pause before a retry is waited for
	 * @param calls told of every guarded request and every rejection (tracing)
	 * @param refusals whether its context is closing; shared with the other HTTP clients
	 * of that context
	 */
	public HttpBreakerFilter(HostBreakers breakers, DelayScheduler delays, CallObserver calls,
			SchedulerRefusals refusals) {
		this.loop = new HttpRetryLoop(breakers, delays, calls, refusals);
	}

	@Override
	public Mono<ClientResponse> filter(ClientRequest request, ExchangeFunction next) {
		return Mono.defer(() -> {
			HttpRetryLoop.Attempts attempts = this.loop.start(request.url(), request.method(), request.headers());
			if (attempts == null) {
				return next.exchange(request);
			}
			if (!attempts.mayRetry()) {
				return attempt(attempts, request, next);
			}
			ReplayableBody body = new ReplayableBody(request);
			// a cancel from a pause to its attempt gives the granted retry back (once:
			// the attempt that takes the grant first is sent, one that finds it gone is
			// not)
			return attempts(attempts, body.applyTo(request), body, next).doOnCancel(attempts::notMade);
		});
	}

	/** One attempt, then (while the loop lets another follow) the next ones. */
	private Mono<ClientResponse> attempts(HttpRetryLoop.Attempts attempts, ClientRequest request, ReplayableBody body,
			ExchangeFunction next) {
		return Mono
			.defer(() -> attempt(attempts, request, next).map(Answer::of)
				.onErrorResume((error) -> Mono.just(Answer.failed(error))))
			.flatMap((answer) -> {
				Mono<ClientResponse> again = Mono.defer(() -> attempts(attempts, request, body, next));
				if (answer.error() != null) {
					Duration pause = attempts.afterFailure(answer.error(), body.replayable());
					Mono<ClientResponse> last = Mono.error(answer.error());
					return (pause != null) ? retry(attempts, pause, Mono.empty(), last, last, again) : last;
				}
				ClientResponse response = answer.response();
				Duration pause = attempts.afterAnswer(response.statusCode().value(), response.headers().asHttpHeaders(),
						body.replayable());
				Mono<ClientResponse> last = Mono.just(response);
				return (pause != null) ? retry(attempts, pause, response.releaseBody(), last,
						Mono.fromSupplier(() -> withoutBody(response)), again) : last;
			});
	}

	/**
	 * The pause before a granted retry, then {@code again}. The pause is scheduled before
	 * the last answer is {@code discarded}: when the scheduler refuses it (closed with
	 * its context) or throws anything else (warned, rate limited) the retry is not made,
	 * and the request ends with {@code last} as if no retry were allowed. When the
	 * scheduler took the pause but drops it (closed with its context while it is pending)
	 * the retry is not made either, and the request ends with {@code afterDrop}: the last
	 * error, or the last answer without its body (released as the pause began). A pause
	 * that fails later (the answer's body not released) or is cancelled is not made
	 * either, and leaves the timer.
	 */
	private Mono<ClientResponse> retry(HttpRetryLoop.Attempts attempts, Duration pause, Mono<Void> discarded,
			Mono<ClientResponse> last, Mono<ClientResponse> afterDrop, Mono<ClientResponse> again) {
		Sinks.One<Boolean> ended = Sinks.one();
		Future<?> timer = attempts.schedulePause(pause, () -> ended.tryEmitValue(Boolean.TRUE),
				() -> ended.tryEmitValue(Boolean.FALSE));
		if (timer == null) {
			// refused (closed with its context) or failed (warned)
			attempts.notMade();
			return last;
		}
		// the pause's own cancel gives the grant back too: a cancel can come before the
		// answer that granted it (in flight as it came) and find no grant to take, and
		// this pause is then cancelled as it is subscribed (the grant is taken once,
		// whichever cancel comes first)
		return discarded.then(ended.asMono())
			.doOnCancel(() -> notMade(attempts, timer))
			.doOnError((error) -> notMade(attempts, timer))
			.flatMap((slept) -> {
				if (slept) {
					return again;
				}
				attempts.notMade();
				return afterDrop;
			});
	}

	/**
	 * The status, headers and cookies of an answer whose body was released, with an empty
	 * body.
	 */
	private static ClientResponse withoutBody(ClientResponse response) {
		return ClientResponse.create(response.statusCode(), response.strategies())
			.headers((headers) -> headers.addAll(response.headers().asHttpHeaders()))
			.cookies((cookies) -> cookies.addAll(response.cookies()))
			.request(response.request())
			.build();
	}

	/** A retry whose pause will not end: off the timer, its grant given back. */
	private static void notMade(HttpRetryLoop.Attempts attempts, Future<?> timer) {
		timer.cancel(false);
		attempts.notMade();
	}

	/** One guarded exchange, or the breaker's rejection. */
	private Mono<ClientResponse> attempt(HttpRetryLoop.Attempts attempts, ClientRequest request,
			ExchangeFunction next) {
		ReleaseOnce attempt = attempts.acquire();
		if (attempt == null) {
			// a retry whose pause its subscriber cancelled as it ended is not sent
			return attempts.withdrawn() ? Mono.empty() : Mono.error(attempts.rejected());
		}
		Exchange exchange = new Exchange(attempts, attempt);
		return next.exchange(request)
			.map(exchange::responded)
			.doOnError(exchange::failed)
			.doOnCancel(exchange::gaveUp)
			// an exchange that completes empty never reached the host's verdict
			.doOnSuccess((response) -> {
				if (response == null) {
					attempt.release(Outcome.IGNORED);
				}
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
	 * How one guarded exchange ends: its attempt is recorded once, by the first signal.
	 */
	private static final class Exchange {

		private final HttpRetryLoop.Attempts attempts;

		private final ReleaseOnce attempt;

		private volatile boolean answered;

		Exchange(HttpRetryLoop.Attempts attempts, ReleaseOnce attempt) {
			this.attempts = attempts;
			this.attempt = attempt;
		}

		/**
		 * The response, its body watched so the permit is released when the body ends.
		 */
		ClientResponse responded(ClientResponse response) {
			this.answered = true;
			Outcome outcome = this.attempts.judge(response.statusCode().value(), response.headers().asHttpHeaders());
			return response.mutate()
				.body((body) -> body.doOnComplete(() -> this.attempt.release(outcome))
					.doOnCancel(() -> this.attempt.release(outcome))
					.doOnError((error) -> bodyFailed(error, outcome)))
				.build();
		}

		private void bodyFailed(Throwable error, Outcome statusOutcome) {
			// A timeout or reset half way through the body is the host's fault, whatever
			// the status said.
			Outcome failed = this.attempts.judge(error);
			this.attempt.release((failed != Outcome.IGNORED) ? failed : statusOutcome);
		}

		/**
		 * The subscriber cancelled: before the answer it gave up waiting; after, the body
		 * decides.
		 */
		void gaveUp() {
			if (!this.answered) {
				this.attempt.release(Outcome.TIMEOUT);
			}
		}

		void failed(Throwable error) {
			this.attempt.release(this.attempts.judge(error));
		}

	}

}
