package dev.breaker.autoconfigure.redis;

import static dev.breaker.autoconfigure.redis.FleetModeIntegrationTests.failTimes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.time.Instant;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.breaker.core.State;
import io.lettuce.core.KillArgs;
import io.lettuce.core.ScriptOutputType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

/**
 * A replica that (re)connects reads every circuit the fleet holds open, whatever else
 * Redis holds: garbage under the fleet's prefix is skipped and named once, and a big
 * keyspace is read in small steps that never hold Redis up.
 */
@ExtendWith(OutputCaptureExtension.class)
class FleetReconciliationTests {

	@RegisterExtension
	final Replicas replicas = Replicas.onLocalRedis()
		.properties("breaker.shared.redis.quorum=1", "breaker.shared.redis.startup-sync-timeout=10s");

	@Test
	void aMalformedKeyIsSkippedAndNamedOnceAtWarn(CapturedOutput output) {
		Replica a = replicas.start("a");
		failTimes(a.breaker("payments"), 3);
		await().atMost(Duration.ofSeconds(3)).until(() -> !replicas.admin().keys("breaker:*payments*").isEmpty());
		replicas.admin().redis().hset("breaker:zz-bad", "state", "OPEN");
		replicas.admin().redis().hset("breaker:zz-bad", "gen", "notanumber");
		replicas.admin().redis().hset("breaker:{zz-bad}:open", "state", "OPEN");
		replicas.admin().redis().hset("breaker:{zz-bad}:open", "episode", "e1");
		replicas.admin().redis().hset("breaker:{zz-bad}:open", "ttl", "notanumber");
		replicas.admin().redis().hset("breaker:{zz\nbad}:open", "state", "OPEN");
		replicas.admin().redis().hset("breaker:{zz-override}:override", "state", "SIDEWAYS");

		Replica late = replicas.start("late");

		assertThat(late.status().lastSync()).isNotNull();
		assertThat(late.breaker("payments").state()).isEqualTo(State.OPEN);
		// a reconnect reads everything again, and does not name the same key twice
		Instant firstSync = late.status().lastSync();
		replicas.admin().redis().clientKill(KillArgs.Builder.typeNormal().skipme());
		await().atMost(Duration.ofSeconds(5))
			.until(() -> late.status().up() && late.status().lastSync().isAfter(firstSync));
		assertThat(count(output.getOut(),
				"WARN.*replica late: skipped malformed fleet key 'breaker:\\{zz\\\\nbad\\}:open'"))
			.isEqualTo(1);
		assertThat(
				count(output.getOut(), "WARN.*replica late: skipped malformed fleet key 'breaker:\\{zz-bad\\}:open'"))
			.isEqualTo(1);
		assertThat(count(output.getOut(),
				"WARN.*replica late: skipped malformed fleet key 'breaker:\\{zz-override\\}:override'"))
			.isEqualTo(1);
		assertThat(output.getOut()).doesNotContain("zz\nbad");
	}

	@Test
	void readingTheFleetWithAHundredThousandJunkKeysNeverHoldsRedisUpFor50Milliseconds() {
		Replica a = replicas.start("a");
		failTimes(a.breaker("payments"), 3);
		await().atMost(Duration.ofSeconds(3)).until(() -> !replicas.admin().keys("breaker:*payments*").isEmpty());
		String fill = """
				for i = tonumber(ARGV[1]), tonumber(ARGV[2]) do
				  redis.call('HSET', 'breaker:junk:' .. i, 'x', '1')
				  redis.call('HSET', 'breaker:{junk-' .. i .. '}', 'x', '1')
				end
				return 1
				""";
		for (int from = 0; from < 50_000; from += 5_000) {
			replicas.admin()
				.redis()
				.eval(fill, ScriptOutputType.INTEGER, new String[0], Integer.toString(from),
						Integer.toString(from + 4_999));
		}
		replicas.admin().redis().configSet("slowlog-log-slower-than", "50000");
		replicas.admin().redis().configSet("slowlog-max-len", "1000");
		replicas.admin().redis().slowlogReset();

		Replica late = replicas.start("late");

		await().atMost(Duration.ofSeconds(10)).until(() -> late.status().lastSync() != null);
		assertThat(late.breaker("payments").state()).isEqualTo(State.OPEN);
		assertThat(replicas.admin().redis().slowlogGet()).as("commands that held Redis up for 50 ms or more").isEmpty();
	}

	private static long count(String text, String regex) {
		Matcher matcher = Pattern.compile(regex).matcher(text);
		long count = 0;
		while (matcher.find()) {
			count++;
		}
		return count;
	}

}
