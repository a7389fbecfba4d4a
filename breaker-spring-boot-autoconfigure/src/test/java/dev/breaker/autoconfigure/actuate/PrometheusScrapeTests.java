package dev.breaker.autoconfigure.actuate;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;

import dev.breaker.core.Breaker;
import dev.breaker.core.ManualTicker;
import dev.breaker.core.Outcome;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Scrapes {@code /actuator/prometheus} from a running application: the meters move as
 * calls happen, and every metric the shipped dashboard and alert rules query is there.
 */
@SpringBootTest(classes = ObservedApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "management.endpoints.web.exposure.include=prometheus",
				"breaker.defaults.consecutive-failures=3", "breaker.defaults.open-wait=30s",
				"breaker.defaults.open-wait-jitter=0", "breaker.defaults.half-open.successes-to-close=1",
				"breaker.instances.checkout.slow-call-duration=300ms", "breaker.instances.bulk.record-latency=false",
				"breaker.http.instances[api.acme.com].open-wait=10s" })
class PrometheusScrapeTests extends RunningActuator {

	private static final Path OBSERVABILITY = Path.of("..", "observability");

	private static final Pattern METRIC = Pattern.compile("\\bbreaker_[a-z0-9_]*[a-z0-9]");

	/** The metrics the starter promises, by the name of one of their samples. */
	private static final List<String> PROMISED = List.of("breaker_state", "breaker_calls_total",
			"breaker_slow_calls_total", "breaker_rejected_calls_total", "breaker_transitions_total",
			"breaker_failure_rate", "breaker_slow_call_rate", "breaker_in_flight_calls", "breaker_open_seconds_count",
			"breaker_open_seconds_sum", "breaker_open_seconds_bucket", "breaker_probes_total",
			"breaker_failure_rate_threshold", "breaker_slow_call_rate_threshold", "breaker_open_wait_seconds",
			"breaker_open_episode_seconds", "breaker_trips_total", "breaker_call_duration_seconds_bucket",
			"breaker_call_duration_seconds_count", "breaker_call_duration_seconds_sum",
			"breaker_slow_call_duration_seconds", "breaker_retries_total");

	@Autowired
	private ManualTicker ticker;

	@Autowired
	private QuoteService quotes;

	@Test
	void everyMetricTheDashboardQueriesIsInTheScrape() throws IOException {
		this.registry.breaker("payments");
		this.quotes.quote("ACME");
		JsonNode dashboard = JsonMapper.builder()
			.build()
			.readTree(OBSERVABILITY.resolve("grafana-dashboard.json").toFile());
		Set<String> used = new TreeSet<>();
		collectQueries(dashboard, used);

		assertThat(used).contains("breaker_state", "breaker_calls_total", "breaker_failure_rate_threshold");
		assertThat(scrape().names()).containsAll(used);
	}

	@Test
	void everyMetricTheAlertRulesQueryIsInTheScrape() throws IOException {
		this.registry.breaker("payments");
		Set<String> used = new TreeSet<>();
		try (InputStream rules = Files.newInputStream(OBSERVABILITY.resolve("prometheus-alerts.yml"))) {
			Map<String, List<Map<String, Object>>> file = new Yaml().load(rules);
			for (Map<String, Object> group : file.get("groups")) {
				@SuppressWarnings("unchecked")
				List<Map<String, Object>> groupRules = (List<Map<String, Object>>) group.get("rules");
				groupRules.forEach((rule) -> used.addAll(metrics(String.valueOf(rule.get("expr")))));
			}
		}

		assertThat(used).contains("breaker_transitions_total", "breaker_open_episode_seconds",
				"breaker_open_wait_seconds");
		assertThat(scrape().names()).containsAll(used);
	}

	@Test
	void everyPromisedMetricIsInTheScrape() {
		this.registry.breaker("payments");

		assertThat(scrape().names()).containsAll(PROMISED);
	}

	@Test
	void aTripMovesStateTransitionsAndRejections() throws Exception {
		Breaker orders = this.registry.breaker("orders");
		Calls.succeed(orders, 2);
		assertStateTransitionsAndRejections(scrape(), "orders", 1, 0, 0, 0);

		Calls.fail(orders, 3);
		Calls.rejected(orders, 4);

		Scrape after = scrape();
		assertStateTransitionsAndRejections(after, "orders", 0, 1, 1, 4);
		assertThat(after.value("breaker_calls_total", "name", "orders", "outcome", "success")).hasValue(2);
		assertThat(after.value("breaker_calls_total", "name", "orders", "outcome", "failure")).hasValue(3);
		assertThat(after.value("breaker_failure_rate", "name", "orders")).hasValue(60);
		assertThat(after.value("breaker_trips_total", "name", "orders")).hasValue(1);
	}

