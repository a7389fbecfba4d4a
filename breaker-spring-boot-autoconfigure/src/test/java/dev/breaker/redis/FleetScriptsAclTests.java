package dev.breaker.redis;

import static org.assertj.core.api.Assertions.assertThat;

import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Arrays;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import dev.breaker.core.Breaker;
import dev.breaker.core.BreakerRegistry;
import dev.breaker.core.State;
import io.lettuce.core.RedisURI;
import org.junit.jupiter.api.Test;

/**
 * The production ACL of the fleet-mode docs allows every command a fleet script calls (a
 * script's commands are checked against the ACL too), and {@code docs/fleet-mode.md}
 * shows the very rules the tests run with.
 */
class FleetScriptsAclTests {

	private static final Pattern CALL = Pattern.compile("redis\\.call\\('([A-Z]+)'");

	@Test
	void everyCommandTheScriptsCallIsAllowedByTheRules() {
		Set<String> called = new TreeSet<>();
		for (FleetScripts.Script script : FleetScripts.ALL) {
			Matcher call = CALL.matcher(script.body());
			while (call.find()) {
				called.add(call.group(1).toLowerCase());
			}
		}
		Set<String> allowed = Arrays.stream(FleetAcl.RULES.split(" "))
			.filter(rule -> rule.startsWith("+"))
			.map(rule -> rule.substring(1))
			.collect(Collectors.toSet());

		assertThat(called).contains("publish", "hset", "pexpire")
			.allSatisfy(command -> assertThat(allowed).contains(command));
	}

	/**
	 * A script that calls a command the ACL denies fails part-way (what it wrote before
	 * stays): a reset through the docs' ACL must run the override script to its end.
	 */
	@Test
	void aFleetWideResetThroughTheProductionAclEndsTheEpisode() throws Exception {
		try (RedisServerHarness redis = RedisServerHarness.start(); RedisAdmin admin = new RedisAdmin(redis)) {
			FleetAcl.createUser(admin.redis(), "checkout");
			RedisURI asCheckout = RedisURI.builder()
				.withHost("127.0.0.1")
				.withPort(redis.port())
				.withAuthentication("checkout", FleetAcl.PASSWORD)
				.build();
			BreakerRegistry registry = OneReplica.systemTickerRegistry();
			FleetSettings settings = FleetSettings.defaults(1);
			String open = new FleetKeys(settings.keyPrefix()).state("payments");
			try (FleetSync sync = new FleetSync(registry, new SharedStoreStatus("a", Clock.systemUTC()), asCheckout,
					settings)) {
				sync.start();
				assertThat(sync.awaitFirstSync(Duration.ofSeconds(10))).isTrue();
				Breaker payments = registry.breaker("payments");
				sync.tripFromFleetWindow(payments, "fleet failure rate 100.0% >= 50% over 40 calls");
				await().atMost(Duration.ofSeconds(10)).until(() -> admin.redis().hget(open, "episode") != null);

				sync.override(payments, State.CLOSED, true);
				await().atMost(Duration.ofSeconds(10))
					.until(() -> admin.redis().hget(open, "episode") == null || sync.view("payments").untold() != null);

				assertThat(sync.view("payments").untold()).as("the reset, not taken by Redis").isNull();
				assertThat(admin.redis().hget(open, "episode")).as("the episode the reset ended").isNull();
			}
		}
	}

	@Test
	void theFleetModeDocsShowTheRulesWordForWord() throws IOException {
		String fleetMode = Files.readString(Path.of("..", "docs", "fleet-mode.md"));

		assertThat(fleetMode).contains("ACL SETUSER checkout " + FleetAcl.RULES);
	}

}
