package dev.breaker.aspect;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicReference;

import dev.breaker.core.Breaker;
import dev.breaker.core.BreakerNames;
import org.jspecify.annotations.Nullable;

/**
 * The retry a retry loop's budget granted ({@link Breaker#grantRetry}), kept until it is
 * taken once, by whichever comes first: the retry's attempt starting (then the retry is
 * spent) or the retry not being made (then it goes back, {@link Breaker#returnRetry}).
 * The one such cell of the aspect's retry loop and the HTTP clients', which extend it.
 *
 * <p>
 * A base class rather than an object of its own, so that a guarded call without retries
 * allocates nothing for it. The grant is one volatile {@code long}, taken with
 * {@code getAndSet}: the taking may race (a caller giving up on another thread), and
 * exactly one taker finds it, so a grant is never both returned and spent, nor returned
 * twice. Taking with nothing granted is a plain read.
 */
public abstract class GrantedRetry {

	private static final VarHandle GRANT;

	/** Where a pause that failed is told: named after the scheduler that failed it. */
	private static final System.Logger PAUSES = System.getLogger(DelayScheduler.class.getName());

	/**
	 * The handle of a task a scheduler took without answering one: it cannot be
	 * cancelled.
	 */
	private static final Future<?> NO_HANDLE = CompletableFuture.completedFuture(null);

	/** No retry granted, or the one granted already taken. */
	private static final long NONE = -1;

	static {
		try {
			GRANT = MethodHandles.lookup().findVarHandle(GrantedRetry.class, "grant", long.class);
		}
		catch (ReflectiveOperationException ex) {
			throw new ExceptionInInitializerError(ex);
		}
	}

	/** The retry granted, until it is taken. */
	private volatile long grant = NONE;

	/**
	 * For the retry loops of this module only.
	 */
	protected GrantedRetry() {
	}

	/**
	 * Asks {@code breaker}'s retry budget for one more attempt, keeping the grant until
	 * it is taken.
	 * @param breaker the breaker whose budget is asked
	 * @param attemptRecorded as for {@link Breaker#grantRetry}
	 * @return whether the retry was granted
	 */
	protected final boolean grantRetry(Breaker breaker, boolean attemptRecorded) {
		long granted = breaker.grantRetry(attemptRecorded);
		if (granted < 0) {
			return false;
		}
		this.grant = granted;
		return true;
	}

	/**
	 * Takes the granted retry for its attempt, or to {@link #giveBack} it.
	 * @return the grant, or a negative number when there is none (none granted, or taken
	 * already)
	 */
	protected final long takeRetry() {
		return (this.grant != NONE) ? (long) GRANT.getAndSet(this, NONE) : NONE;
	}

	/**
	 * The granted retry will not be made: it goes back to {@code breaker}'s budget,
	 * unless something took it first.
	 * @param breaker the breaker that granted it
	 * @param attemptRecorded as it was passed to {@link #grantRetry}
	 */
	protected final void returnRetry(Breaker breaker, boolean attemptRecorded) {
		giveBack(breaker, takeRetry(), attemptRecorded);
	}

	/**
	 * Schedules {@code task} on {@code delays}
	 * ({@link DelayScheduler#schedule(Duration, Runnable, Runnable)}, {@code dropped} run
	 * if the scheduler drops it), or tells that it could not ({@link #delayFailed}): a
	 * scheduler that throws, whatever it throws (but a {@link VirtualMachineError}),
	 * never reaches the caller's call.
	 * @param failures the warnings of the retry loop whose delay it is
	 * @param breaker the breaker whose call it is
	 * @param delays the scheduler
	 * @param what which delay it is, for the warning
	 * @param delay how long
	 * @param task what runs once the delay passed
	 * @param dropped what runs if the scheduler took the task and drops it
	 * @return the handle to cancel the task, or {@code null} when the scheduler threw
	 * (neither {@code task} nor {@code dropped} runs then, but for a timeout refused
	 * while the context closes: {@code dropped} has run)
	 */
	protected static @Nullable Future<?> schedule(PauseFailures failures, Breaker breaker, DelayScheduler delays,
			Delay what, Duration delay, Runnable task, Runnable dropped) {
		try {
			Future<?> taken = delays.schedule(delay, task, dropped);
			// a scheduler that answers no handle took the task all the same
			return (taken != null) ? taken : NO_HANDLE;
		}
		catch (VirtualMachineError ex) {
			throw ex;
		}
		catch (Throwable failed) {
			delayFailed(failures, breaker, delays, what, failed);
			if (what == Delay.TIMEOUT && failed instanceof RejectedExecutionException && failures.closing()) {
				// refused up front by a scheduler closing with its context: as a timeout
				// it took and dropped at once, the attempt ends (nothing else would end
				// one that hangs)
				dropped.run();
				return NO_HANDLE;
			}
			return null;
		}
	}

