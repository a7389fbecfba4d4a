package dev.breaker.autoconfigure.actuate;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse.BodyHandlers;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** Talks to a running application's actuator over real HTTP on loopback. */
final class Actuator {

	private static final JsonMapper json = JsonMapper.builder().build();

	private final HttpClient client = HttpClient.newHttpClient();

	private final int port;

	Actuator(int port) {
		this.port = port;
	}

	Response get(String path) {
		return send(request(path).GET());
	}

	Response post(String path, String contentType, String body) {
		return send(request(path).header("Content-Type", contentType).POST(BodyPublishers.ofString(body)));
	}

	Response postJson(String path, String body) {
		return post(path, "application/json", body);
	}

	Response delete(String path) {
		return send(request(path).DELETE());
	}

	private HttpRequest.Builder request(String path) {
		return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + "/actuator/" + path));
	}

	private Response send(HttpRequest.Builder request) {
		try {
			var response = this.client.send(request.build(), BodyHandlers.ofString());
			return new Response(response.statusCode(), response.body());
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	record Response(int status, String body) {

		JsonNode json() {
			return Actuator.json.readTree(this.body);
		}

	}

}
