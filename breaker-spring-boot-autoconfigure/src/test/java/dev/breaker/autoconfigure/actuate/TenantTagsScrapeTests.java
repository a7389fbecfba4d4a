package dev.breaker.autoconfigure.actuate;

import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * With {@code breaker.metrics.tenant-tags=true}, tenant children reach Prometheus tagged
 * with their tenant next to breakers that have none (hosts too, with
 * {@code breaker.metrics.host-tags=true}): Prometheus drops a meter whose tag keys differ
 * from those of its name, so this is checked on a real scrape.
 */
@SpringBootTest(classes = ObservedApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "management.endpoints.web.exposure.include=prometheus", "breaker.metrics.tenant-tags=true",
				"breaker.metrics.host-tags=true", "breaker.instances.recommendations.tenants.max=100" })
class TenantTagsScrapeTests extends RunningActuator {

	@Test
	void tenantChildrenAreTaggedWithTheirParentAndTenant() throws Exception {
		Calls.succeed(this.registry.breaker("recommendations"), 1);
		Calls.succeed(this.registry.breaker("recommendations", "user-42"), 2);
		Calls.succeed(this.registry.breaker("http", "api.acme.com"), 3);

		Scrape scrape = Scrape.parse(this.actuator.get("prometheus").body());

		// A tenant's calls go through its parent too, so the parent saw all three.
		assertThat(scrape.value("breaker_calls_total", "name", "recommendations", "tenant", "", "outcome", "success"))
			.hasValue(3);
		assertThat(scrape.value("breaker_calls_total", "name", "recommendations", "tenant", "user-42", "outcome",
				"success"))
			.hasValue(2);
		assertThat(scrape.value("breaker_calls_total", "name", "http:api.acme.com", "tenant", "", "outcome", "success"))
			.hasValue(3);
		assertThat(scrape.value("breaker_state", "name", "recommendations", "tenant", "user-42", "state", "CLOSED"))
			.hasValue(1);
	}

	@Test
	void aTenantTagCarriesNoControlCharacter() throws Exception {
		Calls.succeed(this.registry.breaker("search", "crlf\r\nbreaker_fake_total 1\u001b[31m"), 1);

		String body = this.actuator.get("prometheus").body();

		assertThat(body).doesNotContain("\r", "\u001b").doesNotContainPattern("(?m)^breaker_fake_total");
		// Prometheus writes a backslash in a label value as two
		assertThat(Scrape.parse(body)
			.value("breaker_calls_total", "name", "search", "tenant", "crlf\\\\r\\\\nbreaker_fake_total 1\\\\u001b[31m",
					"outcome", "success"))
			.hasValue(1);
	}

}
