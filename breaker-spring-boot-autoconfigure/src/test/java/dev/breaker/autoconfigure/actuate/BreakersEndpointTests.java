package dev.breaker.autoconfigure.actuate;

import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import dev.breaker.actuate.history.BreakerHistory;
import dev.breaker.core.Breaker;
import dev.breaker.core.ManualTicker;
import dev.breaker.core.Outcome;
import dev.breaker.core.State;

import static org.assertj.core.api.Assertions.assertThat;

@SpringBootTest(classes = ObservedApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "management.endpoints.web.exposure.include=breakers",
				"management.endpoint.breakers.access=unrestricted", "breaker.defaults.consecutive-failures=3",
				"breaker.defaults.open-wait=30s", "breaker.defaults.open-wait-jitter=0",
				"breaker.instances.recommendations.tenants.max=100", "breaker.instances.evicting.tenants.max=2",
				"breaker.instances.bulk.record-latency=false", "breaker.instances.busy.minimum-calls-ratio=0.5",
				"breaker.instances.busy.half-open.max-probes=auto" })
@ExtendWith(OutputCaptureExtension.class)
class BreakersEndpointTests extends RunningActuator {

	@Autowired
	private ManualTicker ticker;

	@Autowired
	private BreakerHistory history;

	@Test
	void listsEveryBreakerWithItsChildrenThatAreNotClosedGroupedUnderIt() throws Exception {
		this.registry.breaker("catalog");
		Calls.succeed(this.registry.breaker("catalog"), 4);
		this.registry.breaker("listed");
		this.registry.breaker("listed", "user-42").forceOpen();
		this.registry.breaker("listed", "user-43");
		this.registry.breaker("http", "api.acme.com").disable();
		this.registry.breaker("http", "api.other.com");

		Actuator.Response response = this.actuator.get("breakers");

		assertThat(response.status()).isEqualTo(200);
		JsonNode breakers = response.json().get("breakers");
		JsonNode catalog = breakers.get("catalog");
		assertThat(catalog.get("state").asString()).isEqualTo("CLOSED");
		assertThat(catalog.get("since").asString()).isNotEmpty();
		assertThat(catalog.get("calls").asLong()).isEqualTo(4);
		assertThat(catalog.get("failureRate").asDouble()).isZero();
		assertThat(catalog.get("slowCallRate").asDouble()).isZero();
		assertThat(catalog.get("children").size()).isZero();
		assertThat(catalog.has("unlistedChildren")).isFalse();
		assertThat(breakers.get("listed").get("children").propertyNames()).containsExactly("listed:user-42");
		assertThat(breakers.get("listed").get("unlistedChildren").propertyNames()).containsExactly("CLOSED");
		assertThat(breakers.get("listed").get("unlistedChildren").get("CLOSED").asInt()).isOne();
		assertThat(breakers.get("http").get("children").get("http:api.acme.com").get("state").asString())
			.isEqualTo("DISABLED");
		assertThat(breakers.get("http").get("children").has("http:api.other.com")).isFalse();
		assertThat(breakers.get("http").get("unlistedChildren").get("CLOSED").asInt()).isPositive();
		assertThat(breakers.propertyNames()).doesNotContain("listed:user-42", "http:api.acme.com");
		assertThat(breakers.get("http").propertyNames()).as("a group without a breaker of its own")
			.containsExactly("children", "unlistedChildren");
	}

