package dev.breaker.sample.dependency;

import java.net.http.HttpClient;

import dev.breaker.sample.dependency.DependencyProperties.Dependency;

import org.springframework.boot.http.client.ClientHttpRequestFactoryBuilder;
import org.springframework.boot.http.client.HttpClientSettings;
import org.springframework.web.client.RestClient;

/** Builds the app's HTTP client for a dependency. */
public final class DependencyClients {

	private DependencyClients() {
	}

	/**
	 * A client for one dependency, built from Boot's {@link RestClient.Builder} so that
	 * every customizer applies (the starter's per-host breaker among them), with the
	 * dependency's connect and read timeouts; it calls {@code settings.url} when set,
	 * else the server.
	 */
	public static RestClient restClient(RestClient.Builder builder, DependencyServer server, Dependency settings) {
		HttpClientSettings timeouts = HttpClientSettings.defaults()
			.withTimeouts(settings.getConnectTimeout(), settings.getReadTimeout());
		return builder.clone()
			.baseUrl(((settings.getUrl() != null) ? settings.getUrl() : server.baseUri()).toString())
			.requestFactory(ClientHttpRequestFactoryBuilder.jdk()
				.withHttpClientCustomizer((client) -> client.version(HttpClient.Version.HTTP_1_1))
				.build(timeouts))
			.build();
	}

}
