package dev.breaker.aspect;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import dev.breaker.core.CauseChain;
import dev.breaker.core.Listeners;

/**
 * The fallback tiers of one guarded method (resolved at start-up by
 * {@link FallbackResolver}) and the one way they run, for every return type: each tier in
 * order, the first that succeeds wins, the last one's exception reaches the caller,
 * carrying the failure the tiers ran for ({@link #withOriginal}). What "succeeds" means
 * for a value, a {@code CompletionStage} or a publisher is the {@link Results} adapter's
 * to say.
 */
final class Fallbacks {

	static final Fallbacks NONE = new Fallbacks(new Tier[0]);

	/**
	 * The most failures {@link #withOriginal} attaches to one exception: a fallback that
	 * throws one exception it keeps carries the first few, not one more per failed call
	 * for as long as its dependency is down.
	 */
	static final int MOST_SUPPRESSED = 4;

	private static final System.Logger LOG = System.getLogger(Fallbacks.class.getName());

	private static final Listeners.Notice<FallbackObserver, String, String> SUCCEEDED = (observer, breaker,
			fallback) -> observer.onFallback(breaker, fallback, true);

	private static final Listeners.Notice<FallbackObserver, String, String> FAILED = (observer, breaker,
			fallback) -> observer.onFallback(breaker, fallback, false);

	private static final Listeners.Message<FallbackObserver, String, String> FAILED_MESSAGE = (observer, breaker,
			fallback) -> "FallbackObserver " + observer + " failed";

	private final Tier[] tiers;

	Fallbacks(Tier[] tiers) {
		this.tiers = tiers;
	}

	boolean isEmpty() {
		return this.tiers.length == 0;
	}

	/**
	 * Every method of every tier: what runs reflectively, so what a native image must
	 * keep.
	 */
	List<Method> methods() {
		List<Method> methods = new ArrayList<>();
		for (Tier tier : this.tiers) {
			if (tier.plain() != null) {
				methods.add(tier.plain());
			}
			methods.addAll(Arrays.asList(tier.typed()));
		}
		return methods;
	}

	/**
	 * How the result of a call of one return type comes out of the tiers.
	 *
	 * @param <R> what the call returns: the value itself, a future, a publisher
	 */
	interface Results<R> {

		/**
		 * A tier returned {@code value}: the call's result, once {@code tier} says
		 * whether it succeeded (for a stage or publisher: when it completes).
		 */
		R returned(Object value, Outcome<R> tier) throws Throwable;

		/** No tier is left (or none applies): the call fails with {@code last}. */
		R exhausted(Throwable last) throws Throwable;

	}

	/**
	 * What a tier's returned value ended with.
	 *
	 * @param <R> as for {@link Results}
	 */
	interface Outcome<R> {

		/** It succeeded: the observers are told. */
		void succeeded();

		/**
		 * It failed with {@code error}: the observers are told, and the next tiers run.
		 */
		R failed(Throwable error) throws Throwable;

	}

	/**
	 * Runs the tiers.
	 * @param results how the tiers' values become the call's result
	 * @return the result of the first tier that succeeds, or what {@code results} makes
	 * of the last failure ({@code cause} when no tier applies)
	 */
	<R> R run(Object target, Object[] args, Throwable cause, String breaker, List<FallbackObserver> observers,
			Results<R> results) throws Throwable {
		if (this.tiers.length == 0) {
			return results.exhausted(cause);
		}
		return new Run<>(target, args, cause, breaker, observers, results).from(0, cause);
	}

	static void observed(List<FallbackObserver> observers, String breaker, String fallback, boolean succeeded) {
		Listeners.tell(observers, succeeded ? SUCCEEDED : FAILED, breaker, fallback, LOG, FAILED_MESSAGE);
	}

	static Throwable unwrap(Throwable error) {
		return CauseChain.unwrapAsync(error);
	}