	/**
	 * Tells that a delay of a call was not waited because {@code delays} threw
	 * {@code failure} as it was slept or scheduled (an interrupted sleep is not a
	 * failure). A failure is logged as a warning naming the breaker, what the call does
	 * without the delay, the scheduler's class and the exception, all escaped, its
	 * message cut to 200 characters, at the pace of {@code failures}: the first, then at
	 * most one a minute with how many went unlogged (a broken scheduler fails every
	 * call). A refusal ({@link RejectedExecutionException}) while the context closes (a
	 * scheduler closed with it refuses every delay, the documented normal end of a
	 * shutdown) is no fault and is logged at debug level only; one while the context is
	 * live (an executor saturated) is warned, at most once a minute per breaker
	 * ({@link SchedulerRefusals}); the caller's call goes on the same either way.
	 * @param failures the warnings of the retry loop whose delay failed
	 * @param breaker the breaker whose call it is
	 * @param delays the scheduler that threw
	 * @param what which delay it was
	 * @param failure what it threw
	 */
	protected static void delayFailed(PauseFailures failures, Breaker breaker, DelayScheduler delays, Delay what,
			Throwable failure) {
		if (failure instanceof RejectedExecutionException) {
			if (failures.closing()) {
				PAUSES.log(System.Logger.Level.DEBUG,
						() -> told(breaker, what.whenClosing, what, delays) + " refused it");
				return;
			}
			QuietWarnings saturated = failures.saturated(breaker);
			if (saturated.due()) {
				saturated.log(told(breaker, what.consequence, what, delays)
						+ " refused it while its context is live (saturated?): " + thrown(failure), null);
			}
			return;
		}
		QuietWarnings warnings = failures.paced(breaker);
		if (warnings.due()) {
			warnings.log(told(breaker, what.consequence, what, delays) + " threw " + thrown(failure), null);
		}
	}

	/** How a told delay's line starts: the breaker, what the call does, the scheduler. */
	private static String told(Breaker breaker, String consequence, Delay what, DelayScheduler delays) {
		return "breaker '" + BreakerNames.printable(breaker.name()) + "': " + consequence + ", the " + what.operation
				+ " of " + BreakerNames.printable(delays.getClass().getName());
	}

	/** What a scheduler threw, escaped, its message cut. */
	private static String thrown(Throwable failure) {
		return BreakerNames.printable(failure.getClass().getName()) + ": "
				+ DiscardedValues.bounded(failure.getMessage());
	}

	/** Which delay of a call a scheduler failed ({@link #delayFailed}). */
	public enum Delay {

		/** The pause before a synchronous retry, slept: the retry is not made. */
		SLEEP("retry not made", "retry not made", "sleep"),

		/** The pause before an asynchronous retry, scheduled: the retry is not made. */
		PAUSE("retry not made", "retry not made", "schedule"),

		/**
		 * An asynchronous attempt's timeout, scheduled: the attempt runs without it, or
		 * ends at once when the context closes.
		 */
		TIMEOUT("the attempt runs without its timeout", "attempt ended", "schedule");

		private final String consequence;

		private final String whenClosing;

		private final String operation;

		Delay(String consequence, String whenClosing, String operation) {
			this.consequence = consequence;
			this.whenClosing = whenClosing;
			this.operation = operation;
		}

	}

	/**
	 * The warnings of one retry loop (a guarded method's, an HTTP client's) that a delay
	 * failed ({@link #delayFailed}), rate limited together: the fault is the scheduler's,
	 * which every call of the loop shares. Paced by the ticker of the breaker of the
	 * first delay that failed (a loop's breakers share their registry's).
	 */
	public static final class PauseFailures {

		private final AtomicReference<@Nullable QuietWarnings> warnings = new AtomicReference<>();

		private final SchedulerRefusals refusals;

		/** The breaker name the refusals are warned under. */
		private final @Nullable String name;

		/**
		 * The warnings of a retry loop whose context's refusals are {@code refusals},
		 * those of a live context warned per breaker (an HTTP client's: per host).
		 * @param refusals whether the loop's context is closing, and the saturation
		 * warnings per breaker
		 */
		public PauseFailures(SchedulerRefusals refusals) {
			this(refusals, null);
		}

		/**
		 * The warnings of guarded method {@code name}'s delays, whose context's refusals
		 * are {@code refusals}.
		 */
		PauseFailures(SchedulerRefusals refusals, @Nullable String name) {
			this.refusals = refusals;
			this.name = name;
		}

		boolean closing() {
			return this.refusals.closing();
		}

		QuietWarnings saturated(Breaker breaker) {
			return this.refusals.saturated((this.name != null) ? this.name : breaker.name(), breaker);
		}

		QuietWarnings paced(Breaker breaker) {
			QuietWarnings made = this.warnings.get();
			if (made == null) {
				made = new QuietWarnings(PAUSES, breaker);
				if (!this.warnings.compareAndSet(null, made)) {
					made = this.warnings.get();
				}
			}
			return made;
		}

	}

	/**
	 * Gives back a retry {@link #takeRetry() taken} whose attempt is not made after all
	 * (nothing when {@code taken} is no grant).
	 * @param breaker the breaker that granted it
	 * @param taken what {@link #takeRetry()} answered
	 * @param attemptRecorded as it was passed to {@link #grantRetry}
	 */
	protected static void giveBack(Breaker breaker, long taken, boolean attemptRecorded) {
		if (taken >= 0) {
			breaker.returnRetry(taken, attemptRecorded);
		}
	}

}
