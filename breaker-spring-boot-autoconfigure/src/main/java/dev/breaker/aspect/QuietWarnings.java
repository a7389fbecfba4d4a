package dev.breaker.aspect;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import dev.breaker.core.Breaker;
import org.jspecify.annotations.Nullable;

/**
 * Warnings of one kind for one guarded method, rate limited: a fault that happens once
 * happens on every call, so the first is logged, then at most one a minute, each saying
 * how many went unlogged since the one before. Paced by the method's breaker's ticker. A
 * warning that is not due costs an increment and allocates nothing.
 */
final class QuietWarnings {

	private static final long QUIET_NANOS = TimeUnit.MINUTES.toNanos(1);

	private final System.Logger log;

	/** Whose ticker paces the warnings. */
	private final Breaker breaker;

	/** The ticker time before which a warning is only counted. */
	private final AtomicLong quietUntil;

	private final AtomicLong unlogged = new AtomicLong();

	QuietWarnings(System.Logger log, Breaker breaker) {
		this.log = log;
		this.breaker = breaker;
		this.quietUntil = new AtomicLong(breaker.nanos());
	}

	/**
	 * Whether a warning may be logged now ({@link #log}); if not, it is counted, and the
	 * next one logged says so.
	 */
	boolean due() {
		long now = this.breaker.nanos();
		long quiet = this.quietUntil.get();
		if (now - quiet >= 0 && this.quietUntil.compareAndSet(quiet, now + QUIET_NANOS)) {
			return true;
		}
		this.unlogged.incrementAndGet();
		return false;
	}

	/**
	 * Logs a warning that was {@link #due}, with how many were not logged since the last.
	 * @param text the warning, already escaped and bounded
	 * @param cause its stack trace, or {@code null}
	 */
	void log(String text, @Nullable Throwable cause) {
		long missed = this.unlogged.getAndSet(0);
		this.log.log(System.Logger.Level.WARNING,
				(missed > 0) ? text + " (and " + missed + " more since the last warning)" : text, cause);
	}

}
