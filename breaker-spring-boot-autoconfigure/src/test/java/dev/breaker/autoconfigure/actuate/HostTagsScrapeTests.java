package dev.breaker.autoconfigure.actuate;

import java.net.URI;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.web.client.RestClient;

import dev.breaker.http.HostBreakers;
import dev.breaker.http.LoopbackServer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * With {@code breaker.metrics.host-tags=true}, every host the HTTP clients find in their
 * traffic reaches Prometheus as a breaker of its own, named {@code http:<host>}. Checked
 * on a real scrape, with real requests to a loopback server through the auto-configured
 * {@code RestClient}.
 */
@SpringBootTest(classes = ObservedApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "management.endpoints.web.exposure.include=prometheus", "breaker.metrics.host-tags=true" })
class HostTagsScrapeTests extends RunningActuator {

	private static final LoopbackServer server = LoopbackServer.start();

	@Autowired
	private RestClient.Builder clients;

	@AfterAll
	static void stopServer() {
		server.close();
	}

	@Test
	void hostsFoundInTrafficHaveSeriesOfTheirOwn() {
		RestClient client = this.clients.build();
		URI otherName = URI.create("http://localhost:" + server.uri("/").getPort() + "/status/200");
		for (int i = 0; i < 2; i++) {
			client.get().uri(server.uri("/status/200")).retrieve().toBodilessEntity();
		}
		client.get().uri(otherName).retrieve().toBodilessEntity();

		Scrape scrape = Scrape.parse(this.actuator.get("prometheus").body());

		assertThat(scrape.value("breaker_calls_total", "name", server.breakerName(), "outcome", "success")).hasValue(2);
		String byOtherName = HostBreakers.GROUP + ":localhost:" + otherName.getPort();
		assertThat(scrape.value("breaker_calls_total", "name", byOtherName, "outcome", "success")).hasValue(1);
		assertThat(scrape.value("breaker_call_duration_seconds_count", "name", byOtherName, "outcome", "success"))
			.hasValue(1);
		assertThat(scrape.value("breaker_state", "name", server.breakerName(), "state", "CLOSED")).hasValue(1);
	}

}
