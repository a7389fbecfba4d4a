package dev.breaker.http;

import java.io.IOException;

import dev.breaker.core.Breaker;
import dev.breaker.core.Outcome;
import dev.breaker.core.Permit;
import dev.breaker.observation.CallObserver;

import org.springframework.http.HttpRequest;
import org.springframework.http.client.ClientHttpRequestExecution;
import org.springframework.http.client.ClientHttpRequestInterceptor;
import org.springframework.http.client.ClientHttpResponse;

/**
 * Guards every request of a {@code RestClient} or {@code RestTemplate} with the breaker of its
 * host: a request the breaker refuses fails with {@link BreakerRejectedException} before
 * anything is sent.
 *
 * <p>The call is timed from the permit to the close of the response, so a server that sends
 * its headers and then stalls in the body is a slow (or stalled) call too, and an I/O error
 * while the body is read counts against the host like one before the headers.
 */
public final class HttpBreakerInterceptor implements ClientHttpRequestInterceptor {

	private final HostBreakers breakers;

	private final CallObserver calls;

	public HttpBreakerInterceptor(HostBreakers breakers) {
		this(breakers, CallObserver.NONE);
	}

	/**
	 * @param breakers the per-host breakers
	 * @param calls told of every guarded request and every rejection (tracing)
	 */
	public HttpBreakerInterceptor(HostBreakers breakers, CallObserver calls) {
		this.breakers = breakers;
		this.calls = calls;
	}

	@Override
	public ClientHttpResponse intercept(HttpRequest request, byte[] body, ClientHttpRequestExecution execution)
			throws IOException {
		Breaker breaker = this.breakers.breaker(request.getURI());
		if (breaker == null) {
			return execution.execute(request, body);
		}
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
			breaker.release(permit, this.breakers.classify(breaker, ex), breaker.nanos() - start);
			throw ex;
		}
		Outcome outcome;
		try {
			int status = response.getStatusCode().value();
			this.breakers.honourRetryAfter(breaker, status, response.getHeaders());
			outcome = this.breakers.classify(breaker, status, response.getHeaders());
		}
		catch (Throwable ex) {
			breaker.release(permit, this.breakers.classify(breaker, ex), breaker.nanos() - start);
			response.close();
			throw ex;
		}
		return new GuardedResponse(response, this.breakers, breaker, permit, start, outcome);
	}

}