	/**
	 * {@code breaker}'s state gauges (CLOSED, OPEN), its CLOSED to OPEN transitions and
	 * its rejected calls in {@code scrape}.
	 */
	private static void assertStateTransitionsAndRejections(Scrape scrape, String breaker, int closed, int open,
			int closedToOpen, int rejected) {
		assertThat(scrape.value("breaker_state", "name", breaker, "state", "CLOSED")).hasValue(closed);
		assertThat(scrape.value("breaker_state", "name", breaker, "state", "OPEN")).hasValue(open);
		assertThat(scrape.value("breaker_transitions_total", "name", breaker, "from", "CLOSED", "to", "OPEN"))
			.hasValue(closedToOpen);
		assertThat(scrape.value("breaker_rejected_calls_total", "name", breaker)).hasValue(rejected);
	}

	@Test
	void retriesAreCountedByWhetherTheBudgetAllowedThem() {
		Breaker shipping = this.registry.breaker("shipping");
		assertThat(scrape().value("breaker_retries_total", "name", "shipping", "result", "retried")).hasValue(0);
		for (int i = 0; i < 103; i++) {
			// quiet: the floor of 10 a second over 10s allows 100
			shipping.tryRetry(false);
		}

		Scrape after = scrape();
		assertThat(after.value("breaker_retries_total", "name", "shipping", "result", "retried")).hasValue(100);
		assertThat(after.value("breaker_retries_total", "name", "shipping", "result", "budget_exhausted")).hasValue(3);
	}

	@Test
	void anOpenEpisodeIsTimedFromTheTripUntilTheBreakerClosesAgain() throws Exception {
		Breaker invoices = this.registry.breaker("invoices");
		Calls.fail(invoices, 3);
		this.ticker.advance(Duration.ofSeconds(40));
		assertThat(scrape().value("breaker_open_episode_seconds", "name", "invoices")).hasValue(40);
		assertThat(scrape().value("breaker_open_wait_seconds", "name", "invoices")).hasValue(30);

		Calls.succeed(invoices, 1);

		Scrape scrape = scrape();
		assertThat(scrape.value("breaker_state", "name", "invoices", "state", "CLOSED")).hasValue(1);
		assertThat(scrape.value("breaker_open_seconds_count", "name", "invoices")).hasValue(1);
		assertThat(scrape.value("breaker_open_seconds_sum", "name", "invoices")).hasValue(40);
		assertThat(scrape.value("breaker_open_seconds_bucket", "name", "invoices", "le", "30.0")).hasValue(0);
		assertThat(scrape.value("breaker_open_seconds_bucket", "name", "invoices", "le", "60.0")).hasValue(1);
		assertThat(scrape.value("breaker_probes_total", "name", "invoices", "result", "success")).hasValue(1);
		assertThat(scrape.value("breaker_transitions_total", "name", "invoices", "from", "HALF_OPEN", "to", "CLOSED"))
			.hasValue(1);
		assertThat(scrape.value("breaker_open_episode_seconds", "name", "invoices")).hasValue(0);
	}

	@Test
	void fallbacksAreCountedByMethodAndResult() {
		Scrape before = scrape();
		double cachedFailed = before
			.value("breaker_fallbacks_total", "name", "quotes", "fallback", "cachedQuote", "result", "failure")
			.orElse(0);
		double defaultServed = before
			.value("breaker_fallbacks_total", "name", "quotes", "fallback", "defaultQuote", "result", "success")
			.orElse(0);

		assertThat(this.quotes.quote("ACME")).isEqualTo("ACME: no quote");
		assertThat(this.quotes.quote("INIT")).isEqualTo("INIT: no quote");

		Scrape after = scrape();
		assertThat(after.value("breaker_fallbacks_total", "name", "quotes", "fallback", "cachedQuote", "result",
				"failure"))
			.hasValue(cachedFailed + 2);
		assertThat(after.value("breaker_fallbacks_total", "name", "quotes", "fallback", "defaultQuote", "result",
				"success"))
			.hasValue(defaultServed + 2);
	}

