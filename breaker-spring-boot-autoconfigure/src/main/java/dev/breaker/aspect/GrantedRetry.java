package dev.breaker.aspect;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

import dev.breaker.core.Breaker;
import dev.breaker.core.BreakerNames;

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
	 * Logs, as a warning, that the pause before a granted retry was not waited because
	 * {@code delays}' sleep threw {@code failure} (an interrupted sleep is not a
	 * failure): once per failed pause, naming the breaker, the scheduler's class and the
	 * exception, its message escaped and cut to 200 characters. The retry is then not
	 * made; the caller's call ends as when the pause is refused.
	 * @param breaker the breaker whose retry it was
	 * @param delays the scheduler whose sleep threw
	 * @param failure what it threw
	 */
	protected static void pauseFailed(Breaker breaker, DelayScheduler delays, Throwable failure) {
		PAUSES.log(System.Logger.Level.WARNING,
				"breaker '" + BreakerNames.printable(breaker.name()) + "': retry not made, the sleep of "
						+ BreakerNames.printable(delays.getClass().getName()) + " threw " + failure.getClass().getName()
						+ ": " + DiscardedValues.bounded(failure.getMessage()));
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