	/**
	 * The last tier's exception {@code last}, carrying {@code original} (the call's
	 * failure, the rejection or the timeout the tiers ran for) as a suppressed exception,
	 * so that the caller still sees why the fallbacks ran. Added to what an asynchronous
	 * wrapper wraps (what the caller of a {@code CompletionStage} call gets), once: not
	 * when it is {@code original} itself (a tier that rethrows its cause, which cannot
	 * suppress itself), nor when either is already in the other's cause chain (a tier
	 * that wrapped it), nor when it already carries it (a tier that throws one exception
	 * it keeps, for a breaker that rejects with its one preallocated rejection), nor once
	 * it carries {@link #MOST_SUPPRESSED}.
	 */
	static Throwable withOriginal(Throwable last, Throwable original) {
		Throwable failure = unwrap(last);
		if (inChain(failure, original) || inChain(original, failure)) {
			return last;
		}
		synchronized (failure) {
			// Throwable's own lock: no two calls failing with one kept exception add
			// twice
			Throwable[] carried = failure.getSuppressed();
			if (carried.length >= MOST_SUPPRESSED) {
				return last;
			}
			for (Throwable suppressed : carried) {
				if (suppressed == original) {
					return last;
				}
			}
			failure.addSuppressed(original);
		}
		return last;
	}

	private static boolean inChain(Throwable error, Throwable wanted) {
		return CauseChain.first(error, (current) -> (current == wanted) ? Boolean.TRUE : null) != null;
	}

	/** One run of the tiers for one failed call: the tier loop, written once. */
	private final class Run<R> {

		private final Object target;

		private final Object[] args;

		private final Throwable cause;

		private final String breaker;

		private final List<FallbackObserver> observers;

		private final Results<R> results;

		Run(Object target, Object[] args, Throwable cause, String breaker, List<FallbackObserver> observers,
				Results<R> results) {
			this.target = target;
			this.args = args;
			this.cause = cause;
			this.breaker = breaker;
			this.observers = observers;
			this.results = results;
		}

		R from(int first, Throwable last) throws Throwable {
			for (int i = first; i < Fallbacks.this.tiers.length; i++) {
				Tier tier = Fallbacks.this.tiers[i];
				Method method = tier.select(this.cause);
				if (method == null) {
					continue;
				}
				Object value;
				try {
					value = tier.invoke(method, this.target, this.args, this.cause);
				}
				catch (Throwable ex) {
					observed(this.observers, this.breaker, tier.name(), false);
					last = ex;
					continue;
				}
				int next = i + 1;
				return this.results.returned(value, new Outcome<>() {

					@Override
					public void succeeded() {
						observed(Run.this.observers, Run.this.breaker, tier.name(), true);
					}

					@Override
					public R failed(Throwable error) throws Throwable {
						observed(Run.this.observers, Run.this.breaker, tier.name(), false);
						return from(next, error);
					}

				});
			}
			return this.results.exhausted((last != this.cause) ? withOriginal(last, this.cause) : last);
		}

	}

	/**
	 * One fallback name: its overload without a Throwable parameter and those with one.
	 */
	record Tier(String name, Method plain, Method[] typed, int arity) {

		Method select(Throwable cause) {
			Method best = null;
			for (Method method : this.typed) {
				Class<?> type = method.getParameterTypes()[this.arity];
				if (type.isInstance(cause)
						&& (best == null || best.getParameterTypes()[this.arity].isAssignableFrom(type))) {
					best = method;
				}
			}
			return (best != null) ? best : this.plain;
		}

		Object invoke(Method method, Object target, Object[] args, Throwable cause) throws Throwable {
			Object[] arguments = args;
			if (method.getParameterCount() == this.arity + 1) {
				arguments = Arrays.copyOf(args, this.arity + 1);
				arguments[this.arity] = cause;
			}
			try {
				return method.invoke(Modifier.isStatic(method.getModifiers()) ? null : target, arguments);
			}
			catch (InvocationTargetException ex) {
				throw ex.getTargetException();
			}
		}

	}

}
