package dev.breaker.autoconfigure.redis;

import static dev.breaker.autoconfigure.redis.FleetModeIntegrationTests.failTimes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Duration;

import dev.breaker.core.State;
import dev.breaker.redis.RedisAdmin;
import dev.breaker.redis.RedisServerHarness;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.output.StatusOutput;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CommandType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The README's ACL: a Redis user that may touch only the fleet's keys and channel is all
 * fleet mode needs.
 */
class FleetAclTests {

	/** The rules the README shows, word for word. */
	static final String RULES = "on >s3cret resetchannels ~breaker:* &breaker:transitions -@all +@read +@write +@scripting "
			+ "+@pubsub +@connection -@dangerous +info +time";

	private RedisServerHarness redis;

	private RedisAdmin admin;

	private Replica a;

	private Replica b;

	@BeforeEach
	void startRedis() {
		redis = RedisServerHarness.start();
		admin = new RedisAdmin(redis);
		admin.redis()
			.dispatch(CommandType.ACL, new StatusOutput<>(StringCodec.UTF8),
					new CommandArgs<>(StringCodec.UTF8).add("SETUSER").add("checkout").addValues(RULES.split(" ")));
	}

	@AfterEach
	void stopAll() {
		if (b != null) {
			b.close();
		}
		if (a != null) {
			a.close();
		}
		admin.close();
		redis.close();
	}

	@Test
	void replicasShareThroughAUserLimitedToTheFleetsKeysAndChannel() {
		a = replica("a");
		b = replica("b");
		b.breaker("payments");

		failTimes(a.breaker("payments"), 3);

		await().atMost(Duration.ofSeconds(3)).until(() -> b.breaker("payments").state() == State.OPEN);
		assertThat(a.status().errors()).isZero();
		a.breaker("payments").reset();
		await().atMost(Duration.ofSeconds(3)).until(() -> b.breaker("payments").state() == State.CLOSED);
		assertThat(b.status().errors()).isZero();
	}

	@Test
	void thatUserCanTouchNothingElse() {
		RedisClient client = RedisClient.create(RedisURI.builder()
			.withHost("127.0.0.1")
			.withPort(redis.port())
			.withAuthentication("checkout", "s3cret".toCharArray())
			.build());
		try (StatefulRedisConnection<String, String> connection = client.connect()) {
			assertThatThrownBy(() -> connection.sync().set("sessions:42", "x")).hasMessageContaining("NOPERM");
			assertThatThrownBy(() -> connection.sync().flushall()).hasMessageContaining("NOPERM");
			assertThatThrownBy(() -> connection.sync().publish("other", "x")).hasMessageContaining("NOPERM");
		}
		finally {
			client.shutdown();
		}
	}

	private Replica replica(String id) {
		return Replica.start(redis, id, FleetQuorumTests.config(Duration.ofSeconds(30)),
				"breaker.shared.redis.quorum=1", "spring.data.redis.username=checkout",
				"spring.data.redis.password=s3cret");
	}

}
