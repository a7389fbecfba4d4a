package dev.breaker.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;

/** What counts: the default classifier and the record/ignore/throttled/timeout lists. */
class OutcomeClassifierTests {

	static final class InvalidOrderException extends IllegalArgumentException {

	}

	static final class TooManyRequestsException extends RuntimeException {

	}

	@Test
	void aReturnedValueIsASuccess() {
		assertThat(OutcomeClassifier.defaults().classify("ok", null)).isEqualTo(Outcome.SUCCESS);
		assertThat(OutcomeClassifier.defaults().classify(null, null)).isEqualTo(Outcome.SUCCESS);
	}

	@Test
	void anyExceptionIsAFailureByDefault() {
		assertThat(OutcomeClassifier.defaults().classify(null, new IOException())).isEqualTo(Outcome.FAILURE);
		assertThat(OutcomeClassifier.defaults().classify(null, new IllegalStateException())).isEqualTo(Outcome.FAILURE);
	}

	@Test
	void aTimeoutIsATimeoutEvenWrapped() {
		OutcomeClassifier c = OutcomeClassifier.defaults();
		assertThat(c.classify(null, new TimeoutException())).isEqualTo(Outcome.TIMEOUT);
		assertThat(c.classify(null, new ExecutionException(new TimeoutException()))).isEqualTo(Outcome.TIMEOUT);
		assertThat(c.classify(null, new CompletionException(new TimeoutException()))).isEqualTo(Outcome.TIMEOUT);
	}

	@Test
	void ignoredExceptionsCountAsNeither() {
		OutcomeClassifier c = OutcomeClassifier.builder().ignoreExceptions(InvalidOrderException.class).build();
		assertThat(c.classify(null, new InvalidOrderException())).isEqualTo(Outcome.IGNORED);
		assertThat(c.classify(null, new IOException())).isEqualTo(Outcome.FAILURE);
	}

	@Test
	void withARecordListOnlyThoseAreFailures() {
		OutcomeClassifier c = OutcomeClassifier.builder().recordExceptions(IOException.class).build();
		assertThat(c.classify(null, new ConnectException())).isEqualTo(Outcome.FAILURE);
		assertThat(c.classify(null, new UncheckedIOException(new ConnectException()))).isEqualTo(Outcome.FAILURE);
		assertThat(c.classify(null, new IllegalStateException())).isEqualTo(Outcome.IGNORED);
	}

	@Test
	void ignoreWinsOverRecordWhenBothMatch() {
		OutcomeClassifier c = OutcomeClassifier.builder()
			.recordExceptions(IllegalArgumentException.class)
			.ignoreExceptions(InvalidOrderException.class)
			.build();
		assertThat(c.classify(null, new InvalidOrderException())).isEqualTo(Outcome.IGNORED);
		assertThat(c.classify(null, new IllegalArgumentException())).isEqualTo(Outcome.FAILURE);
	}

	@Test
	void throttledExceptionsAreThrottled() {
		OutcomeClassifier c = OutcomeClassifier.builder().throttledExceptions(TooManyRequestsException.class).build();
		assertThat(c.classify(null, new TooManyRequestsException())).isEqualTo(Outcome.THROTTLED);
	}

	@Test
	void timeoutExceptionsReplaceTheDefault() {
		OutcomeClassifier c = OutcomeClassifier.builder()
			.timeoutExceptions(java.net.SocketTimeoutException.class)
			.build();
		assertThat(c.classify(null, new java.net.SocketTimeoutException())).isEqualTo(Outcome.TIMEOUT);
		assertThat(c.classify(null, new TimeoutException())).isEqualTo(Outcome.FAILURE);
	}

	@Test
	void aFailureResultIsAFailure() {
		OutcomeClassifier c = OutcomeClassifier.builder().failureResult(r -> "DECLINED".equals(r)).build();
		assertThat(c.classify("DECLINED", null)).isEqualTo(Outcome.FAILURE);
		assertThat(c.classify("PAID", null)).isEqualTo(Outcome.SUCCESS);
	}

	@Test
	void theThrowableItselfDecidesBeforeItsCause() {
		OutcomeClassifier c = OutcomeClassifier.builder().ignoreExceptions(IllegalStateException.class).build();
		assertThat(c.classify(null, new IllegalStateException(new TimeoutException()))).isEqualTo(Outcome.IGNORED);
	}

	@Test
	void aCyclicCauseChainEnds() {
		Exception a = new Exception("a");
		Exception b = new Exception("b", a);
		a.initCause(b);
		assertThat(OutcomeClassifier.defaults().classify(null, a)).isEqualTo(Outcome.FAILURE);
	}

	private static Throwable wrapped(Throwable cause, int wrappers) {
		Throwable t = cause;
		for (int i = 0; i < wrappers; i++) {
			t = new RuntimeException("wrapper " + i, t);
		}
		return t;
	}

	@Test
	void looksThirtyTwoCausesDeepAndNoFurther() {
		assertThat(OutcomeClassifier.defaults().classify(null, wrapped(new TimeoutException(), 31)))
			.isEqualTo(Outcome.TIMEOUT);
		assertThat(OutcomeClassifier.defaults().classify(null, wrapped(new TimeoutException(), 32)))
			.isEqualTo(Outcome.FAILURE);
	}

	@Test
	@SuppressWarnings("unchecked")
	void refusesAMissingListOrANullInOne() {
		org.assertj.core.api.Assertions
			.assertThatThrownBy(() -> OutcomeClassifier.builder().ignoreExceptions((Class<? extends Throwable>[]) null))
			.hasMessage("'ignoreExceptions' must be a list of exception types without nulls but was null");
		org.assertj.core.api.Assertions
			.assertThatThrownBy(() -> OutcomeClassifier.builder().recordExceptions(IOException.class, null))
			.hasMessage("'recordExceptions' must be a list of exception types without nulls but was "
					+ "[class java.io.IOException, null]");
	}

}
