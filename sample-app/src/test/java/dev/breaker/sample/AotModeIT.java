package dev.breaker.sample;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The packaged sample app, processed ahead of time by {@code spring-boot:process-aot}
 * (bound in this module's pom) and started with {@code -Dspring.aot.enabled=true}, as a
 * native image would run it but on the JVM: it trips, falls back and serves
 * {@code /actuator/breakers}. Runs in {@code integration-test}, after the jar is built.
 */
class AotModeIT {

	private static final Path TARGET = Path.of("target");

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

	private Process app;

	private Path log;

	private String base;

	private void startInAotMode() throws Exception {
		assertThat(TARGET.resolve("classes/dev/breaker/sample/SampleApplication__ApplicationContextInitializer.class"))
			.as("spring-boot:process-aot generated the application context initializer")
			.exists();
		Path jar = jar();
		int port;
		try (ServerSocket socket = new ServerSocket(0)) {
			port = socket.getLocalPort();
		}
		this.base = "http://127.0.0.1:" + port;
		this.log = Files.createTempFile("sample-aot", ".log");
		String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
		this.app = new ProcessBuilder(java, "-Dspring.aot.enabled=true", "-Xmx256m", "-jar", jar.toString(),
				"--server.port=" + port, "--server.address=127.0.0.1",
				// fail fast, stay open: only consecutive failures, a long open wait
				"--breaker.instances.payments.consecutive-failures=3",
				"--breaker.instances.payments.slow-call-rate-threshold=0", "--breaker.instances.payments.stall-calls=0",
				"--breaker.instances.payments.open-wait=1m", "--breaker.instances.payments.max-open-wait=1m",
				// a cold JVM on a busy machine must not time out a healthy charge
				"--sample.dependencies.payments.connect-timeout=5s", "--sample.dependencies.payments.read-timeout=10s",
				"--sample.payments.retry-queued-every=1h")
			.redirectErrorStream(true)
			.redirectOutput(this.log.toFile())
			.start();
		await().atMost(Duration.ofMinutes(3))
			.pollInterval(Duration.ofMillis(500))
			.ignoreExceptions()
			.untilAsserted(() -> {
				assertThat(this.app.isAlive()).as("the app is running (log: %s)", Files.readString(this.log)).isTrue();
				assertThat(get("/actuator/health").statusCode()).isEqualTo(200);
			});
	}

	@AfterEach
	void stop() throws Exception {
		if (this.app != null) {
			this.app.destroy();
			if (!this.app.waitFor(30, TimeUnit.SECONDS)) {
				this.app.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
			}
		}
	}

	@Test
	void theNativeImageHintsNameTheFallbacksAndTheConfiguredExceptions() throws Exception {
		String hints = Files.readString(TARGET.resolve(
				"spring-aot/main/resources/META-INF/native-image/dev.breaker/sample-app/reachability-metadata.json"));
		assertThat(hints).contains("\"queueForLater\"", "\"precomputed\"", "\"lastGoodAnswer\"", "\"popular\"",
				"\"org.springframework.web.client.HttpClientErrorException\"",
				"\"org.springframework.web.client.RestClientException\"",
				"\"dev.breaker.autoconfigure.BreakerProperties$Instance\"",
				"\"dev.breaker.actuate.endpoint.SnapshotDescriptor\"");
	}

	@Test
	void tripsFallsBackAndServesTheBreakersEndpoint() throws Exception {
		startInAotMode();
		assertThat(Files.readString(this.log)).contains("Starting AOT-processed SampleApplication");
		JsonNode paid = checkout();
		assertThat(paid.path("payment").path("status").asString()).as("%s", paid).isEqualTo("PAID");

		assertThat(post("/chaos/payments", "{\"mode\":\"down\"}").statusCode()).isEqualTo(200);
		for (int i = 0; i < 3; i++) {
			assertThat(checkout().path("payment").path("status").asString()).as("the fallback queues the payment")
				.isEqualTo("QUEUED");
		}
		JsonNode breakers = JSON.readTree(get("/actuator/breakers").body());
		assertThat(breakers.path("breakers").path("payments").path("state").asString()).isEqualTo("OPEN");

		JsonNode rejected = checkout();
		assertThat(rejected.path("payment").path("status").asString()).isEqualTo("QUEUED");
		assertThat(rejected.path("payment").path("reason").asString()).contains("OPEN");
		JsonNode payments = JSON.readTree(get("/actuator/breakers/payments").body());
		assertThat(payments.path("state").asString()).isEqualTo("OPEN");
	}

	private JsonNode checkout() throws Exception {
		HttpResponse<String> response = post("/checkout",
				"{\"userId\":\"user-1\",\"items\":[{\"sku\":\"sku-3\",\"quantity\":2}]}");
		assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
		return JSON.readTree(response.body());
	}

	private HttpResponse<String> get(String path) throws Exception {
		return this.http.send(
				HttpRequest.newBuilder(URI.create(this.base + path)).timeout(Duration.ofSeconds(30)).build(),
				HttpResponse.BodyHandlers.ofString());
	}

	private HttpResponse<String> post(String path, String json) throws Exception {
		return this.http.send(HttpRequest.newBuilder(URI.create(this.base + path))
			.timeout(Duration.ofSeconds(30))
			.header("Content-Type", "application/json")
			.POST(HttpRequest.BodyPublishers.ofString(json))
			.build(), HttpResponse.BodyHandlers.ofString());
	}

	private static Path jar() throws IOException {
		try (Stream<Path> files = Files.list(TARGET)) {
			List<Path> jars = files.filter((file) -> file.getFileName().toString().matches("sample-app-.*\\.jar"))
				.toList();
			assertThat(jars).as("the packaged sample app").hasSize(1);
			return jars.get(0);
		}
	}

}
