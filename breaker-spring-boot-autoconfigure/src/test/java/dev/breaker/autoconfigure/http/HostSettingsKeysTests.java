package dev.breaker.autoconfigure.http;

import java.net.URI;
import java.util.Map;

import dev.breaker.autoconfigure.InvalidBreakerPropertyException;
import dev.breaker.core.Breaker;
import dev.breaker.core.Outcome;
import dev.breaker.http.HostBreakers;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.env.MapPropertySource;
import org.springframework.http.HttpHeaders;

import static dev.breaker.http.HttpClients.restClientRunner;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A host's settings under {@code breaker.http.instances[<host>]} are the settings of the
 * breaker its requests reach, or stop start-up: a key no request can have is never bound,
 * validated and then silently unused.
 */
class HostSettingsKeysTests {

	private final ApplicationContextRunner runner = restClientRunner("jdk");

	@ParameterizedTest
	@CsvSource({ "api.acme.com, https://api.acme.com/charge", "API.Acme.com, https://api.acme.com:443/charge",
			"api.acme.com:8443, https://api.acme.com:8443/charge", "api.acme.com., https://api.acme.com./charge",
			"127.0.0.1:8081, http://127.0.0.1:8081/", "payments_api:8080, http://payments_api:8080/charge" })
	void aHostsSettingsAreTheSettingsOfTheBreakerItsRequestsReach(String configured, String request) {
		withHostSettings(configured).run((context) -> {
			assertThat(context).hasNotFailed();
			HostBreakers hosts = context.getBean(HostBreakers.class);
			Breaker breaker = hosts.breaker(URI.create(request));
			assertThat(breaker.config().consecutiveFailures())
				.as("consecutive-failures of %s, configured as [%s]", breaker.name(), configured)
				.isEqualTo(2);
			assertThat(hosts.classify(breaker, 404, new HttpHeaders())).isEqualTo(Outcome.FAILURE);
		});
	}

	@ParameterizedTest
	@CsvSource({ "api.acme.com:443, https://api.acme.com/charge", "api.acme.com:443, http://api.acme.com:443/charge",
			"api.acme.com:80, http://api.acme.com/charge", "api.acme.com:80, https://api.acme.com:80/charge",
			"[::1]:443, https://[::1]/charge", "[::1]:443, http://[::1]:443/charge" })
	void aHostWrittenWithADefaultPortTunesTheBreakerOfEitherReading(String configured, String request) {
		// :443 is https's default, left out of its requests' breaker; on http it is a
		// port
		aHostsSettingsAreTheSettingsOfTheBreakerItsRequestsReach(configured, request);
	}

	@ParameterizedTest
	@CsvSource({ "API.Acme.com:8443, http:api.acme.com:8443", "payments_api:8080, http:payments_api:8080",
			"api.acme.com:443, http:api.acme.com http:api.acme.com:443" })
	void aConfiguredHostIsKnownByTheNamesOfTheBreakersItsRequestsReach(String configured, String breakers) {
		// what keeps its meters with breaker.metrics.host-tags off
		withHostSettings(configured).run((context) -> assertThat(context.getBean(ConfiguredHosts.class).breakerNames())
			.containsExactlyInAnyOrder(breakers.split(" ")));
	}

	@Test
	void twoKeysTuningOneBreakerStopStartUpNamingBoth() {
		Map<String, Object> properties = Map.of("breaker.http.instances[api.acme.com].consecutive-failures", "2",
				"breaker.http.instances[api.acme.com:443].consecutive-failures", "3");
		this.runner
			.withInitializer((context) -> context.getEnvironment()
				.getPropertySources()
				.addFirst(new MapPropertySource("application.yml", new java.util.TreeMap<>(properties))))
			.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(context.getStartupFailure()).rootCause()
					.isInstanceOf(InvalidBreakerPropertyException.class)
					.hasMessageContaining("configures breaker http:api.acme.com too")
					.hasMessageContaining("breaker.http.instances[api.acme.com]")
					.hasMessageContaining("breaker.http.instances[api.acme.com:443]");
			});
	}

	@ParameterizedTest
	@ValueSource(strings = { "https://api.acme.com", "api.acme.com/orders", "ops@api.acme.com", "api.acme.com?x=1",
			"api acme.com", ":8443", "api.acme.com:http" })
	void aKeyNoRequestsHostCanHaveStopsStartUpNamingIt(String configured) {
		withHostSettings(configured).run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).rootCause()
				.isInstanceOf(InvalidBreakerPropertyException.class)
				.hasMessageStartingWith("Invalid value '" + configured + "' for property 'breaker.http.instances["
						+ configured + "]'; allowed: a host as requests name it, with :port off the scheme's "
						+ "default port (api.acme.com, api.acme.com:8443)");
		});
	}

	private ApplicationContextRunner withHostSettings(String host) {
		// a map source, as application.yml gives: TestPropertyValues would split the key
		// at its ':'
		Map<String, Object> properties = Map.of("breaker.defaults.consecutive-failures", "7",
				"breaker.http.instances[" + host + "].consecutive-failures", "2",
				"breaker.http.instances[" + host + "].status-outcomes.404", "failure");
		return this.runner.withInitializer((context) -> context.getEnvironment()
			.getPropertySources()
			.addFirst(new MapPropertySource("application.yml", properties)));
	}

}
