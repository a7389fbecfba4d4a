package dev.breaker.http;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpTimeoutException;
import java.util.Map;

import dev.breaker.core.Outcome;
import org.junit.jupiter.api.Test;

import org.springframework.web.client.ResourceAccessException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class HttpClassifierTests {

	private final HttpClassifier classifier = HttpClassifier.defaults();

	@Test
	void twoHundredsAndRedirectsAreSuccesses() {
		assertThat(this.classifier.classify(200, false)).isEqualTo(Outcome.SUCCESS);
		assertThat(this.classifier.classify(204, false)).isEqualTo(Outcome.SUCCESS);
		assertThat(this.classifier.classify(304, false)).isEqualTo(Outcome.SUCCESS);
	}

	@Test
	void fourHundredsAreTheCallersFault() {
		assertThat(this.classifier.classify(400, false)).isEqualTo(Outcome.IGNORED);
		assertThat(this.classifier.classify(404, false)).isEqualTo(Outcome.IGNORED);
		assertThat(this.classifier.classify(409, true)).isEqualTo(Outcome.IGNORED);
	}

	@Test
	void fiveHundredsAreFailures() {
		assertThat(this.classifier.classify(500, false)).isEqualTo(Outcome.FAILURE);
		assertThat(this.classifier.classify(502, false)).isEqualTo(Outcome.FAILURE);
		assertThat(this.classifier.classify(503, false)).isEqualTo(Outcome.FAILURE);
		assertThat(this.classifier.classify(504, true)).isEqualTo(Outcome.FAILURE);
	}

	@Test
	void tooManyRequestsIsThrottledWithOrWithoutRetryAfter() {
		assertThat(this.classifier.classify(429, false)).isEqualTo(Outcome.THROTTLED);
		assertThat(this.classifier.classify(429, true)).isEqualTo(Outcome.THROTTLED);
	}

	@Test
	void unavailableWithRetryAfterIsThrottled() {
		assertThat(this.classifier.classify(503, true)).isEqualTo(Outcome.THROTTLED);
	}

	@Test
	void statusOutcomesOverrideTheRules() {
		HttpClassifier custom = this.classifier.withStatusOutcomes(Map.of(404, Outcome.SUCCESS, 409, Outcome.FAILURE));
		assertThat(custom.classify(404, false)).isEqualTo(Outcome.SUCCESS);
		assertThat(custom.classify(409, false)).isEqualTo(Outcome.FAILURE);
		assertThat(custom.classify(400, false)).isEqualTo(Outcome.IGNORED);
		assertThat(this.classifier.classify(404, false)).as("the defaults are unchanged").isEqualTo(Outcome.IGNORED);
	}

	@Test
	void laterStatusOutcomesWin() {
		HttpClassifier custom = this.classifier.withStatusOutcomes(Map.of(404, Outcome.SUCCESS))
			.withStatusOutcomes(Map.of(404, Outcome.FAILURE));
		assertThat(custom.classify(404, false)).isEqualTo(Outcome.FAILURE);
	}

	@Test
	void statusOutsideTheHttpRangeIsRefused() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> this.classifier.withStatusOutcomes(Map.of(600, Outcome.SUCCESS)))
			.withMessage("HTTP status must be in 100..599 but was 600");
	}

	@Test
	void refusedAndResetConnectionsAreFailures() {
		assertThat(this.classifier.classify(new ConnectException("Connection refused"))).isEqualTo(Outcome.FAILURE);
		assertThat(this.classifier.classify(new SocketException("Connection reset"))).isEqualTo(Outcome.FAILURE);
		assertThat(this.classifier.classify(new IOException("closed"))).isEqualTo(Outcome.FAILURE);
	}

	@Test
	void connectTimeoutsAreFailures() {
		assertThat(this.classifier.classify(new HttpConnectTimeoutException("HTTP connect timed out")))
			.isEqualTo(Outcome.FAILURE);
		assertThat(this.classifier.classify(new SocketTimeoutException("Connect timed out")))
			.isEqualTo(Outcome.FAILURE);
	}

	@Test
	void readTimeoutsAreTimeouts() {
		assertThat(this.classifier.classify(new HttpTimeoutException("request timed out"))).isEqualTo(Outcome.TIMEOUT);
		assertThat(this.classifier.classify(new SocketTimeoutException("Read timed out"))).isEqualTo(Outcome.TIMEOUT);
		assertThat(this.classifier.classify(new ReadTimeoutException())).isEqualTo(Outcome.TIMEOUT);
	}

	@Test
	void causesAreSearched() {
		assertThat(this.classifier.classify(new ResourceAccessException("I/O error", new HttpTimeoutException("t"))))
			.isEqualTo(Outcome.TIMEOUT);
		assertThat(this.classifier.classify(new UncheckedIOException(new ConnectException("refused"))))
			.isEqualTo(Outcome.FAILURE);
	}

	@Test
	void anErrorWithNoIoBehindItSaysNothingAboutTheHost() {
		assertThat(this.classifier.classify(new IllegalStateException("bad interceptor"))).isEqualTo(Outcome.IGNORED);
	}

	/** Named like Netty's, which is not on this module's classpath. */
	private static final class ReadTimeoutException extends RuntimeException {

	}

}
