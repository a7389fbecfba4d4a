package dev.breaker.autoconfigure;

import java.util.List;

import dev.breaker.core.CauseChain;
import dev.breaker.core.Outcome;
import dev.breaker.core.OutcomeClassifier;

/**
 * Refines a base classifier with {@code record-exceptions} and {@code ignore-exceptions}:
 * an ignored exception anywhere in the cause chain is IGNORED; a recorded HTTP status
 * exception (one the base {@link StatusExceptionClassifier} reads, such as
 * {@code HttpClientErrorException.NotFound}) in the cause chain is a FAILURE though its
 * status would make it IGNORED or THROTTLED: naming it is the operator's choice about
 * those answers, more specific than the status rule; when record-exceptions is not empty,
 * an exception with none of them in its cause chain is IGNORED unless the base classifier
 * calls it a TIMEOUT; everything else is what the base classifier says.
 */
final class ExceptionListClassifier implements OutcomeClassifier {

	private final OutcomeClassifier base;

	private final Class<?>[] record;

	/** The recorded types whose exceptions report an HTTP answer the base judges. */
	private final Class<?>[] recordedAnswers;

	private final Class<?>[] ignore;

	ExceptionListClassifier(OutcomeClassifier base, List<Class<? extends Throwable>> record,
			List<Class<? extends Throwable>> ignore) {
		this.base = base;
		this.record = record.toArray(new Class<?>[0]);
		this.recordedAnswers = (base instanceof StatusExceptionClassifier byStatus)
				? record.stream().filter(byStatus::reads).toArray(Class<?>[]::new) : new Class<?>[0];
		this.ignore = ignore.toArray(new Class<?>[0]);
	}

	@Override
	public Outcome classify(Object result, Throwable error) {
		if (error == null) {
			return this.base.classify(result, null);
		}
		if (inChain(error, this.ignore)) {
			return Outcome.IGNORED;
		}
		Outcome outcome = this.base.classify(result, error);
		if ((outcome == Outcome.IGNORED || outcome == Outcome.THROTTLED) && inChain(error, this.recordedAnswers)) {
			return Outcome.FAILURE;
		}
		if (this.record.length > 0 && outcome == Outcome.FAILURE && !inChain(error, this.record)) {
			return Outcome.IGNORED;
		}
		return outcome;
	}

	private static boolean inChain(Throwable error, Class<?>[] types) {
		return CauseChain.contains(error, types);
	}

	@Override
	public String toString() {
		return "ExceptionListClassifier[base=" + this.base + ", record=" + List.of(this.record) + ", ignore="
				+ List.of(this.ignore) + "]";
	}

}
