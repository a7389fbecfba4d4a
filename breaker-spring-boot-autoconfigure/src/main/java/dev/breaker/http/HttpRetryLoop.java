package dev.breaker.http;

import java.net.URI;
import java.time.Duration;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;

import dev.breaker.aspect.DelayScheduler;
import dev.breaker.aspect.GrantedRetry;
import dev.breaker.aspect.SchedulerRefusals;
import dev.breaker.core.Breaker;
import dev.breaker.core.BreakerOpenException;
import dev.breaker.core.Outcome;
import dev.breaker.core.Permit;
import dev.breaker.core.Rejections;
import dev.breaker.core.ReleaseOnce;
import dev.breaker.observation.CallObserver;

import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;

/**
 * The retry loop of Spring's HTTP clients, written once for the blocking
 * {@link HttpBreakerInterceptor} and the reactive {@link HttpBreakerFilter}: which
 * breaker guards a request and how many retries it may have, the permit of each attempt
 * (a rejection ends the loop), how each answer is judged, and after each attempt whether
 * another follows and after what pause (the host's {@link HttpRetryPolicy}, a 429's or
 * 503's {@code Retry-After}, the breaker's retry budget asked last). The two clients are
 * its adapters: they send each attempt, wait the pause (the interceptor sleeps, the
 * filter schedules) and hand the last answer on.
 *
 * @param breakers the per-host breakers and how their requests are judged and retried
 * @param delays how the pause before a retry is waited for
 * @param calls told of every guarded request and every rejection (tracing)
 * @param pauseFailures the warnings of the retries' pauses that failed, rate limited
 */
