package dev.breaker.http;

import java.io.IOException;
import java.time.Duration;

import dev.breaker.aspect.DelayScheduler;
import dev.breaker.core.Breaker;
import dev.breaker.core.Outcome;
import dev.breaker.core.Permit;
import dev.breaker.observation.CallObserver;

import org.springframework.http.HttpRequest;
import org.springframework.http.client.ClientHttpRequestExecution;
import org.springframework.http.client.ClientHttpRequestInterceptor;
import org.springframework.http.client.ClientHttpResponse;

/**
 * Guards every request of a {@code RestClient} or {@code RestTemplate} with the breaker
 * of its host: a request the breaker refuses fails with {@link BreakerRejectedException}
 * before anything is sent.
 *
 * <p>
 * The call is timed from the permit to the close of the response, so a server that sends
 * its headers and then stalls in the body is a slow (or stalled) call too, and an I/O
 * error while the body is read counts against the host like one before the headers.
 *
 * <p>
 * With retries configured for the host ({@link HttpRetryPolicy}), a request that may
 * repeat is sent again after a failed attempt: each attempt asks the breaker (a retry
 * never happens while it rejects: the request then fails with
 * {@link BreakerRejectedException}) and the breaker's retry budget (a retry it refuses is
 * not made: the caller gets the last answer). The answer of an attempt that is retried is
 * closed unread; the last answer streams to the caller as it would without retries.
 * Spring buffers the request body for every interceptor anyway, so retries add no
 * buffering here.
 */
public final class HttpBreakerInterceptor implements ClientHttpRequestInterceptor {

	private final HostBreakers breakers;

	private final DelayScheduler delays;

	private final CallObserver calls;

	/**
	 * An interceptor whose retries (if its breakers have any) pause on the calling
	 * thread.
	 */
	public HttpBreakerInterceptor(HostBreakers breakers) {
		this(breakers, DelayScheduler.shared(), CallObserver.NONE);
	}

	/**
	 * @param breakers the per-host breakers and how their requests are judged and retried
	 * @param delays how the pause before a retry is waited for
	 */
	public HttpBreakerInterceptor(HostBreakers breakers, DelayScheduler delays) {
		this(breakers, delays, CallObserver.NONE);
	}

	/**
	 * @param breakers the per-host breakers and how their requests are judged and retried
	 * @param calls told of every guarded request and every rejection (tracing)
	 */
	public HttpBreakerInterceptor(HostBreakers breakers, CallObserver calls) {
		this(breakers, DelayScheduler.shared(), calls);
	}

	/**
	 * @param breakers the per-host breakers and how their requests are judged and retried
	 * @param delays how the pause before a retry is waited for
	 * @param calls told of every guarded request and every rejection (tracing)
	 */
	public HttpBreakerInterceptor(HostBreakers breakers, DelayScheduler delays, CallObserver calls) {
		this.breakers = breakers;
		this.delays = delays;
		this.calls = calls;
	}

	@Override
	public ClientHttpResponse intercept(HttpRequest request, byte[] body, ClientHttpRequestExecution execution)
			throws IOException {
		Breaker breaker = this.breakers.breaker(request.getURI());
		if (breaker == null) {
			return execution.execute(request, body);
		}
		HttpRetryPolicy retry = this.breakers.retryPolicy(breaker);
		int most = retry.maxRetries(request.getMethod(), request.getHeaders());
		for (int retries = 0;; retries++) {
			this.calls.onCall(breaker.name(), breaker);
			Permit permit = breaker.acquire();
			if (!permit.granted()) {
				this.calls.onRejected(breaker.name(), breaker.rejection());
				throw this.breakers.rejected(breaker, request.getMethod(), request.getURI());
			}
			long start = breaker.nanos();
			ClientHttpResponse response;
			try {
				response = execution.execute(request, body);
			}
			catch (Throwable ex) {
				Outcome outcome = this.breakers.classify(breaker, ex);
				breaker.release(permit, outcome, breaker.nanos() - start);
				Duration pause = (retries < most && retry.retries(outcome)) ? retry.nextPause(breaker, retries, null)
						: null;
				if (pause != null && sleep(pause)) {
					continue;
				}
				throw ex;
			}
			int status;
			Outcome outcome;
			try {
				status = response.getStatusCode().value();
				this.breakers.honourRetryAfter(breaker, status, response.getHeaders());
				outcome = this.breakers.classify(breaker, status, response.getHeaders());
			}
			catch (Throwable ex) {
				breaker.release(permit, this.breakers.classify(breaker, ex), breaker.nanos() - start);
				response.close();
				throw ex;
			}
			GuardedResponse guarded = new GuardedResponse(response, this.breakers, breaker, permit, start, outcome);
			if (retries < most && retry.retries(status, outcome)) {
				Duration retryAfter = this.breakers.retryAfter(breaker, status, response.getHeaders());
				Duration pause = retry.nextPause(breaker, retries, retryAfter);
				if (pause != null) {
					guarded.close(); // its permit released with the status's outcome
					if (sleep(pause)) {
						continue;
					}
					throw new IOException("interrupted before retry " + (retries + 1) + " of " + request.getMethod()
							+ " " + request.getURI().getRawPath());
				}
			}
			return guarded;
		}
	}

	private boolean sleep(Duration pause) {
		try {
			this.delays.sleep(pause);
			return true;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return false;
		}
	}

}
