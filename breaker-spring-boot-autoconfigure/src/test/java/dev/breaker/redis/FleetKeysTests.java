package dev.breaker.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.stream.Collectors;

import io.lettuce.core.cluster.SlotHash;
import org.junit.jupiter.api.Test;

/**
 * The key schema: one hash slot per breaker, and SCAN results sorted out without
 * guessing.
 */
class FleetKeysTests {

	private final FleetKeys keys = new FleetKeys("breaker:");

	@Test
	void everyKeyOfOneBreakerIsInOneHashSlot() {
		for (String name : List.of("payments", "payments:tenant-7", "http:api.acme.com", "odd}name{")) {
			List<String> all = List.of(keys.state(name), keys.votes(name), keys.probes(name, "e1"), keys.override(name),
					keys.decided(name), keys.window(name));
			assertThat(all.stream().map(SlotHash::getSlot).collect(Collectors.toSet())).as(name).hasSize(1);
		}
		assertThat(keys.state("payments")).isEqualTo("breaker:{payments}:open");
		assertThat(keys.override("payments")).isEqualTo("breaker:{payments}:override");
	}

	/**
	 * The scripts keep marks beside replica ids in a hash ({@code ~wanted~} in the
	 * probe-slot hash): every quoted name of the form {@code ~...~} in a script is one a
	 * replica id may not take, and the mark the claim script writes is among them.
	 */
	@Test
	void everyMarkTheScriptsKeepBesideReplicaIdsHasTheFormNoReplicaIdMayTake() {
		java.util.Set<String> marks = new java.util.TreeSet<>();
		for (FleetScripts.Script script : FleetScripts.ALL) {
			java.util.regex.Matcher quoted = java.util.regex.Pattern.compile("'(~[^']*)'").matcher(script.body());
			while (quoted.find()) {
				marks.add(quoted.group(1));
			}
		}
		assertThat(marks).containsExactly(FleetKeys.WANTED);
		assertThat(marks).allMatch(FleetKeys::reservedForMarks);
		assertThat(FleetKeys.reservedForMarks("~")).isFalse();
		assertThat(FleetKeys.reservedForMarks("host-1~")).isFalse();
	}

	@Test
	void aScannedKeyIsAStateAnOverrideOrNotOurs() {
		assertThat(keys.parse("breaker:{payments}:open"))
			.isEqualTo(new FleetKeys.Found(FleetKeys.Found.Kind.STATE, "payments"));
		assertThat(keys.parse("breaker:{payments}:override"))
			.isEqualTo(new FleetKeys.Found(FleetKeys.Found.Kind.OVERRIDE, "payments"));
		assertThat(keys.parse("breaker:{a}:override}:open"))
			.isEqualTo(new FleetKeys.Found(FleetKeys.Found.Kind.STATE, "a}:override"));
		assertThat(keys.parse(keys.state("odd}:open")))
			.isEqualTo(new FleetKeys.Found(FleetKeys.Found.Kind.STATE, "odd}:open"));
		assertThat(keys.parse("breaker:{payments}")).isNull();
		assertThat(keys.parse("breaker:{payments}:votes")).isNull();
		assertThat(keys.parse("breaker:{payments}:probes:e1")).isNull();
		assertThat(keys.parse("breaker:payments")).isNull();
		assertThat(keys.parse("other:{payments}")).isNull();
		assertThat(keys.parse("breaker:{}:open")).isNull();
	}

	@Test
	void theScanPatternEscapesTheGlobCharactersOfThePrefix() {
		assertThat(new FleetKeys("app*[1]:").scanPattern()).isEqualTo("app\\*\\[1\\]:{*}:o*");
	}

}
