package dev.breaker.autoconfigure.actuate;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.charset.StandardCharsets;

/**
 * Sends requests to a running application over real HTTP on loopback, paths exactly as
 * given.
 */
final class Http {

	private final HttpClient client = HttpClient.newHttpClient();

	private final int port;

	Http(int port) {
		this.port = port;
	}

	/** {@code text} percent-encoded for one path segment. */
	static String encode(String text) {
		return URLEncoder.encode(text, StandardCharsets.UTF_8).replace("+", "%20");
	}

	Actuator.Response get(String path) {
		HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + path)).GET().build();
		try {
			var response = this.client.send(request, BodyHandlers.ofString());
			return new Actuator.Response(response.statusCode(), response.body());
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

}
