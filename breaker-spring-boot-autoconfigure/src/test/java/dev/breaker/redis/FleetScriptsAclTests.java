package dev.breaker.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

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

	@Test
	void theFleetModeDocsShowTheRulesWordForWord() throws IOException {
		String fleetMode = Files.readString(Path.of("..", "docs", "fleet-mode.md"));

		assertThat(fleetMode).contains("ACL SETUSER checkout " + FleetAcl.RULES);
	}

}
