package dev.breaker.core;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import org.jspecify.annotations.Nullable;

/**
 * A granted permit handed back at most once, for a call whose end may be signalled more
 * than once or from several threads (a publisher that fails while its subscriber
 * cancels): the first signal is recorded, every later one is dropped. Timed on the
 * breaker's ticker from {@link #started}.
 *
 * <p>
 * A cancelled call counts as {@link Outcome#IGNORED}: the dependency did not fail, and a
 * half-open probe's permit is never held forever.
 */
public final class ReleaseOnce {

	private static final VarHandle PERMIT;

	static {
		try {
			PERMIT = MethodHandles.lookup().findVarHandle(ReleaseOnce.class, "permit", Permit.class);
		}
		catch (ReflectiveOperationException ex) {
			throw new ExceptionInInitializerError(ex);
		}
	}

	private final Breaker breaker;

	private final long start;

	/** The permit until it is handed back, then null. */
	private volatile @Nullable Permit permit;

	private ReleaseOnce(Breaker breaker, Permit permit) {
		this.breaker = breaker;
		this.start = breaker.nanos();
		this.permit = permit;
	}

	/**
	 * Starts timing a call that was granted {@code permit}.
	 * @param breaker the breaker that granted it
	 * @param permit the granted permit
	 * @return the call's one release
	 */
	public static ReleaseOnce started(Breaker breaker, Permit permit) {
		return new ReleaseOnce(breaker, permit);
	}

	/** The call completed normally: recorded as {@link Outcome#SUCCESS}. */
	public void succeeded() {
		release(Outcome.SUCCESS);
	}

	/**
	 * The call failed: recorded as {@link Breaker#classify} classifies {@code error} (the
	 * default classifier decides when the breaker's classifier throws).
	 * @param error what it failed with
	 */
	public void failed(Throwable error) {
		release(this.breaker.classify(null, error));
	}

	/** The caller gave up: recorded as {@link Outcome#IGNORED}. */
	public void cancelled() {
		release(Outcome.IGNORED);
	}

	/**
	 * Records the call with {@code outcome}, unless it was recorded already.
	 * @param outcome the call's outcome
	 */
	public void release(Outcome outcome) {
		@Nullable Permit held = (Permit) PERMIT.getAndSet(this, (Permit) null);
		if (held != null) {
			this.breaker.release(held, outcome, this.breaker.nanos() - this.start);
		}
	}

}
