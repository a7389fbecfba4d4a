package dev.breaker.http;

import java.util.concurrent.atomic.AtomicBoolean;

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
 * Guards every exchange of a {@code WebClient} with the breaker of its host: an exchange the
 * breaker refuses fails with {@link BreakerRejectedException} before anything is sent.
 *
 * <p>The call is timed from subscription to the end of the response body, so a server that
 * sends its headers and then stalls is a slow call, and an error while the body streams counts
 * against the host. A subscriber that cancels before the headers arrive (for example
 * {@code Mono.timeout}) gave up waiting on the host, which counts as a {@link Outcome#TIMEOUT};
 * one that cancels the body part way keeps the verdict of the status.
 */
public final class HttpBreakerFilter implements ExchangeFilterFunction {

	private final HostBreakers breakers;

	private final CallObserver calls;

	public HttpBreakerFilter(HostBreakers breakers) {
		this(breakers, CallObserver.NONE);
	}

	/**
	 * @param breakers the per-host breakers
	 * @param calls told of every guarded request and every rejection (tracing)
	 */
	public HttpBreakerFilter(HostBreakers breakers, CallObserver calls) {
		this.breakers = breakers;
		this.calls = calls;
	}

	@Override
	public Mono<ClientResponse> filter(ClientRequest request, ExchangeFunction next) {
		return Mono.defer(() -> {
			Breaker breaker = this.breakers.breaker(request.url());
			if (breaker == null) {
				return next.exchange(request);
			}
			this.calls.onCall(breaker.name(), breaker);
			Permit permit = breaker.acquire();
			if (!permit.granted()) {
				this.calls.onRejected(breaker.name(), breaker.rejection());
				return Mono.error(this.breakers.rejected(breaker, request.method(), request.url()));
			}
			Exchange exchange = new Exchange(breaker, permit);
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
		});
	}

	/** One guarded exchange; its permit is released exactly once, whichever signal comes first. */
	private final class Exchange {

		private final Breaker breaker;

		private final Permit permit;

		private final long start;

		private final AtomicBoolean released = new AtomicBoolean();

		private volatile boolean answered;

		Exchange(Breaker breaker, Permit permit) {
			this.breaker = breaker;
			this.permit = permit;
			this.start = breaker.nanos();
		}

		/** The response, its body watched so the permit is released when the body ends. */
		ClientResponse responded(ClientResponse response) {
			this.answered = true;
			int status = response.statusCode().value();
			HostBreakers breakers = HttpBreakerFilter.this.breakers;
			breakers.honourRetryAfter(this.breaker, status, response.headers().asHttpHeaders());
			Outcome outcome = breakers.classify(this.breaker, status, response.headers().asHttpHeaders());
			return response.mutate()
				.body((body) -> body.doOnComplete(() -> release(outcome))
					.doOnCancel(() -> release(outcome))
					.doOnError((error) -> bodyFailed(error, outcome)))
				.build();
		}

		private void bodyFailed(Throwable error, Outcome statusOutcome) {
			// A timeout or reset half way through the body is the host's fault, whatever the status said.
			Outcome failed = HttpBreakerFilter.this.breakers.classify(this.breaker, error);
			release((failed != Outcome.IGNORED) ? failed : statusOutcome);
		}

		/** The subscriber cancelled: before the answer it gave up waiting; after, the body decides. */
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
