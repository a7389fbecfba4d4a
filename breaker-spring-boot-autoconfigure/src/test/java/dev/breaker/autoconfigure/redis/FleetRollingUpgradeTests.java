package dev.breaker.autoconfigure.redis;

import static dev.breaker.autoconfigure.redis.FleetModeIntegrationTests.failTimes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;

import dev.breaker.core.State;
import io.lettuce.core.ScriptOutputType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A rolling deploy from the release before fleet mode's episodes and hash-tagged keys:
 * old and new replicas in one fleet, on one Redis and one channel, decide apart, and
 * neither disturbs the other. What the old release writes and publishes is played here
 * byte for byte (its trip: {@code HSET breaker:<name>} with a generation, a {@code :gen}
 * key, a newline-separated announcement), and its reconnect read is its own script.
 */
class FleetRollingUpgradeTests {

	/**
	 * The previous release's reconnect read (FleetScripts.SCAN as of commit f88689a), run
	 * with ARGV[1] = "breaker:*".
	 */
	private static final String OLD_RECONNECT_READ = """
			local out = {}
			local cursor = '0'
			repeat
			  local page = redis.call('SCAN', cursor, 'MATCH', ARGV[1], 'COUNT', 1000, 'TYPE', 'hash')
			  cursor = page[1]
			  for _, key in ipairs(page[2]) do
			    local h = redis.call('HMGET', key, 'state', 'gen', 'replica', 'reason')
			    local ttl = redis.call('PTTL', key)
			    if h[1] == 'OPEN' and ttl > 0 then
			      table.insert(out, {key, h[2] or '0', tostring(ttl), h[3] or '', h[4] or ''})
			    end
			  end
			until cursor == '0'
			return out
			""";

	@RegisterExtension
	final Replicas replicas = Replicas.onLocalRedis()
		.properties("breaker.shared.redis.quorum=1", Replicas.PATIENT_PING);

	@Test
	void anOldReplicasTripIsDroppedAndCountedByTheNewOnesWhichKeepSharingAmongThemselves() {
		Replica a = replicas.start("a");
		Replica b = replicas.start("b");
		b.breaker("payments");

		// the old release's trip: its hash, its generation, its announcement
		replicas.admin()
			.redis()
			.hset("breaker:payments", java.util.Map.of("state", "OPEN", "gen", "7", "replica", "old-1", "reason",
					"consecutive failures 5 >= 5"));
		replicas.admin().redis().pexpire("breaker:payments", 30_000);
		replicas.admin().redis().set("breaker:payments:gen", "7");
		replicas.admin().publish("breaker:transitions", "OPEN\n7\n30000\nold-1\npayments\nconsecutive failures 5 >= 5");

		await().atMost(Duration.ofSeconds(3)).until(() -> b.status().rejected() == 1);
		assertThat(b.breaker("payments").state()).isEqualTo(State.CLOSED);
		Replica late = replicas.start("late");
		assertThat(late.breaker("payments").state()).as("a new replica started during the deploy")
			.isEqualTo(State.CLOSED);

		failTimes(a.breaker("payments"), 3);
		await().atMost(Duration.ofSeconds(3)).until(() -> b.breaker("payments").state() == State.OPEN);
		assertThat(List.of(a, b, late)).allSatisfy(r -> assertThat(r.status().errors()).isZero());
	}

	@Test
	void anOldReplicaFindsNoneOfTheNewOnesCircuitsUnderTheNamesItKnows() {
		Replica a = replicas.start("a");
		failTimes(a.breaker("payments"), 3);
		await().atMost(Duration.ofSeconds(3))
			.until(() -> replicas.admin().redis().exists("breaker:{payments}:open") == 1);

		List<List<Object>> oldView = replicas.admin()
			.redis()
			.eval(OLD_RECONNECT_READ, ScriptOutputType.MULTI, new String[0], "breaker:*");

		// the old release reads the new open circuit as a breaker named
		// "{payments}:open", which it does not have
		assertThat(oldView).extracting(row -> String.valueOf(row.get(0))).containsExactly("breaker:{payments}:open");
		// and the new announcements do not split into the old release's six lines, so its
		// decoder drops them
		List<String> heard = replicas.admin().listen("breaker:transitions");
		a.breaker("payments").reset();
		await().atMost(Duration.ofSeconds(3)).until(() -> !heard.isEmpty());
		assertThat(heard.get(0).split("\n", 6)).hasSize(1);
	}

}
