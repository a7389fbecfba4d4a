package dev.breaker.autoconfigure;

import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.diagnostics.FailureAnalyzer;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;

/** What stopped a context from starting, as the tests of bad properties look at it. */
final class StartupFailure {

	private StartupFailure() {
	}

	/**
	 * The {@link InvalidBreakerPropertyException} among the causes of the context's
	 * start-up failure; fails the test when the context started or failed otherwise.
	 */
	static InvalidBreakerPropertyException invalidProperty(AssertableApplicationContext context) {
		assertThat(context).hasFailed();
		Throwable failure = context.getStartupFailure();
		while (failure != null && !(failure instanceof InvalidBreakerPropertyException)) {
			failure = failure.getCause();
		}
		assertThat(failure).as("an InvalidBreakerPropertyException among the causes of %s", context.getStartupFailure())
			.isInstanceOf(InvalidBreakerPropertyException.class);
		return (InvalidBreakerPropertyException) failure;
	}

	/**
	 * What {@code analyzer} (one of breaker's failure analyzers) reports for the
	 * context's start-up failure, as Spring Boot prints it; fails the test when the
	 * context started or the analyzer does not recognise the failure.
	 */
	static FailureAnalysis analysis(AssertableApplicationContext context, FailureAnalyzer analyzer) {
		assertThat(context).hasFailed();
		FailureAnalysis analysis = analyzer.analyze(context.getStartupFailure());
		assertThat(analysis).as("%s's analysis of %s", analyzer.getClass().getSimpleName(), context.getStartupFailure())
			.isNotNull();
		return analysis;
	}

}
