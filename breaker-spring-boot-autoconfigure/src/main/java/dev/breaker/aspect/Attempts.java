package dev.breaker.aspect;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;

import dev.breaker.core.Breaker;
import dev.breaker.core.BreakerOpenException;
import dev.breaker.core.Outcome;
import dev.breaker.core.Permit;
import dev.breaker.core.Rejections;
import dev.breaker.core.ReleaseOnce;
import org.jspecify.annotations.Nullable;

/**
 * The retry loop of one guarded call with retries, written once for its three adapters
 * ({@link PlainCall}, {@link StageCall}, {@link ReactorCalls}): which attempt asks the
 * breaker for a permit, how each attempt's end is recorded, and whether another attempt
 * follows and after what pause. The adapters only run each attempt, wait the pause (the
 * plain call sleeps, the others schedule) and deliver the last attempt's result.
 *
 * <p>
 * The order, for every return type: {@link #begin()} asks for a permit when one is due
 * (every attempt when the breaker is inside the retries, the first one otherwise), the
 * attempt runs, {@link #after} classifies its end, records it when each attempt is
 * recorded, then asks whether another follows (retries left, an outcome that retries, and
 * the breaker's retry budget, asked last: a granted retry is counted) and, when none
 * does, records the whole sequence once. A retry the budget refuses is not made: the call
 * ends as if its retries were exhausted.
 *
 * <p>
 * A value that is retried is discarded: when it is a per-call response
 * ({@link DiscardedValues}) it is freed, once, on the thread that ran its attempt or the
 * caller's, once no path can deliver it any more: when its pause is handed to the
 * scheduler ({@link #handOff()}, so never on the thread that only times the pause), when
 * the next attempt begins (a plain call, after its sleep) or when the caller gives up. A
 * retry that is granted but never made (the pause was interrupted or refused) delivers
 * it, unfreed. Any other value is never kept.
 *
 * <p>
 * A retry the budget granted whose attempt never starts (the caller gave up during the
 * grant or the pause, the pause was refused or interrupted, the breaker refused the
 * retry's permit) gives its token back ({@link Breaker#returnRetry}); one whose attempt
 * started keeps it.
 *
 * <p>
 * Attempts follow one another (never two at once); only {@link #cancelled()} may come
 * from another thread, and the permit is handed back (the discarded value freed, the
 * granted retry given back) once, whichever comes first.
 */
final class Attempts extends GrantedRetry {

	private static final VarHandle DISCARDED;

	static {
		try {
			DISCARDED = MethodHandles.lookup().findVarHandle(Attempts.class, "discarded", Object.class);
		}
		catch (ReflectiveOperationException ex) {
			throw new ExceptionInInitializerError(ex);
		}
	}

	private final Breaker breaker;

	private final RetryPolicy retry;

	private final DiscardedValues values;

	/** The value of the attempt being retried, until it is freed or delivered. */
	private volatile @Nullable Object discarded;

	/** The permit of the attempt (or sequence) in progress until it is handed back. */
	private volatile @Nullable ReleaseOnce held;

	/** What the breaker answered when it refused the latest attempt. */
	private @Nullable Permit refused;

	/**
	 * The caller gave up: no attempt follows, and a permit taken meanwhile is handed
	 * back.
	 */
	private volatile boolean cancelled;

	/**
	 * The error a scheduler threw as a delay of this call was scheduled, once the call
	 * ended with it ({@link #fatal}).
	 */
	private volatile @Nullable Throwable fatal;

	/** The retries granted so far. */
	private int retries;

	/** How the latest attempt ended. */
	private Outcome outcome = Outcome.SUCCESS;

	Attempts(GuardedMethod method, Breaker breaker) {
		this.breaker = breaker;
		this.retry = method.policy().retry();
		this.values = method.discardedValues();
	}

