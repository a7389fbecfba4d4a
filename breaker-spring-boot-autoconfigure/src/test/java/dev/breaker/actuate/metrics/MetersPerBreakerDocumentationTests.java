package dev.breaker.actuate.metrics;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.junit.jupiter.api.Test;

import dev.breaker.actuate.BreakerTree;
import dev.breaker.core.BreakerConfig;
import dev.breaker.core.BreakerRegistry;
import dev.breaker.core.ManualTicker;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * How many meters one breaker has, as {@code docs/observability.md} says it twice (what a
 * metrics job may register for each child, and why children have no meters by default):
 * the number is counted here, on a real meter registry, not guessed.
 */
class MetersPerBreakerDocumentationTests {

	private static final Path OBSERVABILITY = Path.of("..", "docs", "observability.md");

	@Test
	void theObservabilityPageStatesHowManyMetersABreakerHas() throws IOException {
		List<String> ids = metersOfANewBreaker();
		int meters = ids.size();
		String page = Files.readString(OBSERVABILITY).replaceAll("\\s+", " ");

		assertThat(page).as("the page, for the %s meters %s", meters, ids)
			.contains("(" + meters + " meters per breaker,")
			.contains("each with " + meters + " meters")
			.doesNotContainPattern("(about|some) \\d+ meters");
	}

	/**
	 * The meters of one breaker that made no transition yet (the counters of the four
	 * usual transitions exist from the start, the others are made on first use), in the
	 * registry an application scrapes: there the open-episode timer is one meter (a
	 * {@code SimpleMeterRegistry} would add a gauge per bucket).
	 */
	private static List<String> metersOfANewBreaker() {
		BreakerRegistry breakers = BreakerRegistry.builder()
			.defaults(BreakerConfig.builder().ticker(new ManualTicker()).build())
			.build();
		PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
		new BreakerMetrics(breakers, new BreakerTree(breakers), false).bindTo(registry);
		breakers.breaker("payments");
		return registry.getMeters()
			.stream()
			.filter((meter) -> "payments".equals(meter.getId().getTag("name")))
			.map((meter) -> meter.getId().getName() + meter.getId().getTags())
			.sorted()
			.toList();
	}

}
