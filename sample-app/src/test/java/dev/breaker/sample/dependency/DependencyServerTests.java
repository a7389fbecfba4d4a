package dev.breaker.sample.dependency;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import dev.breaker.sample.dependency.DependencyServer.Answer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.awaitility.Awaitility.await;

class DependencyServerTests {

	private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

	private DependencyServer server;

	@BeforeEach
	void start() throws Exception {
		this.server = DependencyServer.start("payments", 4, Duration.ZERO, Duration.ofSeconds(30),
				Chaos.healthy(Duration.ofMillis(200), 50),
				(method, path, body) -> Answer.ok("{\"path\":\"" + path + "\"}"));
	}

	@AfterEach
	void stop() {
		this.server.close();
	}

	@Test
	void healthyServerAnswersWithItsEndpoint() throws Exception {
		HttpResponse<String> response = get("/charges", Duration.ofSeconds(5));
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.body()).isEqualTo("{\"path\":\"/charges\"}");
		assertThat(this.server.counts().answered()).isEqualTo(1);
	}

	@Test
	void downServerAnswers503AtOnce() throws Exception {
		this.server.chaos(this.server.chaos().withMode(ChaosMode.DOWN));
		HttpResponse<String> response = get("/charges", Duration.ofSeconds(5));
		assertThat(response.statusCode()).isEqualTo(503);
		assertThat(response.body()).contains("payments is down");
	}

	@Test
	void wedgedServerHoldsRequestsPastTheClientTimeout() {
		this.server.chaos(this.server.chaos().withMode(ChaosMode.WEDGED));
		assertThatExceptionOfType(HttpTimeoutException.class).isThrownBy(() -> get("/charges", Duration.ofMillis(300)));
		assertThat(this.server.counts().wedged()).isEqualTo(1);
	}

	@Test
	void leavingWedgedModeReleasesTheHeldRequests() throws Exception {
		this.server.chaos(this.server.chaos().withMode(ChaosMode.WEDGED));
		CompletableFuture<HttpResponse<String>> held = this.client
			.sendAsync(request("/charges", Duration.ofSeconds(20)), HttpResponse.BodyHandlers.ofString());
		await().atMost(Duration.ofSeconds(5)).until(() -> this.server.counts().inProgress() == 1);
		assertThat(held).isNotDone();
		this.server.chaos(this.server.chaos().withMode(ChaosMode.HEALTHY));
		assertThat(held.get(5, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
	}

	@Test
	void flakyServerFailsRoughlyTheGivenShare() throws Exception {
		this.server.chaos(new Chaos(ChaosMode.FLAKY, Duration.ZERO, 30));
		int failed = 0;
		for (int i = 0; i < 400; i++) {
			if (get("/charges", Duration.ofSeconds(5)).statusCode() == 500) {
				failed++;
			}
		}
		// 400 draws at 30 %: 120 expected, outside [75, 165] has a probability below 1e-6
		assertThat(failed).isBetween(75, 165);
	}

	@Test
	void slowServerAnswersAfterTheSlowLatency() throws Exception {
		this.server.chaos(new Chaos(ChaosMode.SLOW, Duration.ofMillis(300), 0));
		long start = System.nanoTime();
		assertThat(get("/charges", Duration.ofSeconds(5)).statusCode()).isEqualTo(200);
		assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofMillis(300));
	}

	@Test
	void chaosRejectsAFailurePercentAbove100() {
		assertThatIllegalArgumentException().isThrownBy(() -> new Chaos(ChaosMode.FLAKY, Duration.ZERO, 101))
			.withMessage("failure percent must be between 0 and 100 but was 101");
	}

	@Test
	void unknownModeNamesTheAllowedOnes() {
		assertThatIllegalArgumentException().isThrownBy(() -> ChaosMode.fromLabel("melting"))
			.withMessage("unknown chaos mode 'melting': use one of healthy, slow, wedged, down, flaky");
	}

	private HttpResponse<String> get(String path, Duration timeout) throws Exception {
		return this.client.send(request(path, timeout), HttpResponse.BodyHandlers.ofString());
	}

	private HttpRequest request(String path, Duration timeout) {
		URI uri = this.server.baseUri().resolve(path);
		return HttpRequest.newBuilder(uri).timeout(timeout).GET().build();
	}

}