	/**
	 * Asks the breaker for the next attempt's permit, when one is due: for each attempt
	 * with the breaker inside the retries, for the first one only otherwise.
	 * @return {@code false} when the breaker refused (no attempt is made, the call falls
	 * back with {@link #rejection()}) or the caller gave up ({@link #isCancelled()})
	 */
	boolean begin() {
		// the value retried is not delivered now, whatever this attempt meets
		this.values.free(takeDiscarded());
		if (this.cancelled) {
			return false; // cancelled() gives the granted retry back
		}
		if (this.retries > 0 && !this.retry.recordEachAttempt()) {
			return started();
		}
		Permit permit = this.breaker.acquire();
		if (!permit.granted()) {
			this.refused = permit;
			giveRetryBack();
			return false;
		}
		this.held = ReleaseOnce.started(this.breaker, permit);
		if (this.cancelled || !started()) {
			// the caller gave up while the permit was asked for: cancelled() may have
			// looked before it was held, so it is handed back here (once, either way)
			release(Outcome.IGNORED);
			return false;
		}
		return true;
	}

	/**
	 * The attempt starts: the retry granted for it (if it is a retry) is spent now. When
	 * the caller's giving up took it first (and gave it back), the attempt is not made.
	 */
	private boolean started() {
		return this.retries == 0 || takeRetry() >= 0;
	}

	/** The retry granted will not be made: its token goes back to the budget, once. */
	private void giveRetryBack() {
		returnRetry(this.breaker, this.retry.recordEachAttempt());
	}

	/**
	 * Whether the caller gave up: {@link #begin()} then answers {@code false} without a
	 * rejection, and nothing is delivered.
	 */
	boolean isCancelled() {
		return this.cancelled;
	}

	/**
	 * What a call the breaker refused falls back with: the refusing breaker's rejection.
	 */
	BreakerOpenException rejection() {
		Permit permit = this.refused;
		if (permit == null) {
			throw new IllegalStateException("no attempt was refused");
		}
		return Rejections.of(permit);
	}

	/**
	 * After an attempt that returned {@code value} or failed with {@code error}: its
	 * outcome as the breaker classifies it, then as {@link #after(Outcome, boolean)}. An
	 * attempt whose timeout a closed scheduler dropped ({@link DroppedTimeout}) is
	 * {@link Outcome#IGNORED}, and is not retried.
	 */
	@Nullable Duration after(@Nullable Object value, @Nullable Throwable error, boolean retryable) {
		if (error instanceof DroppedTimeout || (error != null && error == this.fatal)) {
			// ended by a closed scheduler, not by the dependency: as a caller giving up
			return after(Outcome.IGNORED, false);
		}
		Duration pause = after(this.breaker.classify(value, error), retryable);
		if (pause != null && DiscardedValues.owned(value)) {
			this.discarded = value;
			if (this.cancelled) {
				// cancelled() may have looked before the value was kept
				this.values.free(takeDiscarded());
			}
		}
		return pause;
	}

	/**
	 * When the caller gave up, frees {@code value} (the last attempt's, which nobody will
	 * see) and answers {@code true}: the adapter then delivers nothing.
	 */
	boolean gaveUp(@Nullable Object value) {
		if (!this.cancelled) {
			return false;
		}
		this.values.free(value);
		return true;
	}

	/** Frees {@code value}: it came but will not be delivered. */
	void discard(@Nullable Object value) {
		this.values.free(value);
	}

	/**
	 * Before the pause of the retry that {@link #after} granted is handed to the
	 * scheduler: takes the value retried (a per-call response, or {@code null}), which is
	 * from now on the adapter's alone, to {@link #discard} once the scheduler took the
	 * pause, or to deliver if it refuses. Taken before, because the scheduler may run the
	 * next attempt (which keeps a value of its own) before it returns.
	 */
	@Nullable Object handOff() {
		return takeDiscarded();
	}

	/**
	 * After an attempt that ended with {@code outcome}: records it when each attempt is
	 * recorded, then either counts a retry and answers the pause before it, or records
	 * the whole sequence and answers {@code null}: the call finishes with this attempt
	 * ({@link #fallsBack()} says whether to its fallbacks).
	 * @param retryable whether this attempt may be retried at all (a publisher that
	 * emitted values may not)
	 * @return the pause before the next attempt, or {@code null} when none follows
	 */
	@Nullable Duration after(Outcome outcome, boolean retryable) {
		this.outcome = outcome;
		if (this.retry.recordEachAttempt()) {
			release(outcome);
		}
		if (!retryable || !retryAgain()) {
			release(outcome);
			return null;
		}
		return this.retry.pause(this.retries++, ThreadLocalRandom.current().nextDouble());
	}