	@Test
	void showsOneBreakersFullSnapshot() throws Exception {
		Calls.succeed(this.registry.breaker("ledger"), 2);
		Calls.fail(this.registry.breaker("ledger"), 3);

		Actuator.Response response = this.actuator.get("breakers/ledger");

		assertThat(response.status()).isEqualTo(200);
		JsonNode snapshot = response.json();
		assertThat(snapshot.get("name").asString()).isEqualTo("ledger");
		assertThat(snapshot.get("state").asString()).isEqualTo("OPEN");
		assertThat(snapshot.get("openUntil").asString()).isNotEmpty();
		assertThat(snapshot.get("trips").asLong()).isEqualTo(1);
		assertThat(snapshot.get("calls").asLong()).isEqualTo(5);
		assertThat(snapshot.get("failures").asLong()).isEqualTo(3);
		assertThat(snapshot.get("failureRate").asDouble()).isEqualTo(60.0);
		assertThat(snapshot.get("buckets").size()).isEqualTo(10);
		assertThat(snapshot.get("probes").has("limit")).isTrue();
		JsonNode trip = snapshot.get("transitions").get(snapshot.get("transitions").size() - 1);
		assertThat(trip.get("from").asString()).isEqualTo("CLOSED");
		assertThat(trip.get("to").asString()).isEqualTo("OPEN");
		assertThat(trip.get("reason").asString()).contains("consecutive failures");
		assertThat(snapshot.get("config").get("consecutiveFailures").asInt()).isEqualTo(3);
		assertThat(snapshot.get("config").get("openWait").asString()).isEqualTo("PT30S");
	}

	@Test
	void showsTheLatencyOfTheCallsInTheWindowAsDurations() {
		Calls.timed(this.registry.breaker("ledger-latency"), Outcome.SUCCESS, 20_000_000, 98);
		Calls.timed(this.registry.breaker("ledger-latency"), Outcome.FAILURE, 900_000_000, 2);

		JsonNode snapshot = this.actuator.get("breakers/ledger-latency").json();

		JsonNode latency = snapshot.get("latency");
		assertThat(latency.propertyNames()).containsExactly("p50", "p90", "p99", "p999", "max");
		assertThat(Duration.parse(latency.get("p50").asString())).isBetween(Duration.ofMillis(18),
				Duration.ofMillis(22));
		assertThat(Duration.parse(latency.get("p90").asString())).isBetween(Duration.ofMillis(18),
				Duration.ofMillis(22));
		assertThat(Duration.parse(latency.get("p99").asString())).isBetween(Duration.ofMillis(810),
				Duration.ofMillis(990));
		assertThat(Duration.parse(latency.get("p999").asString())).isBetween(Duration.ofMillis(810),
				Duration.ofMillis(990));
		assertThat(latency.get("max").asString()).isEqualTo("PT0.9S");
		assertThat(snapshot.get("config").get("recordLatency").asBoolean()).isTrue();
	}

	@Test
	void aBreakerThatKeepsNoLatencyShowsNone() {
		Calls.timed(this.registry.breaker("bulk"), Outcome.SUCCESS, 20_000_000, 3);

		JsonNode snapshot = this.actuator.get("breakers/bulk").json();

		assertThat(snapshot.get("latency").isNull()).isTrue();
		assertThat(snapshot.get("config").get("recordLatency").asBoolean()).isFalse();
	}

	@Test
	void showsABreakersHistoryASummaryPerSecond() {
		this.history.sampleIfDue();
		this.ticker.advance(Duration.ofSeconds(1));
		this.history.sampleIfDue();
		Calls.timed(this.registry.breaker("history-ledger"), Outcome.SUCCESS, 20_000_000, 5);
		Calls.timed(this.registry.breaker("history-ledger"), Outcome.FAILURE, 20_000_000, 1);
		this.ticker.advance(Duration.ofSeconds(1));
		this.history.sampleIfDue();

		Actuator.Response response = this.actuator.get("breakers/history-ledger/history");

		assertThat(response.status()).isEqualTo(200);
		JsonNode history = response.json();
		assertThat(history.get("name").asString()).isEqualTo("history-ledger");
		assertThat(history.get("interval").asString()).isEqualTo("PT1S");
		JsonNode last = history.get("seconds").get(history.get("seconds").size() - 1);
		assertThat(last.propertyNames()).contains("at", "state", "calls", "failures", "timeouts", "slowCalls",
				"rejected", "failureRate", "p50", "p99");
		assertThat(last.get("state").asString()).isEqualTo("CLOSED");
		assertThat(last.get("calls").asLong()).isEqualTo(6);
		assertThat(last.get("failures").asLong()).isEqualTo(1);
		assertThat(Duration.parse(last.get("p50").asString())).isBetween(Duration.ofMillis(18), Duration.ofMillis(22));
	}

