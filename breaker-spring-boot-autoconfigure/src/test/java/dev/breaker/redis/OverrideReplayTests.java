package dev.breaker.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Clock;
import java.time.Duration;
import java.util.List;

import dev.breaker.core.Breaker;
import dev.breaker.core.BreakerConfig;
import dev.breaker.core.BreakerRegistry;
import dev.breaker.core.State;
import dev.breaker.core.Ticker;
import io.lettuce.core.RedisURI;
import org.junit.jupiter.api.Test;

/**
 * With signing on, a fleet-wide override that someone who can only publish on the channel
 * sends again, within the freshness window, is dropped and counted: it never undoes the
 * operator's later decision.
 */
class OverrideReplayTests {

	static final String KEY = "signing-key-of-the-checkout-fleet";

	static FleetSync replica(RedisServerHarness redis, BreakerRegistry registry, String id) throws Exception {
		FleetSettings settings = new FleetSettings("breaker:", "breaker:transitions", Duration.ofMillis(500),
				Duration.ofSeconds(1), 1, KEY);
		FleetSync sync = new FleetSync(registry, new SharedStoreStatus(id, Clock.systemUTC()),
				RedisURI.create("127.0.0.1", redis.port()), settings);
		sync.start();
		assertThat(sync.awaitFirstSync(Duration.ofSeconds(10))).isTrue();
		return sync;
	}

	static BreakerRegistry registry() {
		return BreakerRegistry.builder().defaults(BreakerConfig.builder().ticker(Ticker.system()).build()).build();
	}

	@Test
	void aReplayedSignedDisabledAfterTheOperatorsResetDoesNotTurnProtectionOffOnAPeer() throws Exception {
		afterADisabledFleetWide((admin, a, b, pa, pb, heard) -> {
			a.override(pa, State.CLOSED, true);
			await().atMost(Duration.ofSeconds(10)).until(() -> pb.state() == State.CLOSED);
			await().atMost(Duration.ofSeconds(10)).until(() -> heard.size() >= 2);
			String disabled = heard.get(0);
			assertThat(FleetMessage.decode(disabled).override()).isEqualTo(State.DISABLED);
			long rejectedBefore = b.status().rejected();

			// mallory, who can PUBLISH but not sign, replays the operator's earlier
			// DISABLED
			admin.publish("breaker:transitions", disabled);
			await().atMost(Duration.ofSeconds(10)).until(() -> b.status().rejected() > rejectedBefore);

			assertThat(pb.state())
				.as("peer b after a replay of the DISABLED the operator had reset; rejected %s->%s", rejectedBefore,
						b.status().rejected())
				.isEqualTo(State.CLOSED);
		});
	}

	@Test
	void aReplayedSignedResetDoesNotEndAForcedOpenOnAPeer() throws Exception {
		afterADisabledFleetWide((admin, a, b, pa, pb, heard) -> {
			a.override(pa, State.CLOSED, true);
			await().atMost(Duration.ofSeconds(10)).until(() -> heard.size() >= 2);
			a.override(pa, State.FORCED_OPEN, true);
			await().atMost(Duration.ofSeconds(10)).until(() -> pb.state() == State.FORCED_OPEN);
			String reset = heard.get(1);
			assertThat(FleetMessage.decode(reset).override()).isEqualTo(State.CLOSED);

			long rejectedBefore = b.status().rejected();
			admin.publish("breaker:transitions", reset);
			await().atMost(Duration.ofSeconds(10)).until(() -> b.status().rejected() > rejectedBefore);

			assertThat(pb.state())
				.as("peer b after a replay of an earlier reset, while the operator's FORCED_OPEN stands")
				.isEqualTo(State.FORCED_OPEN);
			assertThat(pa.state()).as("replica a itself").isEqualTo(State.FORCED_OPEN);
		});
	}

	/**
	 * Two replicas on one Redis, whose operator on {@code a} has set the breaker DISABLED
	 * fleet-wide (heard on {@code b}), then the scenario, with every announcement on the
	 * channel in {@code heard}.
	 */
	private static void afterADisabledFleetWide(Scenario scenario) throws Exception {
		try (RedisServerHarness redis = RedisServerHarness.start(); RedisAdmin admin = new RedisAdmin(redis)) {
			BreakerRegistry ra = registry();
			BreakerRegistry rb = registry();
			try (FleetSync a = replica(redis, ra, "checkout-1"); FleetSync b = replica(redis, rb, "checkout-2")) {
				List<String> heard = admin.listen("breaker:transitions");
				Breaker pa = ra.breaker("payments");
				Breaker pb = rb.breaker("payments");
				a.override(pa, State.DISABLED, true);
				await().atMost(Duration.ofSeconds(10)).until(() -> pb.state() == State.DISABLED);
				scenario.run(admin, a, b, pa, pb, heard);
			}
		}
	}

	private interface Scenario {

		void run(RedisAdmin admin, FleetSync a, FleetSync b, Breaker pa, Breaker pb, List<String> heard)
				throws Exception;

	}

}
