package dev.breaker.core;

import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;

/**
 * Maps a finished call (its result, or the exception it threw) to an {@link Outcome}.
 *
 * <p>
 * An exception is matched against the lists, then its causes in turn: the first throwable
 * of the chain that matches a list decides. Within one throwable, ignore wins over
 * throttled, throttled over timeout, timeout over record. An exception that matches
 * nothing is a FAILURE when the record list is empty, IGNORED otherwise.
 */
@FunctionalInterface
public interface OutcomeClassifier {

	/**
	 * @param result what the call returned (null when it threw)
	 * @param error what the call threw, null when it returned normally
	 */
	Outcome classify(@Nullable Object result, @Nullable Throwable error);

	/**
	 * Any exception is a FAILURE, a {@link java.util.concurrent.TimeoutException} (also
	 * as a cause) a TIMEOUT, a return a SUCCESS.
	 */
	static OutcomeClassifier defaults() {
		return ExceptionClassifier.DEFAULTS;
	}

	/** A builder starting from {@link #defaults()}. */
	static Builder builder() {
		return new ExceptionClassifier.Builder();
	}

	/** Builds a classifier from exception lists and a result predicate. */
	interface Builder {

		/**
		 * Only these exceptions (and subclasses) are FAILURE; any other is IGNORED. None
		 * given = every exception.
		 */
		@SuppressWarnings("unchecked")
		Builder recordExceptions(Class<? extends Throwable>... types);

		/**
		 * These exceptions (and subclasses) are IGNORED; ignore wins over record when
		 * both match.
		 */
		@SuppressWarnings("unchecked")
		Builder ignoreExceptions(Class<? extends Throwable>... types);

		/** These exceptions (and subclasses) are THROTTLED. */
		@SuppressWarnings("unchecked")
		Builder throttledExceptions(Class<? extends Throwable>... types);

		/**
		 * These exceptions (and subclasses) are TIMEOUT; replaces the default
		 * {@link java.util.concurrent.TimeoutException}.
		 */
		@SuppressWarnings("unchecked")
		Builder timeoutExceptions(Class<? extends Throwable>... types);

		/** A returned value for which this is true is a FAILURE. */
		Builder failureResult(Predicate<@Nullable Object> isFailure);

		OutcomeClassifier build();

	}

}
