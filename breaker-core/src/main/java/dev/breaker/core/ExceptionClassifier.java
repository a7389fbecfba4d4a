package dev.breaker.core;

import java.util.Arrays;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;

/**
 * The {@link OutcomeClassifier} built from exception lists: walks the cause chain,
 * allocates nothing.
 */
final class ExceptionClassifier implements OutcomeClassifier {

	private static final Class<?>[] NONE = {};

	static final ExceptionClassifier DEFAULTS = new ExceptionClassifier(NONE, NONE, NONE,
			new Class<?>[] { TimeoutException.class }, null);

	private final Class<?>[] record;

	private final Class<?>[] ignore;

	private final Class<?>[] throttled;

	private final Class<?>[] timeout;

	private final Predicate<@Nullable Object> failureResult;

	/** Held, so that walking the cause chain allocates nothing. */
	private final Function<Throwable, Outcome> matchOne = this::matchOne;

	private ExceptionClassifier(Class<?>[] record, Class<?>[] ignore, Class<?>[] throttled, Class<?>[] timeout,
			Predicate<@Nullable Object> failureResult) {
		this.record = record;
		this.ignore = ignore;
		this.throttled = throttled;
		this.timeout = timeout;
		this.failureResult = failureResult;
	}

	@Override
	public Outcome classify(@Nullable Object result, @Nullable Throwable error) {
		if (error == null) {
			return failureResult != null && failureResult.test(result) ? Outcome.FAILURE : Outcome.SUCCESS;
		}
		Outcome matched = CauseChain.first(error, matchOne);
		if (matched != null) {
			return matched;
		}
		return record.length == 0 ? Outcome.FAILURE : Outcome.IGNORED;
	}

	/**
	 * The outcome one throwable of the chain decides, or null when it matches no list.
	 */
	private Outcome matchOne(Throwable t) {
		if (matches(ignore, t)) {
			return Outcome.IGNORED;
		}
		if (matches(throttled, t)) {
			return Outcome.THROTTLED;
		}
		if (matches(timeout, t)) {
			return Outcome.TIMEOUT;
		}
		if (matches(record, t)) {
			return Outcome.FAILURE;
		}
		return null;
	}

	private static boolean matches(Class<?>[] types, Throwable t) {
		for (Class<?> type : types) {
			if (type.isInstance(t)) {
				return true;
			}
		}
		return false;
	}

	static final class Builder implements OutcomeClassifier.Builder {

		private Class<?>[] record = NONE;

		private Class<?>[] ignore = NONE;

		private Class<?>[] throttled = NONE;

		private Class<?>[] timeout = DEFAULTS.timeout;

		private Predicate<@Nullable Object> failureResult;

		@SafeVarargs
		@Override
		public final Builder recordExceptions(Class<? extends Throwable>... types) {
			record = copy("recordExceptions", types);
			return this;
		}

		@SafeVarargs
		@Override
		public final Builder ignoreExceptions(Class<? extends Throwable>... types) {
			ignore = copy("ignoreExceptions", types);
			return this;
		}

		@SafeVarargs
		@Override
		public final Builder throttledExceptions(Class<? extends Throwable>... types) {
			throttled = copy("throttledExceptions", types);
			return this;
		}

		@SafeVarargs
		@Override
		public final Builder timeoutExceptions(Class<? extends Throwable>... types) {
			timeout = copy("timeoutExceptions", types);
			return this;
		}

		@Override
		public Builder failureResult(Predicate<@Nullable Object> isFailure) {
			failureResult = isFailure;
			return this;
		}

		@Override
		public OutcomeClassifier build() {
			return new ExceptionClassifier(record, ignore, throttled, timeout, failureResult);
		}

		private static Class<?>[] copy(String setting, Class<?>[] types) {
			if (types == null || Arrays.asList(types).contains(null)) {
				throw new InvalidBreakerConfigException(setting, types == null ? null : Arrays.toString(types),
						"a list of exception types without nulls", "exception types, no nulls");
			}
			return types.clone();
		}

	}

}
