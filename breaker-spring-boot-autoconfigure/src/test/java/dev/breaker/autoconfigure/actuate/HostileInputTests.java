package dev.breaker.autoconfigure.actuate;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.stream.IntStream;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import tools.jackson.databind.JsonNode;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import dev.breaker.autoconfigure.actuate.TenantApplication.Recommendations;
import dev.breaker.core.Breaker;
import dev.breaker.core.ManualTicker;
import dev.breaker.core.State;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a hostile client sends through a real server, with the README's Quick-start
 * settings: user ids that forge log lines or colour the terminal, user ids of 7,000
 * characters, ten thousand of them, and one user whose calls all fail. Nothing reaches a
 * log raw, nothing grows without bound, and one user never cuts the others off.
 */
@SpringBootTest(classes = TenantApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "management.endpoints.web.exposure.include=breakers",
				"management.endpoint.breakers.access=unrestricted", "breaker.defaults.failure-rate-threshold=50",
				"breaker.defaults.minimum-calls=20", "breaker.instances.recommendations.tenants.max=10000",
				"breaker.defaults.open-wait-jitter=0" })
@ExtendWith(OutputCaptureExtension.class)
class HostileInputTests extends RunningActuator {

	private static final int ONE_MEGABYTE = 1024 * 1024;

	@Autowired
	private Recommendations recommendations;

	@Autowired
	private ManualTicker ticker;

	private Http http;

	@BeforeEach
	void connectAndResetTheTenants() {
		this.http = new Http(this.port);
		Breaker group = this.registry.breaker("recommendations");
		group.reset();
		this.registry.children("recommendations").forEach(Breaker::reset);
	}

	@Test
	void aUserIdWithALineBreakCannotForgeALogLine(CapturedOutput output) {
		String userId = "crlf%0D%0A2026-11-29T21:04:07.506Z%20ERROR%201%20---%20%5Bmain%5D%20FAKE-LINE";
		assertThat(this.http.get("/recommendations/" + userId).status()).isEqualTo(200);

		Actuator.Response override = this.actuator.postJson("breakers/recommendations:" + userId,
				"{\"state\": \"FORCED_OPEN\"}");

		assertThat(override.status()).isEqualTo(200);
		assertThat(override.json().get("name").asString())
			.isEqualTo("recommendations:crlf\\r\\n2026-11-29T21:04:07.506Z ERROR 1 --- [main] FAKE-LINE");
		assertThat(output.getOut()).contains("Breaker 'recommendations:crlf\\r\\n2026-11-29T21:04:07.506Z ERROR 1 --- "
				+ "[main] FAKE-LINE' set to FORCED_OPEN by an operator");
		assertThat(output.getOut().lines()).noneMatch((line) -> line.startsWith("2026-11-29T21:04:07.506Z ERROR"));
	}

	@Test
	void aUserIdWithTerminalEscapesReachesNoLogRaw(CapturedOutput output) {
		String userId = "ansi%1B%5B2J%1B%5B31mred%7F";
		this.http.get("/recommendations/" + userId);

		Actuator.Response override = this.actuator.postJson("breakers/recommendations:" + userId,
				"{\"state\": \"DISABLED\"}");

		assertThat(override.status()).isEqualTo(200);
		assertThat(override.json().get("name").asString())
			.isEqualTo("recommendations:ansi\\u001b[2J\\u001b[31mred\\u007f");
		assertThat(output.getOut())
			.contains("Breaker 'recommendations:ansi\\u001b[2J\\u001b[31mred\\u007f' set to " + "DISABLED")
			.doesNotContain("\u001b[2J", "\u001b[31m", "\u007f");
	}

	@Test
	void aLongUserIdIsShortenedToAPrefixAndAStableHash() {
		String userId = "u".repeat(7000);
		assertThat(this.http.get("/recommendations/" + userId).body()).contains("for " + userId);

		List<String> keys = this.registry.children("recommendations").stream().map(Breaker::key).toList();
		assertThat(keys).contains("u".repeat(111) + "~5fa7131ee255f746")
			.allSatisfy((key) -> assertThat(key.length()).isLessThanOrEqualTo(128));
	}

	@Test
	void theBreakersListStaysUnderOneMegabyteWithTenThousandTenantsOfSevenThousandCharacters() {
		String longId = "x".repeat(7000);
		IntStream.range(0, 10_000).forEach((i) -> this.recommendations.recommend(longId + i));

		Actuator.Response closed = this.actuator.get("breakers");
		this.registry.children("recommendations").forEach(Breaker::forceOpen);
		Actuator.Response open = this.actuator.get("breakers");

		assertThat(closed.status()).isEqualTo(200);
		assertThat(closed.body().getBytes(StandardCharsets.UTF_8).length).isLessThan(ONE_MEGABYTE);
		assertThat(open.body().getBytes(StandardCharsets.UTF_8).length).isLessThan(ONE_MEGABYTE);
		JsonNode group = open.json().get("breakers").get("recommendations");
		assertThat(group.get("children").size()).isEqualTo(100);
		assertThat(group.get("children").propertyNames())
			.allSatisfy((name) -> assertThat(name).hasSizeLessThanOrEqualTo("recommendations:".length() + 128));
		assertThat(group.get("unlistedChildren").get("FORCED_OPEN").asInt()).isEqualTo(10_000 - 100);
	}

