package dev.breaker.autoconfigure;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeoutException;

import dev.breaker.core.Outcome;
import dev.breaker.core.OutcomeClassifier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatusCode;
import org.springframework.web.client.HttpClientErrorException;
import org.springframework.web.client.HttpServerErrorException;
import org.springframework.web.client.RestClientResponseException;
import org.springframework.web.reactive.function.client.WebClientResponseException;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The default classifier judges an exception that reports an HTTP error answer by its
 * status, as the per-host breakers judge that answer; anything else as
 * {@link OutcomeClassifier#defaults()}.
 */
class StatusExceptionClassifierTests {

	private final OutcomeClassifier classifier = StatusExceptionClassifier
		.of(StatusExceptionClassifierTests.class.getClassLoader(), List.of());

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(BreakerAutoConfiguration.class));

	@ParameterizedTest(name = "{0} -> {1}")
	@CsvSource({ "400, IGNORED", "401, IGNORED", "404, IGNORED", "408, IGNORED", "409, IGNORED", "422, IGNORED",
			"429, THROTTLED", "500, FAILURE", "502, FAILURE", "503, FAILURE", "504, FAILURE" })
	void aRestClientStatusExceptionIsJudgedAsTheHostBreakersJudgeItsStatus(int status, Outcome outcome) {
		Throwable error = (status < 500)
				? HttpClientErrorException.create(HttpStatusCode.valueOf(status), "", null, null, null)
				: HttpServerErrorException.create(HttpStatusCode.valueOf(status), "", null, null, null);
		assertThat(this.classifier.classify(null, error)).isEqualTo(outcome);
	}

	@ParameterizedTest(name = "{0} -> {1}")
	@CsvSource({ "404, IGNORED", "429, THROTTLED", "500, FAILURE" })
	void aWebClientStatusExceptionIsJudgedAsTheHostBreakersJudgeItsStatus(int status, Outcome outcome) {
		Throwable error = WebClientResponseException.create(HttpStatusCode.valueOf(status), "", new HttpHeaders(),
				new byte[0], StandardCharsets.UTF_8, null);
		assertThat(this.classifier.classify(null, error)).isEqualTo(outcome);
	}

	@Test
	void aStatusExceptionBehindAnotherIsJudgedByItsStatus() {
		Throwable wrapped = new IllegalStateException("order lookup failed",
				HttpClientErrorException.create(HttpStatusCode.valueOf(404), "", null, null, null));
		assertThat(this.classifier.classify(null, wrapped)).isEqualTo(Outcome.IGNORED);
	}

	@Test
	void aStatusBelowTheErrorRangesIsJudgedAsAnyException() {
		Throwable redirect = new RestClientResponseException("moved", HttpStatusCode.valueOf(302), "", null, null,
				null);
		assertThat(this.classifier.classify(null, redirect)).isEqualTo(Outcome.FAILURE);
	}

	@Test
	void everythingElseIsJudgedAsTheEngineDefaults() {
		assertThat(this.classifier.classify(null, new IOException("connection refused"))).isEqualTo(Outcome.FAILURE);
		assertThat(this.classifier.classify(null, new TimeoutException())).isEqualTo(Outcome.TIMEOUT);
		assertThat(this.classifier.classify("ok", null)).isEqualTo(Outcome.SUCCESS);
	}

	@Test
	void anotherLibrarysStatusIsReadByTheReadersGiven() {
		OutcomeClassifier withReader = StatusExceptionClassifier.of(getClass().getClassLoader(),
				List.of((error) -> (error instanceof ClientStatus status) ? status.status : 0));
		assertThat(withReader.classify(null, new ClientStatus(404))).isEqualTo(Outcome.IGNORED);
		assertThat(withReader.classify(null, new ClientStatus(502))).isEqualTo(Outcome.FAILURE);
		assertThat(withReader.classify(null, new ClientStatus(-1))).as("no answer").isEqualTo(Outcome.FAILURE);
	}

	@Test
	void theDefaultClassifierBeanJudgesStatusExceptions() {
		this.runner.run((context) -> assertThat(context.getBean(OutcomeClassifier.class)
			.classify(null, HttpClientErrorException.create(HttpStatusCode.valueOf(404), "", null, null, null)))
			.isEqualTo(Outcome.IGNORED));
	}

	@Test
	void theDefaultClassifierBeanReadsTheStatusReaderBeans() {
		this.runner
			.withBean(StatusExceptionClassifier.StatusReader.class,
					() -> (error) -> (error instanceof ClientStatus status) ? status.status : 0)
			.run((context) -> assertThat(context.getBean(OutcomeClassifier.class).classify(null, new ClientStatus(404)))
				.isEqualTo(Outcome.IGNORED));
	}

	@Test
	void withoutSpringWebTheDefaultClassifierIsTheEngines() {
		this.runner.withClassLoader(new FilteredClassLoader("org.springframework.web"))
			.run((context) -> assertThat(context.getBean(OutcomeClassifier.class))
				.isSameAs(OutcomeClassifier.defaults()));
	}

	static final class ClientStatus extends RuntimeException {

		private final int status;

		ClientStatus(int status) {
			super("status " + status);
			this.status = status;
		}

	}

}
