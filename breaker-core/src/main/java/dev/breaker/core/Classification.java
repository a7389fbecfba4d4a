package dev.breaker.core;

import org.jspecify.annotations.Nullable;

/**
 * Asks a breaker's classifier for a call's outcome, and keeps a misbehaving classifier
 * from reaching the caller: one that throws (or answers null) is logged, and the default
 * classifier decides that call.
 */
final class Classification {

	/**
	 * The breaker's own logger, so operators find these warnings where they always were.
	 */
	private static final System.Logger LOG = System.getLogger(Breaker.class.getName());

	private Classification() {
	}

	/**
	 * The outcome {@code classifier} gives the result or error of a call through breaker
	 * {@code name}; the default classifier's when it throws or answers null.
	 */
	static Outcome of(OutcomeClassifier classifier, String name, @Nullable Object result, @Nullable Throwable error) {
		try {
			Outcome outcome = classifier.classify(result, error);
			if (outcome != null) {
				return outcome;
			}
			LOG.log(System.Logger.Level.WARNING,
					"the classifier of breaker '" + BreakerNames.printable(name) + "' returned null");
		}
		catch (VirtualMachineError e) {
			throw e;
		}
		catch (Throwable e) {
			LOG.log(System.Logger.Level.WARNING, "the classifier of breaker '" + BreakerNames.printable(name)
					+ "' threw; the default classifier decides this call", e);
		}
		return OutcomeClassifier.defaults().classify(result, error);
	}

}