	@Test
	void aTenantChildHasAnEmptyHistory() {
		this.registry.breaker("feeds", "user-7");

		Actuator.Response response = this.actuator.get("breakers/feeds:user-7/history");

		assertThat(response.status()).isEqualTo(200);
		assertThat(response.json().get("seconds").size()).isZero();
	}

	@Test
	void theHistoryOfAnUnknownBreakerOrAnUnknownSectionIsNotFound() {
		this.registry.breaker("known");

		assertThat(this.actuator.get("breakers/nope/history").status()).isEqualTo(404);
		assertThat(this.actuator.get("breakers/known/histories").status()).isEqualTo(404);
	}

	@Test
	void showsTheRetryBudgetAndTheThresholdsThatFollowTraffic() {
		Breaker busy = this.registry.breaker("busy");
		// 400 calls/s of 250ms each for 11 s: 4000 a window, 100 in flight on average
		for (int i = 0; i < 4400; i++) {
			busy.release(busy.acquire(), Outcome.SUCCESS, Duration.ofMillis(250).toNanos());
			this.ticker.advance(Duration.ofNanos(2_500_000));
		}
		busy.tryRetry(false);
		busy.tryRetry(false);

		JsonNode snapshot = this.actuator.get("breakers/busy").json();

		JsonNode traffic = snapshot.get("traffic");
		assertThat(traffic.get("tracked").asBoolean()).isTrue();
		assertThat(traffic.get("peakCallsPerWindow").asLong()).isEqualTo(4000);
		assertThat(traffic.get("minimumCalls").asInt()).isEqualTo(2000);
		assertThat(traffic.get("peakConcurrentCalls").asDouble()).isEqualTo(100);
		assertThat(traffic.get("maxProbes").asInt()).isEqualTo(10);
		JsonNode budget = snapshot.get("retryBudget");
		assertThat(budget.get("breaker").asString()).isEqualTo("busy");
		// the last 10s: 9 or 10 seconds of traffic
		long firstAttempts = budget.get("firstAttempts").asLong();
		assertThat(firstAttempts).isBetween(3600L, 4000L);
		assertThat(budget.get("allowed").asLong()).isEqualTo((long) Math.floor(0.2 * firstAttempts + 100));
		assertThat(budget.get("retries").asLong()).isEqualTo(2);
		assertThat(budget.get("remaining").asLong()).isEqualTo(budget.get("allowed").asLong() - 2);
		assertThat(budget.get("ratio").asDouble()).isEqualTo(0.2);
		assertThat(budget.get("minPerSecond").asDouble()).isEqualTo(10);
		JsonNode config = snapshot.get("config");
		assertThat(config.get("halfOpenMaxProbes").asString()).isEqualTo("auto");
		assertThat(config.get("minimumCallsRatio").asDouble()).isEqualTo(0.5);
		assertThat(config.get("retryBudgetRatio").asDouble()).isEqualTo(0.2);
		assertThat(config.get("retryBudgetMinPerSecond").asDouble()).isEqualTo(10);
	}

	@Test
	void aTenantShowsItsGroupsRetryBudgetAndABreakerWithoutTrafficThresholdsItsSettings() {
		this.registry.breaker("suggestions", "user-7").tryRetry(false);

		JsonNode snapshot = this.actuator.get("breakers/suggestions:user-7").json();

		assertThat(snapshot.get("retryBudget").get("breaker").asString()).isEqualTo("suggestions");
		assertThat(snapshot.get("retryBudget").get("retries").asLong()).isEqualTo(1);
		assertThat(snapshot.get("traffic").get("tracked").asBoolean()).isFalse();
		assertThat(snapshot.get("traffic").get("minimumCalls").asInt()).isEqualTo(20);
		assertThat(snapshot.get("traffic").get("maxProbes").asInt()).isEqualTo(10);
		assertThat(snapshot.get("config").get("halfOpenMaxProbes").asInt()).isEqualTo(10);
	}