record HttpRetryLoop(HostBreakers breakers, DelayScheduler delays, CallObserver calls,
		GrantedRetry.PauseFailures pauseFailures) {

	/**
	 * A loop whose refused pauses are its context's {@code refusals}: while the context
	 * is live a refusal (a saturated executor) is warned, at most once a minute per
	 * host's breaker; once it closes, a debug line, as for a guarded method.
	 */
	HttpRetryLoop(HostBreakers breakers, DelayScheduler delays, CallObserver calls, SchedulerRefusals refusals) {
		this(breakers, delays, calls, new GrantedRetry.PauseFailures(refusals));
	}

	/**
	 * The attempts of one request; {@code null} for a URI without a host, which no
	 * breaker guards.
	 */
	@Nullable Attempts start(URI uri, HttpMethod method, HttpHeaders headers) {
		Breaker breaker = this.breakers.breaker(uri);
		if (breaker == null) {
			return null;
		}
		return new Attempts(breaker, method, uri, headers);
	}

	/**
	 * The attempts of one request, made one after the other (never two at once). A retry
	 * the budget granted whose attempt is not made (the pause interrupted, refused or
	 * cancelled, the breaker refusing it) goes back to the budget; one whose attempt was
	 * let through keeps it.
	 */
	final class Attempts extends GrantedRetry {

		private final Breaker breaker;

		private final HttpRetryPolicy policy;

		private final int most;

		private final HttpMethod method;

		private final URI uri;

		/** The retries granted so far. */
		private int retries;

		/** Whether the breaker let the latest attempt through. */
		private boolean admitted;

		/** Whether the latest attempt was a retry whose grant had gone back. */
		private boolean withdrawn;

		/**
		 * What refused the latest attempt: the host's breaker's rejection, or the group
		 * breaker's when the host consults it and it refused.
		 */
		private @Nullable BreakerOpenException rejection;

		/** The verdict of the latest attempt's answer, once it has one. */
		private @Nullable Outcome answered;

		private Attempts(Breaker breaker, HttpMethod method, URI uri, HttpHeaders headers) {
			this.breaker = breaker;
			this.policy = HttpRetryLoop.this.breakers.retryPolicy(breaker);
			this.most = this.policy.maxRetries(method, headers);
			this.method = method;
			this.uri = uri;
		}

		/**
		 * Whether this request may be retried at all (its method and the policy allow
		 * it).
		 */
		boolean mayRetry() {
			return this.most > 0;
		}

		/** How many retries were granted so far. */
		int retries() {
			return this.retries;
		}

		/**
		 * Asks the breaker for the next attempt, telling the observers; {@code null} when
		 * it refuses (then {@link #rejected()} is what the request fails with, and no
		 * retry follows) or when the attempt is a retry whose grant already went back to
		 * the budget ({@link #withdrawn()}: its caller gave up as its pause ended, so it
		 * is not sent).
		 */
		@Nullable ReleaseOnce acquire() {
			// the retry's grant is taken before anything else: whichever of this attempt
			// and notMade() takes it first decides whether the retry is made
			long granted = takeRetry();
			this.answered = null;
			if (this.retries > 0 && granted < 0) {
				this.admitted = false;
				this.withdrawn = true;
				return null;
			}
			HttpRetryLoop.this.calls.onCall(this.breaker.name(), this.breaker);
			Permit permit = this.breaker.acquire();
			this.admitted = permit.granted();
			if (!this.admitted) {
				giveBack(this.breaker, granted, true);
				this.rejection = Rejections.of(permit);
				HttpRetryLoop.this.calls.onRejected(this.breaker.name(), this.rejection);
				return null;
			}
			return ReleaseOnce.started(this.breaker, permit);
		}

		/**
		 * Whether the latest {@link #acquire()} found its retry given back to the budget
		 * (the caller gave up as the pause ended): nothing was sent and nothing refused,
		 * the request ends without an answer.
		 */
		boolean withdrawn() {
			return this.withdrawn;
		}

		/**
		 * What a request the breaker refused fails with: naming the breaker that refused
		 * it.
		 */
		BreakerRejectedException rejected() {
			BreakerOpenException refused = this.rejection;
			return (refused != null) ? HttpRetryLoop.this.breakers.rejected(refused, this.method, this.uri)
					: HttpRetryLoop.this.breakers.rejected(this.breaker, this.method, this.uri);
		}

		/**
		 * The verdict of an answer: a 429's or 503's {@code Retry-After} is passed to the
		 * breaker first (it keeps the breaker open at least that long), then the status
		 * is judged.
		 */
		Outcome judge(int status, HttpHeaders headers) {
			HostBreakers breakers = HttpRetryLoop.this.breakers;
			breakers.honourRetryAfter(this.breaker, status, headers);
			Outcome outcome = breakers.classify(this.breaker, status, headers);
			this.answered = outcome;
			return outcome;
		}

		/** The verdict of an exchange that ended with {@code error}. */
		Outcome judge(Throwable error) {
			return HttpRetryLoop.this.breakers.classify(this.breaker, error);
		}

		/**
		 * After an attempt that ended with {@code error}: the pause before the next
		 * attempt, the retry counted; {@code null} when none follows (the request fails
		 * with the error).
		 * @param repeatable whether the request can be sent again whole
		 */
		@Nullable Duration afterFailure(Throwable error, boolean repeatable) {
			boolean retry = this.admitted && this.retries < this.most && this.policy.retries(judge(error));
			return (retry && repeatable) ? next(null) : null;
		}

		/**
		 * After an attempt that got an answer ({@link #judge(int, HttpHeaders) judged}):
		 * the pause before the next attempt, the retry counted, at least the
		 * {@code Retry-After} it asked for; {@code null} when none follows (the caller
		 * gets this answer).
		 * @param repeatable whether the request can be sent again whole
		 */
		@Nullable Duration afterAnswer(int status, HttpHeaders headers, boolean repeatable) {
			Outcome outcome = this.answered;
			if (outcome == null || this.retries >= this.most || !this.policy.retries(status, outcome) || !repeatable) {
				return null;
			}
			return next(HttpRetryLoop.this.breakers.retryAfter(this.breaker, status, headers));
		}

		/**
		 * The pause before the next retry when it is to be made, asking the breaker's
		 * retry budget last (a granted retry is counted, until {@link #notMade()});
		 * {@code null} when there is to be none. The one retry decision of both clients.
		 */
		private @Nullable Duration next(@Nullable Duration retryAfter) {
			Duration pause = this.policy.pause(this.retries, retryAfter, this.breaker.config().maxOpenWait(),
					ThreadLocalRandom.current().nextDouble());
			if (pause == null) {
				return null;
			}
			if (!grantRetry(this.breaker, true)) {
				return null;
			}
			this.retries++;
			return pause;
		}

		/**
		 * The pause before the retry was not waited: the scheduler's sleep threw
		 * {@code failure}, which is told ({@link GrantedRetry#delayFailed}: a failure
		 * warned, rate limited per client; a refusal warned at most once a minute per
		 * host while the context is live, a debug line once it closes; {@link #notMade()}
		 * follows).
		 */
		void sleepFailed(Throwable failure) {
			delayFailed(HttpRetryLoop.this.pauseFailures, this.breaker, HttpRetryLoop.this.delays, Delay.SLEEP,
					failure);
		}

		/**
		 * Schedules the pause before the retry, as {@link GrantedRetry#schedule}:
		 * {@code null} when the scheduler threw (a failure warned, rate limited per
		 * client; {@link #notMade()} follows), and then neither {@code ended} nor
		 * {@code dropped} runs.
		 */
		@Nullable Future<?> schedulePause(Duration pause, Runnable ended, Runnable dropped) {
			return schedule(HttpRetryLoop.this.pauseFailures, this.breaker, HttpRetryLoop.this.delays, Delay.PAUSE,
					pause, ended, dropped);
		}

		/**
		 * The retry that {@link #afterFailure} or {@link #afterAnswer} granted will not
		 * be made (its pause was interrupted, refused or cancelled): it goes back to the
		 * budget, once.
		 */
		void notMade() {
			returnRetry(this.breaker, true);
		}

	}
}
