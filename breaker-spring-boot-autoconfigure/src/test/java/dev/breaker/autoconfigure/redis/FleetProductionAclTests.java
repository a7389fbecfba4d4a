package dev.breaker.autoconfigure.redis;

import static dev.breaker.autoconfigure.redis.FleetModeIntegrationTests.failTimes;
import static dev.breaker.autoconfigure.redis.Replicas.threeFailures;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;

import dev.breaker.core.Breaker;
import dev.breaker.core.BreakerOpenException;
import dev.breaker.core.State;
import dev.breaker.redis.FleetAcl;
import dev.breaker.redis.RedisProcess;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.output.StatusOutput;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CommandType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The production ACL docs/fleet-mode.md recommends ({@link FleetAcl#RULES}: the fleet's
 * keys and channel, and only the commands fleet mode sends) on Redis 7: everything the
 * fleet does (trips, votes, probe slots, closes, operators' overrides, the fleet window,
 * the reconnect read after a restart) goes through without one command refused, and the
 * user can touch nothing else.
 */
class FleetProductionAclTests {

	private RedisProcess redis;

	private RedisClient adminClient;

	private StatefulRedisConnection<String, String> admin;

	@RegisterExtension
	final Replicas replicas = Replicas
		.at(() -> List.of("spring.data.redis.host=127.0.0.1", "spring.data.redis.port=" + redis.port(),
				"spring.data.redis.username=checkout", "spring.data.redis.password=" + FleetAcl.PASSWORD))
		.defaults(threeFailures(Duration.ofMillis(500)))
		.properties("breaker.shared.redis.fleet-window=true", "breaker.shared.redis.flush-interval=200ms");

	@BeforeEach
	void startRedis() throws IOException {
		redis = RedisProcess.server(Files.createTempDirectory("breaker-acl"), "user checkout " + FleetAcl.RULES);
		adminClient = RedisClient.create(RedisURI.create("127.0.0.1", redis.port()));
	}

	@AfterEach
	void stopAll() {
		replicas.close();
		if (admin != null) {
			admin.close();
		}
		adminClient.shutdown();
		redis.close();
	}

	@Test
	void everythingTheFleetDoesNeedsNoCommandBeyondTheRules() {
		Replica a = replicas.start("a");
		Replica b = replicas.start("b");
		b.breaker("payments");

		// two trips (votes, then the quorum's open), the episode's probe slots, a close
		Replica c = replicas.start("c");
		c.breaker("payments");
		failTimes(a.breaker("payments"), 3);
		failTimes(b.breaker("payments"), 3);
		await().atMost(Duration.ofSeconds(3)).until(() -> c.breaker("payments").state() == State.OPEN);
		// whichever replica holds the episode's one probe slot half-opens, and its probe
		// closes the fleet (asked of both: a store that flaps under load moves the slot
		// between a look at the state and the call)
		await().atMost(Duration.ofSeconds(5))
			.until(() -> probed(a.breaker("payments")) || probed(b.breaker("payments")));
		await().atMost(Duration.ofSeconds(3))
			.until(() -> a.breaker("payments").state() == State.CLOSED
					&& b.breaker("payments").state() == State.CLOSED);
		// an operator's fleet-wide override and its end
		a.sync().override(a.breaker("quotes"), State.FORCED_OPEN, true);
		await().atMost(Duration.ofSeconds(3)).until(() -> b.breaker("quotes").state() == State.FORCED_OPEN);
		a.sync().override(a.breaker("quotes"), State.CLOSED, true);
		await().atMost(Duration.ofSeconds(3)).until(() -> b.breaker("quotes").state() == State.CLOSED);
		// the fleet window flushes every 200 ms; Redis restarts empty: the reconnect
		// read, and the open episode written back
		failTimes(a.breaker("inventory"), 3);
		failTimes(c.breaker("inventory"), 3);
		await().atMost(Duration.ofSeconds(3)).until(() -> b.breaker("inventory").state() == State.OPEN);
		redis.restart();
		await().atMost(Duration.ofSeconds(5))
			.until(() -> a.status().up() && b.status().up() && admin().exists("breaker:{inventory}:open") == 1);

		assertThat(FleetAcl.deniedSoFar(admin())).as("what the ACL refused").isEmpty();
	}

	/** Whether a half-open breaker let a probe through (it succeeded). */
	private static boolean probed(Breaker breaker) {
		if (breaker.state() != State.HALF_OPEN) {
			return false;
		}
		try {
			breaker.call(() -> "ok");
			return true;
		}
		catch (BreakerOpenException rejected) {
			return false;
		}
		catch (Exception ex) {
			throw new AssertionError(ex);
		}
	}

	@Test
	void thatUserCanTouchNothingElse() {
		RedisClient client = RedisClient.create(RedisURI.builder()
			.withHost("127.0.0.1")
			.withPort(redis.port())
			.withAuthentication("checkout", FleetAcl.PASSWORD.toCharArray())
			.build());
		try (StatefulRedisConnection<String, String> connection = client.connect()) {
			RedisCommands<String, String> checkout = connection.sync();
			assertThatThrownBy(() -> checkout.set("sessions:42", "x")).hasMessageContaining("NOPERM");
			assertThatThrownBy(() -> checkout.get("breaker:{payments}:open")).as("GET: not a command the fleet sends")
				.hasMessageContaining("NOPERM");
			assertThatThrownBy(() -> checkout.del("sessions:42")).hasMessageContaining("NOPERM");
			assertThatThrownBy(() -> checkout.eval("return redis.call('DEL', KEYS[1])",
					io.lettuce.core.ScriptOutputType.INTEGER, "sessions:42"))
				.as("a script on a key of somebody else")
				.hasMessageContaining("NOPERM");
			assertThatThrownBy(() -> checkout.publish("orders", "x")).hasMessageContaining("NOPERM");
			assertThatThrownBy(checkout::flushall).hasMessageContaining("NOPERM");
			assertThatThrownBy(checkout::scriptFlush).hasMessageContaining("NOPERM");
			assertThatThrownBy(() -> checkout.functionFlush(io.lettuce.core.FlushMode.SYNC))
				.hasMessageContaining("NOPERM");
			assertThatThrownBy(() -> checkout.keys("*")).hasMessageContaining("NOPERM");
			assertThatThrownBy(() -> checkout.configSet("save", "")).hasMessageContaining("NOPERM");
			assertThatThrownBy(() -> checkout.clientKill("127.0.0.1:1")).hasMessageContaining("NOPERM");
			assertThatThrownBy(() -> checkout.dispatch(CommandType.ACL, new StatusOutput<>(StringCodec.UTF8),
					new CommandArgs<>(StringCodec.UTF8).add("SETUSER").add("mallory").add("on")))
				.hasMessageContaining("NOPERM");
		}
		finally {
			client.shutdown();
		}
	}

	private RedisCommands<String, String> admin() {
		if (admin == null) {
			admin = adminClient.connect();
		}
		return admin.sync();
	}

}
