package dev.breaker.redis;

import java.time.Clock;

import dev.breaker.core.BreakerConfig;
import dev.breaker.core.BreakerRegistry;
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

	@Override
	public void close() {
		sync.close();
		admin.close();
		redis.close();
	}

}
