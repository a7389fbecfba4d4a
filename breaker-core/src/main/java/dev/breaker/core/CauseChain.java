package dev.breaker.core;

import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.function.Function;

/**
 * Walks a throwable and its causes, the one way every part of breaker does: at most
 * {@link #MAX_DEPTH} throwables, so a cyclic or absurdly deep cause chain ends; allocates
 * nothing.
 */
public final class CauseChain {

	/*
	 * One cap for every walk, the deepest any of them had (record-exceptions and
	 * ignore-exceptions looked 32 deep): a shallower cap would silently turn a recorded
	 * outage wrapped a few more times into an ignored call. It runs on failed calls only,
	 * and 32 steps bound the cost of a hostile (cyclic or endless) chain.
	 */

	/** How many throwables of a chain are looked at, the throwable itself included. */
	public static final int MAX_DEPTH = 32;

	private CauseChain() {
	}

	/**
	 * The first non-null answer of {@code probe} along the chain, the throwable itself
	 * first.
	 * @param error where the chain starts; may be null
	 * @param probe asked of each throwable in turn (keep it in a field: a capturing
	 * lambda allocates)
	 * @return the first answer, or null when no throwable within {@link #MAX_DEPTH} gave
	 * one
	 */
	public static <T> T first(Throwable error, Function<? super Throwable, ? extends T> probe) {
		Throwable current = error;
		for (int depth = 0; current != null && depth < MAX_DEPTH; depth++) {
			T answer = probe.apply(current);
			if (answer != null) {
				return answer;
			}
			current = next(current);
		}
		return null;
	}

	/**
	 * Whether the throwable or one of its causes (within {@link #MAX_DEPTH}) is an
	 * instance of one of {@code types}.
	 */
	public static boolean contains(Throwable error, Class<?>[] types) {
		if (types.length == 0) {
			return false;
		}
		Throwable current = error;
		for (int depth = 0; current != null && depth < MAX_DEPTH; depth++) {
			for (Class<?> type : types) {
				if (type.isInstance(current)) {
					return true;
				}
			}
			current = next(current);
		}
		return false;
	}

	/**
	 * What an asynchronous API wrapped: the first throwable of the chain that is not a
	 * {@link CompletionException} or {@link ExecutionException} with a cause (the last
	 * wrapper when the chain goes deeper than {@link #MAX_DEPTH}).
	 */
	public static Throwable unwrapAsync(Throwable error) {
		Throwable current = error;
		for (int depth = 1; depth < MAX_DEPTH
				&& (current instanceof CompletionException || current instanceof ExecutionException)
				&& current.getCause() != null; depth++) {
			current = current.getCause();
		}
		return current;
	}

	private static Throwable next(Throwable current) {
		Throwable cause = current.getCause();
		return (cause != current) ? cause : null;
	}

}
