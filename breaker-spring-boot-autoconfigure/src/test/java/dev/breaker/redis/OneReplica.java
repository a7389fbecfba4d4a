package dev.breaker.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Duration;

import dev.breaker.core.BreakerConfig;
import dev.breaker.core.BreakerRegistry;
import dev.breaker.core.State;
import dev.breaker.core.Ticker;
import io.lettuce.core.RedisURI;

/**
 * One replica ("a", quorum 1, the system ticker) of a fleet on a real Redis of its own,
 * with an admin connection to that Redis, for tests that land something exactly between
 * two steps of the fleet sync. Closed sync first, Redis last.
 */
final class OneReplica implements AutoCloseable {

	final RedisServerHarness redis = RedisServerHarness.start();

	final RedisAdmin admin = new RedisAdmin(redis);

	final BreakerRegistry registry = BreakerRegistry.builder()
		.defaults(BreakerConfig.builder().ticker(Ticker.system()).build())
		.build();

	final FleetSettings settings = FleetSettings.defaults(1);

	final FleetSync sync = new FleetSync(registry, new SharedStoreStatus("a", Clock.systemUTC()),
			RedisURI.create("127.0.0.1", redis.port()), settings);

	/** Starts the replica's fleet sync and waits for its first read of the fleet. */
	FleetSync started() throws InterruptedException {
		sync.start();
		assertThat(sync.awaitFirstSync(Duration.ofSeconds(10))).isTrue();
		return sync;
	}

	/**
	 * Publishes, on the fleet's channel, an operator's override of {@code breaker} on
	 * every replica made on the peer "checkout-2" (unsigned, issued now). Returns how
	 * many subscribers got it.
	 */
	long peerOverride(String breaker, State state) {
		String message = new FleetMessage(FleetMessage.Kind.OVERRIDE, breaker, "", 0, state, "checkout-2",
				System.currentTimeMillis(), "operator: " + state + " on every replica", "")
			.encode();
		return admin.publish(settings.channel(), message);
	}

	@Override
	public void close() {
		sync.close();
		admin.close();
		redis.close();
	}

}
