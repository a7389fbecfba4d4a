package dev.breaker.autoconfigure;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.core.Ordered;

/**
 * Reports a bad {@code breaker.*} property: which one, its value and what is allowed.
 */
class InvalidBreakerPropertyFailureAnalyzer extends AbstractFailureAnalyzer<InvalidBreakerPropertyException>
		implements Ordered {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, InvalidBreakerPropertyException cause) {
		String description = "Invalid breaker configuration:%n%n    Property: %s%n    Value:    %s%n    Allowed:  %s%n"
			.formatted(cause.property(), InvalidBreakerPropertyException.describe(cause.value()), cause.allowed());
		String action = "Set '%s' in your application's configuration to an allowed value: %s."
			.formatted(cause.property(), cause.allowed());
		return new FailureAnalysis(description, action, cause);
	}

	/**
	 * Before Spring Boot's own binding analysis, which would report a bad enum value of
	 * ours with every constant.
	 */
	@Override
	public int getOrder() {
		return Ordered.HIGHEST_PRECEDENCE;
	}

}
