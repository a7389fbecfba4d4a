package dev.breaker.http;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.RejectedExecutionException;

import dev.breaker.aspect.DelayScheduler;
import dev.breaker.aspect.SchedulerRefusals;
import dev.breaker.core.BreakerNames;
import dev.breaker.core.Outcome;
import dev.breaker.core.ReleaseOnce;
import dev.breaker.observation.CallObserver;
import org.jspecify.annotations.Nullable;

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
 * buffering here. The retry loop is {@code HttpRetryLoop}, shared with the WebClient
 * filter; this interceptor sends each attempt and sleeps the pauses.
 */
public final class HttpBreakerInterceptor implements ClientHttpRequestInterceptor {

	private final HttpRetryLoop loop;

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
	public HttpBreakerInterceptor(HostBreakers breakers, DelayScheduler delays, CallObserver calls,
			SchedulerRefusals refusals) {
		this.loop = new HttpRetryLoop(breakers, delays, calls, refusals);
	}

	@Override
	public ClientHttpResponse intercept(HttpRequest request, byte[] body, ClientHttpRequestExecution execution)
			throws IOException {
		HttpRetryLoop.Attempts attempts = this.loop.start(request.getURI(), request.getMethod(), request.getHeaders());
		if (attempts == null) {
			return execution.execute(request, body);
		}
		for (;;) {
			ReleaseOnce attempt = attempts.acquire();
			if (attempt == null) {
				throw attempts.rejected();
			}
			ClientHttpResponse response;
			try {
				response = execution.execute(request, body);
			}
			catch (Throwable ex) {
				attempt.release(attempts.judge(ex));
				Duration pause = attempts.afterFailure(ex, true);
				if (pause != null) {
					if (sleep(attempts, pause) == null) {
						continue;
					}
					attempts.notMade();
				}
				throw ex;
			}
			int status;
			Outcome outcome;
			try {
				status = response.getStatusCode().value();
				outcome = attempts.judge(status, response.getHeaders());
			}
			catch (Throwable ex) {
				attempt.release(attempts.judge(ex));
				response.close();
				throw ex;
			}
			GuardedResponse guarded = new GuardedResponse(response, attempts, attempt, outcome);
			Duration pause = attempts.afterAnswer(status, response.getHeaders(), true);
			if (pause == null) {
				return guarded;
			}
			try {
				guarded.close(); // its permit released with the status's outcome
			}
			catch (RuntimeException | Error closeFailed) {
				attempts.notMade(); // the retry is not made: the caller gets why
				throw closeFailed;
			}
			Throwable notSlept = sleep(attempts, pause);
			if (notSlept != null) {
				attempts.notMade();
				String retry = attempts.retries() + " of " + request.getMethod() + " " + BreakerNames
					.printable(String.valueOf(request.getURI().getRawPath()), BreakerRejectedException.MAX_TARGET);
				throw new IOException(notSlept(notSlept, retry), notSlept);
			}
		}
	}

	/** Why the retry was not made, truthfully: interrupted, refused, or failed. */
	private static String notSlept(Throwable notSlept, String retry) {
		if (notSlept instanceof InterruptedException) {
			return "interrupted before retry " + retry;
		}
		return "retry " + retry + " not made: its pause "
				+ ((notSlept instanceof RejectedExecutionException) ? "was refused" : "failed");
	}

	/**
	 * Sleeps the pause before a retry.
	 * @return {@code null}, or why it was not slept: the thread interrupted (the
	 * interrupt is kept), or the scheduler's sleep threw (refused the pause, closed with
	 * its context, or failed: warned, rate limited)
	 */
	private @Nullable Throwable sleep(HttpRetryLoop.Attempts attempts, Duration pause) {
		try {
			this.loop.delays().sleep(pause);
			return null;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return ex;
		}
		catch (VirtualMachineError ex) {
			throw ex;
		}
		catch (Throwable failed) {
			attempts.sleepFailed(failed);
			return failed;
		}
	}

}