	@Test
	void showsNoSharedStateWithoutFleetMode() throws Exception {
		Calls.succeed(this.registry.breaker("alone"), 1);

		Actuator.Response list = this.actuator.get("breakers");
		Actuator.Response snapshot = this.actuator.get("breakers/alone");

		assertThat(list.status()).isEqualTo(200);
		assertThat(list.json().propertyNames()).containsExactly("breakers");
		assertThat(snapshot.status()).isEqualTo(200);
		assertThat(snapshot.json().get("calls").asLong()).isEqualTo(1);
		assertThat(snapshot.json().has("fleet")).isFalse();
	}

	@Test
	void readsAChildByItsFullName() {
		this.registry.breaker("http", "inventory.internal");

		Actuator.Response response = this.actuator.get("breakers/http:inventory.internal");

		assertThat(response.status()).isEqualTo(200);
		assertThat(response.json().get("name").asString()).isEqualTo("http:inventory.internal");
	}

	/**
	 * An operator looking at a tenant, or at one that does not exist, changes nothing:
	 * the tenant keeps its place in the eviction order and no tenant is made.
	 */
	@Test
	void readingATenantLeavesItsPlaceInTheEvictionOrderAndMakesNoTenant() {
		Breaker first = this.registry.breaker("evicting", "first");
		this.registry.breaker("evicting", "second");

		assertThat(this.actuator.get("breakers/evicting:first").status()).isEqualTo(200);
		assertThat(this.actuator.get("breakers/evicting:first/history").status()).isEqualTo(200);
		assertThat(this.actuator.get("breakers/evicting:nobody").status()).isEqualTo(404);
		this.registry.breaker("evicting", "third");

		assertThat(first.removed()).as("the least recently used tenant, read by an operator, is evicted").isTrue();
		assertThat(this.registry.children("evicting")).extracting(Breaker::key)
			.containsExactlyInAnyOrder("second", "third");
	}

	@Test
	void anUnknownBreakerIsNotFound() {
		assertThat(this.actuator.get("breakers/nope").status()).isEqualTo(404);
	}

	@ParameterizedTest
	@ValueSource(strings = { "FORCED_OPEN", "DISABLED", "HALF_OPEN" })
	void anOperatorOverridePutsTheBreakerInThatStateAndReturnsTheNewSnapshot(String state) {
		String name = "override-" + state.toLowerCase();
		this.registry.breaker(name);

		Actuator.Response response = this.actuator.postJson("breakers/" + name, "{\"state\": \"" + state + "\"}");

		assertThat(response.status()).isEqualTo(200);
		assertThat(response.json().get("state").asString()).isEqualTo(state);
		assertThat(response.json().get("name").asString()).isEqualTo(name);
		assertThat(this.registry.breaker(name).state()).isEqualTo(State.valueOf(state));
	}

	@Test
	void overridingToClosedBringsAnOpenBreakerBack() {
		Calls.fail(this.registry.breaker("billing"), 3);

		Actuator.Response response = this.actuator.postJson("breakers/billing", "{\"state\": \"CLOSED\"}");

		assertThat(response.status()).isEqualTo(200);
		assertThat(response.json().get("state").asString()).isEqualTo("CLOSED");
		assertThat(this.registry.breaker("billing").state()).isEqualTo(State.CLOSED);
	}

	@Test
	void anOverrideIsLoggedWithTheBreakerAndItsNewState(CapturedOutput output) {
		this.registry.breaker("audit");

		this.actuator.postJson("breakers/audit", "{\"state\": \"FORCED_OPEN\"}");

		assertThat(output).contains("Breaker 'audit' set to FORCED_OPEN by an operator");
	}

