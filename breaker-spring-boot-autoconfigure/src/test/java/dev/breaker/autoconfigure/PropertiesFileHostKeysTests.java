package dev.breaker.autoconfigure;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;

import dev.breaker.http.HostBreakers;
import org.junit.jupiter.api.Test;

import org.springframework.boot.env.PropertiesPropertySourceLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.env.PropertySource;
import org.springframework.core.io.ByteArrayResource;

import static dev.breaker.http.HttpClients.restClientRunner;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * In an {@code application.properties} file a {@code :} ends a key, so a host's port in
 * {@code breaker.http.instances[api.acme.com:8443]} has to be escaped; written plain, the
 * key the loader reads can tune nothing, and start-up stops rather than run the host on
 * defaults.
 */
class PropertiesFileHostKeysTests {

	private final ApplicationContextRunner runner = restClientRunner("jdk");

	@Test
	void aHostsPortEscapedInAPropertiesFileTunesThatHostsBreaker() {
		withPropertiesFile("breaker.http.instances[api.acme.com\\:8443].consecutive-failures=2\n").run((context) -> {
			assertThat(context).hasNotFailed();
			HostBreakers hosts = context.getBean(HostBreakers.class);
			assertThat(hosts.breaker(URI.create("https://api.acme.com:8443/charge")).config().consecutiveFailures())
				.isEqualTo(2);
		});
	}

	@Test
	void aHostsPortWrittenPlainInAPropertiesFileStopsStartUpSayingToEscapeIt() {
		withPropertiesFile("breaker.http.instances[api.acme.com:8443].consecutive-failures=2\n").run((context) -> {
			assertThat(context).hasFailed();
			assertThat(StartupFailure.invalidProperty(context))
				.hasMessage("Invalid value '8443].consecutive-failures=2' for property "
						+ "'breaker.http.instances.apiacmecom'; allowed: settings below this key, not a value of its "
						+ "own; in a .properties file a ':' in a key ends the key: write a host's port as "
						+ "[api.acme.com\\:8443], or use YAML");
		});
	}

	private ApplicationContextRunner withPropertiesFile(String text) {
		PropertySource<?> file = load(text);
		return this.runner.withInitializer((context) -> context.getEnvironment().getPropertySources().addFirst(file));
	}

	private static PropertySource<?> load(String text) {
		try {
			return new PropertiesPropertySourceLoader()
				.load("application.properties", new ByteArrayResource(text.getBytes(StandardCharsets.ISO_8859_1)))
				.get(0);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}
