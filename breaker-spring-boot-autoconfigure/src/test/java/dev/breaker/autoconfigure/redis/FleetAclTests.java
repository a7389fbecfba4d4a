package dev.breaker.autoconfigure.redis;

import static dev.breaker.autoconfigure.redis.FleetModeIntegrationTests.failTimes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Duration;

import dev.breaker.core.State;
import dev.breaker.redis.FleetAcl;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The shorter ACL by categories that docs/fleet-mode.md offers (under Signing; the
 * production ACL, command by command, is {@link FleetProductionAclTests}'s): a Redis user
 * that may touch only the fleet's keys and channel is all fleet mode needs. The rules are
 * read from the page ({@link FleetAcl#categoryRules()}), so the docs and this test cannot
 * drift apart.
 */
class FleetAclTests {

	@RegisterExtension
	final Replicas replicas = Replicas.onLocalRedis()
		.properties("breaker.shared.redis.quorum=1", "spring.data.redis.username=checkout",
				"spring.data.redis.password=" + FleetAcl.PASSWORD, Replicas.PATIENT_PING);

	@BeforeEach
	void createTheDocumentedUser() {
		FleetAcl.createUser(replicas.admin().redis(), "checkout", FleetAcl.categoryRules());
	}

	@Test
	void replicasShareThroughAUserLimitedToTheFleetsKeysAndChannel() {
		Replica a = replicas.start("a");
		Replica b = replicas.start("b");
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
			.withPort(replicas.redis().port())
			.withAuthentication("checkout", FleetAcl.PASSWORD.toCharArray())
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

}
