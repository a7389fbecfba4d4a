package dev.breaker.autoconfigure.aspect;

import dev.breaker.aspect.InvalidGuardedMethodException;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Reports a {@code @CircuitGuarded} method that cannot be guarded: the bean, the method,
 * what is wrong and the expected form.
 */
class InvalidGuardedMethodFailureAnalyzer extends AbstractFailureAnalyzer<InvalidGuardedMethodException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, InvalidGuardedMethodException cause) {
		String description = "A @CircuitGuarded method cannot be guarded:%n%n    Bean:    %s%n    Method:  %s%n    Problem: %s%n"
			.formatted(cause.beanName(), cause.method(), cause.problem());
		String action = "Fix the annotation or the bean: " + cause.fix() + ".";
		return new FailureAnalysis(description, action, cause);
	}

}
