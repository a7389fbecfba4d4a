package dev.breaker.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.Map;

import dev.breaker.core.Breaker;
import dev.breaker.core.BreakerRegistry;
import dev.breaker.core.State;
import org.junit.jupiter.api.Test;

/**
 * With signing on, a standing override is taken from Redis only if it is the override
 * Redis took last for its breaker: a copy of an older one written back (by someone with
 * write access to the keys, without the key) is dropped and counted.
 */
class StoredOverrideReplayTests {

	@Test
	void aSignedDisabledCopiedBackAfterTheResetDoesNotDisableAReplicaStartedLater() throws Exception {
		startedAfterACopyWrittenBack(State.DISABLED, (admin, captured) -> {
			// mallory (write access to the keys, no signing key) puts the old signed
			// value back
			admin.redis().hset("breaker:{payments}:override", captured);
		}, (rc, c, captured) -> {
			Breaker pc = rc.breaker("payments");
			assertThat(pc.state())
				.as("a replica started after the operator's reset, Redis holding a copy of the old DISABLED (%s); rejected %s",
						captured, c.status().rejected())
				.isEqualTo(State.CLOSED);
			assertThat(c.status().rejected()).as("the copy, counted").isPositive();
		});
	}

	@Test
	void aCopyWrittenBackWithTheDecisionRecordDeletedDoesNotDisableAReplicaStartedLater() throws Exception {
		startedAfterACopyWrittenBack(State.FORCED_OPEN, (admin, captured) -> {
			admin.redis().del("breaker:{payments}:decided");
			admin.redis().hset("breaker:{payments}:override", captured);
		}, (rc, c, captured) -> {
			assertThat(rc.breaker("payments").state()).as("rejected %s", c.status().rejected()).isEqualTo(State.CLOSED);
			assertThat(c.status().rejected()).isPositive();
		});
	}

	@Test
	void theStandingOverrideRedisTookLastIsTakenByAReplicaStartedLater() throws Exception {
		try (RedisServerHarness redis = RedisServerHarness.start(); RedisAdmin admin = new RedisAdmin(redis)) {
			BreakerRegistry ra = OverrideReplayTests.registry();
			try (FleetSync a = OverrideReplayTests.replica(redis, ra, "checkout-1")) {
				Breaker pa = ra.breaker("payments");
				a.override(pa, State.DISABLED, true);
				a.override(pa, State.CLOSED, true);
				a.override(pa, State.FORCED_OPEN, true);
				await().atMost(Duration.ofSeconds(10))
					.until(() -> "FORCED_OPEN".equals(admin.redis().hget("breaker:{payments}:override", "state")));
				assertThat(admin.redis().pttl("breaker:{payments}:decided")).as("the decision record, while it stands")
					.isEqualTo(-1);

				BreakerRegistry rc = OverrideReplayTests.registry();
				try (FleetSync c = OverrideReplayTests.replica(redis, rc, "checkout-3")) {
					assertThat(rc.breaker("payments").state()).isEqualTo(State.FORCED_OPEN);
					assertThat(c.status().rejected()).isZero();
				}
				a.override(pa, State.CLOSED, true);
				await().atMost(Duration.ofSeconds(10))
					.until(() -> admin.redis().exists("breaker:{payments}:override") == 0);
				assertThat(admin.redis().pttl("breaker:{payments}:decided")).as("the decision record after the reset")
					.isPositive();
			}
		}
	}

	/**
	 * On a Redis of its own: {@link #savedThenReset} on replica a, then {@code writeBack}
	 * puts the saved override hash back (someone with write access to the keys, without
	 * the signing key), then replica c starts and {@code check} looks at it.
	 */
	private static void startedAfterACopyWrittenBack(State state, WriteBack writeBack, StartedLater check)
			throws Exception {
		try (RedisServerHarness redis = RedisServerHarness.start(); RedisAdmin admin = new RedisAdmin(redis)) {
			BreakerRegistry ra = OverrideReplayTests.registry();
			try (FleetSync a = OverrideReplayTests.replica(redis, ra, "checkout-1")) {
				Map<String, String> captured = savedThenReset(a, ra, admin, state);

				writeBack.write(admin, captured);

				BreakerRegistry rc = OverrideReplayTests.registry();
				try (FleetSync c = OverrideReplayTests.replica(redis, rc, "checkout-3")) {
					check.check(rc, c, captured);
				}
			}
		}
	}

	/** What is written to Redis once the override is reset. */
	private interface WriteBack {

		void write(RedisAdmin admin, Map<String, String> captured);

	}

	/** What a test checks on replica c, started after the write-back. */
	private interface StartedLater {

		void check(BreakerRegistry rc, FleetSync c, Map<String, String> captured);

	}

	/**
	 * The operator's fleet-wide {@code state} on replica a, the override hash as Redis
	 * held it then (what someone with write access saves), then the operator's reset.
	 */
	private static Map<String, String> savedThenReset(FleetSync a, BreakerRegistry ra, RedisAdmin admin, State state) {
		Breaker pa = ra.breaker("payments");
		a.override(pa, state, true);
		await().atMost(Duration.ofSeconds(10)).until(() -> admin.redis().exists("breaker:{payments}:override") == 1);
		Map<String, String> saved = admin.redis().hgetall("breaker:{payments}:override");
		a.override(pa, State.CLOSED, true);
		await().atMost(Duration.ofSeconds(10)).until(() -> admin.redis().exists("breaker:{payments}:override") == 0);
		return saved;
	}

}
