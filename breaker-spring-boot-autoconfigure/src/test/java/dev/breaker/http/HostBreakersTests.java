package dev.breaker.http;

import java.net.URI;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class HostBreakersTests {

	@Test
	void defaultPortIsLeftOutOfTheKey() {
		assertThat(HostBreakers.hostKey(URI.create("http://api.acme.com/orders"))).isEqualTo("api.acme.com");
		assertThat(HostBreakers.hostKey(URI.create("http://api.acme.com:80/orders"))).isEqualTo("api.acme.com");
		assertThat(HostBreakers.hostKey(URI.create("https://api.acme.com:443/"))).isEqualTo("api.acme.com");
	}

	@Test
	void otherPortsAreInTheKey() {
		assertThat(HostBreakers.hostKey(URI.create("https://api.acme.com:8443/x"))).isEqualTo("api.acme.com:8443");
		assertThat(HostBreakers.hostKey(URI.create("http://api.acme.com:443/x"))).isEqualTo("api.acme.com:443");
	}

	@Test
	void hostIsLowerCased() {
		assertThat(HostBreakers.hostKey(URI.create("https://API.Acme.COM/"))).isEqualTo("api.acme.com");
	}

	@Test
	void uriWithoutHostHasNoKey() {
		assertThat(HostBreakers.hostKey(URI.create("/relative/path"))).isNull();
	}

}