	/**
	 * Whether another attempt follows: retries left, an outcome that retries, a caller
	 * still waiting, and the breaker's retry budget allows one (asked last: a granted
	 * retry is counted, so a caller that gave up never takes one, and one that gives up
	 * from now until the retry's attempt starts gives it back).
	 */
	private boolean retryAgain() {
		if (this.retries >= this.retry.maxRetries() || !this.retry.retries(this.outcome) || this.cancelled) {
			return false;
		}
		if (!grantRetry(this.breaker, this.retry.recordEachAttempt())) {
			return false;
		}
		if (this.cancelled) {
			// cancelled() may have looked before the grant was kept (the caller gave up
			// while the budget granted it)
			giveRetryBack();
		}
		return true;
	}

	/**
	 * The retry that {@link #after} granted will not be made (the pause was interrupted
	 * or refused): the call finishes with the latest attempt, recorded as it ended.
	 * @return whether its value is still to be delivered: {@code false} when the caller
	 * gave up meanwhile ({@link #cancelled()} freed the value, if it was a per-call
	 * response), so that nothing is delivered and nothing is freed twice
	 */
	boolean stop() {
		Object kept = takeDiscarded(); // delivered after all, unless cancelled() took it
		giveRetryBack();
		release(this.outcome);
		// cancelled() marks the call before it takes the value: a value gone means
		// cancelled
		return kept != null || !this.cancelled;
	}

	/**
	 * The pause before the retry was not waited: {@code method}'s scheduler's sleep threw
	 * {@code failure}, which is told ({@link #delayFailed}; {@link #stop()} follows).
	 */
	void sleepFailed(GuardedMethod method, Throwable failure) {
		delayFailed(method.pauseFailures(), this.breaker, method.delays(), Delay.SLEEP, failure);
	}

	/**
	 * Schedules a delay of this call on {@code method}'s scheduler, as
	 * {@link GrantedRetry#schedule}: {@code null} when the scheduler threw (told, rate
	 * limited), and then neither {@code task} nor {@code dropped} runs.
	 */
	@Nullable Future<?> schedule(GuardedMethod method, Delay what, Duration delay, Runnable task, Runnable dropped) {
		return schedule(method.pauseFailures(), this.breaker, method.delays(), what, delay, task, dropped);
	}

	/**
	 * The caller gave up: the permit held (if any) is recorded as {@link Outcome#IGNORED}
	 * (the dependency did not fail; a half-open probe is never held forever). No further
	 * attempt may follow.
	 */
	void cancelled() {
		this.cancelled = true;
		giveRetryBack();
		release(Outcome.IGNORED);
		this.values.free(takeDiscarded());
	}

	/**
	 * A scheduler threw {@code error} (a {@link VirtualMachineError}, which
	 * {@link GrantedRetry#schedule} does not swallow) as a delay of this call was
	 * scheduled: the call ends now, with that error, as a caller giving up does (the
	 * permit held handed back as {@link Outcome#IGNORED}, the granted retry given back,
	 * the value retried freed). An attempt that ends with {@code error} afterwards (its
	 * timeout's) is neither recorded again nor retried, nor falls back.
	 */
	void fatal(VirtualMachineError error) {
		this.fatal = error;
		giveRetryBack();
		release(Outcome.IGNORED);
		this.values.free(takeDiscarded());
	}

	private @Nullable Object takeDiscarded() {
		return (this.discarded != null) ? DISCARDED.getAndSet(this, (Object) null) : null;
	}

	/**
	 * Whether the call, finishing with the latest attempt's error, goes to its fallbacks:
	 * a failure the breaker counts.
	 */
	boolean fallsBack() {
		return GuardedMethod.counted(this.outcome);
	}

	private void release(Outcome outcome) {
		ReleaseOnce permit = this.held;
		if (permit != null) {
			permit.release(outcome);
		}
	}

}