	@Test
	void callDurationsAreAHistogramPerOutcomeReadFromTheEngine() {
		Breaker checkout = this.registry.breaker("checkout");
		Calls.timed(checkout, Outcome.SUCCESS, 20_000_000, 3);
		Calls.timed(checkout, Outcome.SUCCESS, 0, 2);
		Calls.timed(checkout, Outcome.FAILURE, 900_000_000, 1);

		Actuator.Response response = this.actuator.get("prometheus");
		Scrape scrape = Scrape.parse(response.body());

		assertThat(response.body()).contains("# TYPE breaker_call_duration_seconds histogram");
		String bucket = "breaker_call_duration_seconds_bucket";
		assertThat(scrape.value(bucket, "name", "checkout", "outcome", "success", "le", "0.001")).hasValue(2);
		assertThat(scrape.value(bucket, "name", "checkout", "outcome", "success", "le", "0.01")).hasValue(2);
		assertThat(scrape.value(bucket, "name", "checkout", "outcome", "success", "le", "0.025")).hasValue(5);
		assertThat(scrape.value(bucket, "name", "checkout", "outcome", "success", "le", "+Inf")).hasValue(5);
		assertThat(scrape.value("breaker_call_duration_seconds_count", "name", "checkout", "outcome", "success"))
			.hasValue(5);
		assertThat(scrape.value("breaker_call_duration_seconds_sum", "name", "checkout", "outcome", "success"))
			.hasValue(0.06);
		assertThat(scrape.value(bucket, "name", "checkout", "outcome", "failure", "le", "0.3")).hasValue(0);
		assertThat(scrape.value(bucket, "name", "checkout", "outcome", "failure", "le", "1.0")).hasValue(1);
		assertThat(scrape.value(bucket, "name", "checkout", "outcome", "timeout", "le", "+Inf")).hasValue(0);
		assertThat(scrape.value("breaker_slow_call_duration_seconds", "name", "checkout")).hasValue(0.3);
	}

	@Test
	void everyBreakerHasTheSlowCallDurationAmongItsBuckets() {
		this.registry.breaker("payments");

		Scrape scrape = scrape();

		assertThat(scrape.value("breaker_call_duration_seconds_bucket", "name", "payments", "outcome", "success", "le",
				"2.0"))
			.hasValue(0);
		assertThat(scrape.value("breaker_slow_call_duration_seconds", "name", "payments")).hasValue(2);
	}

	@Test
	void aBreakerThatKeepsNoLatencyHasNoDurationHistogram() throws Exception {
		Calls.succeed(this.registry.breaker("bulk"), 1);

		Scrape scrape = scrape();

		assertThat(scrape.value("breaker_call_duration_seconds_count", "name", "bulk", "outcome", "success")).isEmpty();
		assertThat(scrape.value("breaker_calls_total", "name", "bulk", "outcome", "success")).hasValue(1);
	}

	@Test
	void aBreakerCreatedAfterStartUpGetsItsMetersOnce() throws Exception {
		Breaker late = this.registry.breaker("created-late");
		Calls.succeed(late, 1);
		Calls.succeed(this.registry.breaker("created-late"), 1);

		assertThat(scrape().value("breaker_calls_total", "name", "created-late", "outcome", "success")).hasValue(2);
	}

	/** A host named under breaker.http.instances: one found in traffic has no meters. */
	@Test
	void aConfiguredHostIsABreakerWithItsOwnName() throws Exception {
		Calls.succeed(this.registry.breaker("http", "api.acme.com"), 1);

		assertThat(scrape().value("breaker_calls_total", "name", "http:api.acme.com", "outcome", "success"))
			.hasValue(1);
	}

	private Scrape scrape() {
		Actuator.Response response = this.actuator.get("prometheus");
		assertThat(response.status()).isEqualTo(200);
		return Scrape.parse(response.body());
	}

	/**
	 * Collects the metrics named in every query of the dashboard: targets, variables,
	 * annotations.
	 */
	private static void collectQueries(JsonNode node, Set<String> metrics) {
		if (node.isObject()) {
			for (String field : node.propertyNames()) {
				JsonNode value = node.get(field);
				if (value.isString() && Set.of("expr", "query", "definition").contains(field)) {
					metrics.addAll(metrics(value.asString()));
				}
				collectQueries(value, metrics);
			}
		}
		else if (node.isArray()) {
			node.forEach((element) -> collectQueries(element, metrics));
		}
	}

	private static Set<String> metrics(String query) {
		Set<String> names = new TreeSet<>();
		Matcher matcher = METRIC.matcher(query);
		while (matcher.find()) {
			names.add(matcher.group());
		}
		return names;
	}

}
