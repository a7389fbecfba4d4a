package dev.breaker.autoconfigure.actuate;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;

import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.web.client.RestClient;

import dev.breaker.http.HostBreakers;
import dev.breaker.http.LoopbackServer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * By default ({@code breaker.metrics.host-tags=false}) a host the HTTP clients find in
 * their traffic gets a breaker but no series: a URL built from user input must not grow
 * Prometheus without bound. A host named under {@code breaker.http.instances} is one the
 * operator chose, so it keeps its series. Checked on a real scrape, with real requests to
 * loopback servers through the auto-configured {@code RestClient}.
 */
@SpringBootTest(classes = ObservedApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = "management.endpoints.web.exposure.include=breakers,prometheus")
class TrafficHostMetersScrapeTests extends RunningActuator {

	/** The host named under {@code breaker.http.instances}. */
	private static final LoopbackServer configured = LoopbackServer.start();

	/** A host no property names. */
	private static final LoopbackServer discovered = LoopbackServer.start();

	@Autowired
	private RestClient.Builder clients;

	@Autowired
	private MeterRegistry meters;

	@DynamicPropertySource
	static void configuredHost(DynamicPropertyRegistry properties) {
		properties.add("breaker.http.instances[127.0.0.1:" + configured.uri("/").getPort() + "].open-wait",
				() -> "10s");
	}

	@AfterAll
	static void stopServers() {
		configured.close();
		discovered.close();
	}

	@Test
	void hostsFoundInTrafficHaveNoSeriesOfTheirOwnByDefault() {
		// the configured server by another name is another host, and not a configured one
		URI otherName = URI.create("http://localhost:" + configured.uri("/").getPort() + "/status/200");
		get(discovered.uri("/status/200"), 2);
		get(otherName, 1);

		Scrape scrape = scrape();

		assertThat(scrape.labelValues("name")).doesNotContain(discovered.breakerName(),
				HostBreakers.GROUP + ":localhost:" + otherName.getPort());
		// the breakers are there, guarding and counting, and listed by the endpoint
		assertThat(this.registry.find(discovered.breakerName())).isPresent();
		assertThat(this.actuator.get("breakers/" + discovered.breakerName()).status()).isEqualTo(200);
	}

	@Test
	void aHostNamedUnderBreakerHttpInstancesKeepsItsSeries() {
		get(configured.uri("/status/200"), 3);

		Scrape scrape = scrape();

		assertThat(scrape.value("breaker_calls_total", "name", configured.breakerName(), "outcome", "success"))
			.hasValue(3);
		assertThat(scrape.value("breaker_call_duration_seconds_count", "name", configured.breakerName(), "outcome",
				"success"))
			.hasValue(3);
		assertThat(scrape.value("breaker_open_wait_seconds", "name", configured.breakerName())).hasValue(10);
	}

	@Test
	void fiftyHostsFoundInTrafficAddNoBreakerMeters() {
		get(discovered.uri("/status/200"), 1);
		long metersBefore = breakerMeters();
		int samplesBefore = breakerSamples(scrape());
		int hostsBefore = this.registry.children(HostBreakers.GROUP).size();

		List<LoopbackServer> hosts = new ArrayList<>();
		try {
			for (int i = 0; i < 50; i++) {
				LoopbackServer host = LoopbackServer.start();
				hosts.add(host);
				get(host.uri("/status/200"), 1);
			}
		}
		finally {
			hosts.forEach(LoopbackServer::close);
		}

		assertThat(this.registry.children(HostBreakers.GROUP)).hasSize(hostsBefore + 50);
		assertThat(breakerMeters()).isEqualTo(metersBefore);
		assertThat(breakerSamples(scrape())).isEqualTo(samplesBefore);
	}

	private void get(URI uri, int times) {
		RestClient client = this.clients.build();
		for (int i = 0; i < times; i++) {
			client.get().uri(uri).retrieve().toBodilessEntity();
		}
	}

	/** The breaker meters in the application's meter registry. */
	private long breakerMeters() {
		return this.meters.getMeters()
			.stream()
			.filter((meter) -> meter.getId().getName().startsWith("breaker."))
			.count();
	}

	/** The samples of breaker metrics in a scrape (Spring's own HTTP metrics aside). */
	private static int breakerSamples(Scrape scrape) {
		return scrape.size("breaker_");
	}

	private Scrape scrape() {
		Actuator.Response response = this.actuator.get("prometheus");
		assertThat(response.status()).isEqualTo(200);
		return Scrape.parse(response.body());
	}

}
