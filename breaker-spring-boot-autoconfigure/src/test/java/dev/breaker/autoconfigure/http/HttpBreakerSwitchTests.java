package dev.breaker.autoconfigure.http;

import dev.breaker.http.HostBreakers;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static dev.breaker.http.HttpClients.restClientRunner;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code breaker.http.enabled} reads its value as Spring's binder does, so a value the
 * binder takes as true never turns the HTTP clients' breakers off without a word.
 */
class HttpBreakerSwitchTests {

	private final ApplicationContextRunner runner = restClientRunner("jdk");

	/** Spring's binder reads these as true; the switch must not read them as off. */
	@ParameterizedTest
	@ValueSource(strings = { "on", "yes", "1", "true ", "TRUE" })
	void aSwitchValueSpringReadsAsTrueNeverTurnsTheHttpBreakersOffSilently(String value) {
		this.runner.withPropertyValues("breaker.http.enabled=" + value)
			.run((context) -> assertThat(context).as("breaker.http.enabled='%s' started; HTTP clients guarded?", value)
				.hasNotFailed()
				.hasSingleBean(HostBreakers.class));
	}

	@ParameterizedTest
	@ValueSource(strings = { "false", "off", "no", "0", " FALSE" })
	void aSwitchValueSpringReadsAsFalseTurnsTheHttpBreakersOff(String value) {
		this.runner.withPropertyValues("breaker.http.enabled=" + value)
			.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(HostBreakers.class));
	}

	@Test
	void theHttpBreakersAreOnWhenTheirSwitchIsMissing() {
		this.runner.run((context) -> assertThat(context).hasNotFailed().hasSingleBean(HostBreakers.class));
	}

}
