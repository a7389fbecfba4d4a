package dev.breaker.core;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.jspecify.annotations.Nullable;

/**
 * Asks a breaker's classifier for a call's outcome, and keeps a misbehaving classifier
 * from reaching the caller: one that throws (or answers null) is logged, and the default
 * classifier decides that call.
 *
 * <p>
 * A classifier that is wrong once is wrong on every call, so the warning is rate limited:
 * the first with its stack trace, then at most one a minute, each saying how many calls
 * went unlogged since the one before. The children of a group share one limit, so a
 * broken classifier costs one warning a minute per group, however many tenants call. Only
 * the failing path touches the limit: a classifier that answers costs nothing more.
 */
final class Classification {

	/**
	 * The breaker's own logger, so operators find these warnings where they always were.
	 */
	private static final System.Logger LOG = System.getLogger(Breaker.class.getName());

	private static final long QUIET_NANOS = TimeUnit.MINUTES.toNanos(1);

	private final Ticker ticker;

	/** When the next warning may be logged, on {@link #ticker}. */
	private final AtomicLong nextWarning;

	private final AtomicLong unlogged = new AtomicLong();

	Classification(Ticker ticker) {
		this.ticker = ticker;
		this.nextWarning = new AtomicLong(ticker.nanos());
	}

	/**
	 * The outcome {@code classifier} gives the result or error of a call through breaker
	 * {@code name}; the default classifier's when it throws or answers null.
	 */
	Outcome of(OutcomeClassifier classifier, String name, @Nullable Object result, @Nullable Throwable error) {
		try {
			Outcome outcome = classifier.classify(result, error);
			if (outcome != null) {
				return outcome;
			}
			warn(name, "returned null", null);
		}
		catch (VirtualMachineError e) {
			throw e;
		}
		catch (Throwable e) {
			warn(name, "threw; the default classifier decides this call", e);
		}
		return OutcomeClassifier.defaults().classify(result, error);
	}

	/**
	 * Logs what the classifier of breaker {@code name} did, unless a warning was logged
	 * less than a minute ago; then only counts it. A call not logged allocates nothing.
	 */
	private void warn(String name, String what, @Nullable Throwable cause) {
		long now = this.ticker.nanos();
		long next = this.nextWarning.get();
		if (now - next < 0 || !this.nextWarning.compareAndSet(next, now + QUIET_NANOS)) {
			this.unlogged.incrementAndGet();
			return;
		}
		long missed = this.unlogged.getAndSet(0);
		String message = "the classifier of breaker '" + BreakerNames.printable(name) + "' " + what;
		LOG.log(System.Logger.Level.WARNING,
				(missed == 0) ? message : message + " (and " + missed + " more calls since the last warning)", cause);
	}

}
