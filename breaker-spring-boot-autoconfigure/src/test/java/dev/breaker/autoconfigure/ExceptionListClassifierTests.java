package dev.breaker.autoconfigure;

import java.io.IOException;
import java.net.ConnectException;
import java.util.List;

import dev.breaker.core.Outcome;
import dev.breaker.core.OutcomeClassifier;
import org.junit.jupiter.api.Test;

import org.springframework.http.HttpStatusCode;
import org.springframework.web.client.HttpClientErrorException;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code record-exceptions} and {@code ignore-exceptions} find a listed exception as deep
 * in the cause chain as they always did (32 throwables): a wrapper more must not turn a
 * recorded outage into an ignored call, nor an ignored caller error into a failure.
 */
class ExceptionListClassifierTests {

	@Test
	void aRecordedExceptionThirtyOneWrappersDeepIsAFailure() {
		OutcomeClassifier classifier = new ExceptionListClassifier(OutcomeClassifier.defaults(),
				List.of(ConnectException.class), List.of());

		assertThat(classifier.classify(null, wrapped(new ConnectException("refused"), 31))).isEqualTo(Outcome.FAILURE);
		assertThat(classifier.classify(null, wrapped(new IOException("other"), 31))).isEqualTo(Outcome.IGNORED);
	}

	@Test
	void anIgnoredExceptionThirtyOneWrappersDeepIsIgnored() {
		OutcomeClassifier classifier = new ExceptionListClassifier(OutcomeClassifier.defaults(), List.of(),
				List.of(IllegalArgumentException.class));

		assertThat(classifier.classify(null, wrapped(new IllegalArgumentException("bad sku"), 31)))
			.isEqualTo(Outcome.IGNORED);
	}

	@Test
	void noFurtherThanThirtyTwoThrowables() {
		OutcomeClassifier classifier = new ExceptionListClassifier(OutcomeClassifier.defaults(), List.of(),
				List.of(IllegalArgumentException.class));

		assertThat(classifier.classify(null, wrapped(new IllegalArgumentException("bad sku"), 32)))
			.isEqualTo(Outcome.FAILURE);
	}

	@Test
	void aListedStatusExceptionIsAFailureWhateverItsStatusUnlessAlsoIgnored() {
		OutcomeClassifier byStatus = StatusExceptionClassifier.of(getClass().getClassLoader(), List.of());
		Throwable tooMany = HttpClientErrorException.create(HttpStatusCode.valueOf(429), "", null, null, null);

		assertThat(new ExceptionListClassifier(byStatus, List.of(HttpClientErrorException.TooManyRequests.class),
				List.of())
			.classify(null, new IllegalStateException("quote failed", tooMany))).isEqualTo(Outcome.FAILURE);
		assertThat(new ExceptionListClassifier(byStatus, List.of(RuntimeException.class), List.of()).classify(null,
				tooMany))
			.isEqualTo(Outcome.THROTTLED);
		assertThat(new ExceptionListClassifier(byStatus, List.of(HttpClientErrorException.class),
				List.of(HttpClientErrorException.TooManyRequests.class))
			.classify(null, tooMany)).isEqualTo(Outcome.IGNORED);
	}

	private static Throwable wrapped(Throwable cause, int wrappers) {
		Throwable error = cause;
		for (int i = 0; i < wrappers; i++) {
			error = new RuntimeException("wrapper " + i, error);
		}
		return error;
	}

}
