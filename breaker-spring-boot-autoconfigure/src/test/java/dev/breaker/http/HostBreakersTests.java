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
	void aHostThatJavaNetUriReadsAsNoServerHasTheKeyItsClientSendsTo() {
		// java.net.URI refuses '_' in a server's name (getHost() is null); URL and
		// HttpURLConnection, Reactor Netty and Apache's client send to such a host
		assertThat(HostBreakers.hostKey(URI.create("http://payments_api:8080/charge"))).isEqualTo("payments_api:8080");
		assertThat(HostBreakers.hostKey(URI.create("http://Payments_API/charge"))).isEqualTo("payments_api");
		assertThat(HostBreakers.hostKey(URI.create("https://payments_api:443/"))).isEqualTo("payments_api");
		assertThat(HostBreakers.hostKey(URI.create("http://payments_api:/"))).isEqualTo("payments_api");
		assertThat(HostBreakers.hostKey(URI.create("http://user:secret@payments_api:8080/")))
			.isEqualTo("payments_api:8080");

	}

	@Test
	void anAuthorityWithNoHostHasNoKey() {
		assertThat(HostBreakers.hostKey(URI.create("http://user@:8080/"))).isNull();
		assertThat(HostBreakers.hostKey(URI.create("http://:8080/"))).isNull();
		assertThat(HostBreakers.hostKey(URI.create("file:///etc/passwd"))).isNull();
		assertThat(HostBreakers.hostKey(URI.create("mailto:ops@acme.com"))).isNull();
		// no client sends to these: a port that is not a number, two colons
		assertThat(HostBreakers.hostKey(URI.create("http://payments_api:http/"))).isNull();
		assertThat(HostBreakers.hostKey(URI.create("http://payments_api:1:2/"))).isNull();
		// java.net.URL reads no host where the authority holds two '@'
		assertThat(HostBreakers.hostKey(URI.create("http://a@b@payments_api/"))).isNull();
		assertThat(HostBreakers.hostKey(URI.create("http://ops@evil.com@pay_api:8080/"))).isNull();
	}

	@Test
	void uriWithoutHostHasNoKey() {
		assertThat(HostBreakers.hostKey(URI.create("/relative/path"))).isNull();
	}

}