	@Test
	void aStateThatIsNotAnOverrideIsABadRequestListingTheAllowedValues() {
		this.registry.breaker("mailer");

		Actuator.Response response = this.actuator.postJson("breakers/mailer", "{\"state\": \"OPEN\"}");

		assertThat(response.status()).isEqualTo(400);
		assertThat(response.json().get("error").asString())
			.isEqualTo("'state' must be one of FORCED_OPEN, DISABLED, HALF_OPEN, CLOSED but was 'OPEN'");
		assertThat(response.json().get("allowed").toString())
			.isEqualTo("[\"FORCED_OPEN\",\"DISABLED\",\"HALF_OPEN\",\"CLOSED\"]");
		assertThat(this.registry.breaker("mailer").state()).isEqualTo(State.CLOSED);
	}

	@Test
	void aMissingStateIsABadRequestListingTheAllowedValues() {
		this.registry.breaker("mailer");

		Actuator.Response response = this.actuator.postJson("breakers/mailer", "{}");

		assertThat(response.status()).isEqualTo(400);
		assertThat(response.json().get("error").asString())
			.isEqualTo("'state' must be one of FORCED_OPEN, DISABLED, HALF_OPEN, CLOSED but was missing");
	}

	@Test
	void aBodyThatIsNotJsonIsABadRequest() {
		this.registry.breaker("mailer");

		assertThat(this.actuator.postJson("breakers/mailer", "state=FORCED_OPEN").status()).isEqualTo(400);
		assertThat(this.registry.breaker("mailer").state()).isEqualTo(State.CLOSED);
	}

	@Test
	void aNumberForStateIsABadRequestListingTheAllowedValues() {
		this.registry.breaker("mailer");

		Actuator.Response response = this.actuator.postJson("breakers/mailer", "{\"state\": 3}");

		assertThat(response.status()).isEqualTo(400);
		assertThat(response.json().get("error").asString())
			.isEqualTo("'state' must be one of FORCED_OPEN, DISABLED, HALF_OPEN, CLOSED but was '3'");
	}

	@Test
	void anObjectForStateIsABadRequestNotAServerError() {
		// Spring MVC reads actuator bodies as a map of strings and refuses this before
		// the endpoint runs, with its own error body.
		this.registry.breaker("mailer");

		assertThat(this.actuator.postJson("breakers/mailer", "{\"state\": {\"to\": \"OPEN\"}}").status())
			.isEqualTo(400);
		assertThat(this.registry.breaker("mailer").state()).isEqualTo(State.CLOSED);
	}

	@Test
	void anEmptyBodyIsABadRequestListingTheAllowedValues() {
		this.registry.breaker("mailer");

		Actuator.Response response = this.actuator.postJson("breakers/mailer", "");

		assertThat(response.status()).isEqualTo(400);
		assertThat(response.json().get("allowed").size()).isEqualTo(4);
	}

	@Test
	void overridingAnUnknownBreakerIsNotFound() {
		Actuator.Response response = this.actuator.postJson("breakers/nope", "{\"state\": \"FORCED_OPEN\"}");

		assertThat(response.status()).isEqualTo(404);
		assertThat(this.registry.find("nope")).isEmpty();
	}

	@Test
	void deleteResetsTheBreakerAndReturnsTheNewSnapshot() {
		Calls.fail(this.registry.breaker("pricing"), 3);
		this.ticker.advance(Duration.ofSeconds(5));

		Actuator.Response response = this.actuator.delete("breakers/pricing");

		assertThat(response.status()).isEqualTo(200);
		assertThat(response.json().get("state").asString()).isEqualTo("CLOSED");
		assertThat(response.json().get("calls").asLong()).isZero();
		assertThat(this.registry.breaker("pricing").state()).isEqualTo(State.CLOSED);
	}

	@Test
	void deletingAnUnknownBreakerIsNotFound() {
		assertThat(this.actuator.delete("breakers/nope").status()).isEqualTo(404);
		assertThat(this.registry.find("nope")).isEmpty();
	}

}