	@Test
	void oneUserFailingAtAHighRateOpensOnlyItsOwnBreaker() {
		List<String> healthy = IntStream.range(0, 10).mapToObj((i) -> "user-" + i).toList();
		long groupTrips = this.registry.breaker("recommendations").totals().trips();
		int served = 0;
		// 40 seconds: the loud user sends 50 requests a second, every one of which fails,
		// and its breaker
		// opens, probes once the open wait is over and opens again; ten other users call
		// once a second
		for (int round = 0; round < 400; round++) {
			for (int i = 0; i < 5; i++) {
				assertThat(this.http.get("/recommendations/loud").body()).contains("popular");
			}
			if (round % 10 == 0) {
				for (String user : healthy) {
					served += this.http.get("/recommendations/" + user).body().contains("for " + user) ? 1 : 0;
				}
			}
			this.ticker.advance(Duration.ofMillis(100));
		}

		assertThat(this.registry.breaker("recommendations").state()).isEqualTo(State.CLOSED);
		assertThat(this.registry.breaker("recommendations").totals().trips()).isEqualTo(groupTrips);
		Breaker loud = this.registry.find("recommendations:loud").orElseThrow();
		assertThat(loud.state()).isEqualTo(State.OPEN);
		assertThat(loud.totals().trips()).isEqualTo(2);
		assertThat(served).isEqualTo(40 * 10);
		assertThat(healthy)
			.allSatisfy((user) -> assertThat(this.http.get("/recommendations/" + user).body()).contains("for " + user));
	}

	@Test
	void failuresOfFiveUsersOpenTheGroupForEveryone() {
		for (int i = 0; i < 5; i++) {
			this.http.get("/recommendations/down-" + i);
		}

		assertThat(this.registry.breaker("recommendations").state()).isEqualTo(State.OPEN);
		assertThat(this.http.get("/recommendations/user-0").body()).contains("popular");
	}

	@Test
	void getOfAnUnknownBreakerAnswers404WithTheSameJsonErrorAsPostAndDelete() {
		Actuator.Response get = this.actuator.get("breakers/nope");
		Actuator.Response post = this.actuator.postJson("breakers/nope", "{\"state\": \"CLOSED\"}");
		Actuator.Response delete = this.actuator.delete("breakers/nope");

		assertThat(List.of(get.status(), post.status(), delete.status())).containsOnly(404);
		assertThat(get.body()).isEqualTo(post.body())
			.isEqualTo(delete.body())
			.isEqualTo("{\"error\":\"no breaker named 'nope'\"}");
	}

	@Test
	void theNameOfAnUnknownBreakerIsEscapedAndCutInTheError() {
		Actuator.Response crlf = this.actuator.get("breakers/nope%0D%0AFAKE");
		Actuator.Response longName = this.actuator.get("breakers/" + "n".repeat(5000));

		assertThat(crlf.json().get("error").asString()).isEqualTo("no breaker named 'nope\\r\\nFAKE'");
		assertThat(longName.status()).isEqualTo(404);
		assertThat(longName.json().get("error").asString()).hasSizeLessThan(300).endsWith("…'");
	}

	@Test
	void theCutNameInAnErrorNeverEndsInHalfACharacterOrHalfAnEscape() {
		// the 200-character cut falls inside an emoji (a surrogate pair), then inside an
		// escape (ESC printed as \u001b)
		Actuator.Response emoji = this.actuator.get("breakers/" + "a".repeat(199) + "%F0%9F%98%80" + "b".repeat(50));
		Actuator.Response escape = this.actuator.get("breakers/" + "a".repeat(197) + "%1B" + "b".repeat(50));

		String cutAtEmoji = emoji.json().get("error").asString();
		assertThat(cutAtEmoji.chars().filter((c) -> Character.isSurrogate((char) c)))
			.as("surrogates in %s", cutAtEmoji.substring(cutAtEmoji.length() - 8))
			.isEmpty();
		assertThat(cutAtEmoji).endsWith("a".repeat(199) + "…'");
		assertThat(escape.json().get("error").asString()).endsWith("a".repeat(197) + "…'");
	}

	@Test
	void aChildIsFoundByItsKeyAsTheUserSentIt() {
		this.http.get("/recommendations/crlf%0D%0AFAKE");
		this.registry.find("recommendations:crlf\r\nFAKE").orElseThrow().forceOpen();

		// Tomcat refuses a backslash in a path, so the printable name cannot be sent; the
		// raw key can.
		Actuator.Response snapshot = this.actuator.get("breakers/recommendations:crlf%0D%0AFAKE");

		assertThat(snapshot.status()).isEqualTo(200);
		assertThat(snapshot.json().get("name").asString()).isEqualTo("recommendations:crlf\\r\\nFAKE");
		assertThat(this.actuator.get("breakers")
			.json()
			.get("breakers")
			.get("recommendations")
			.get("children")
			.propertyNames()).contains("recommendations:crlf\\r\\nFAKE");
	}

}
