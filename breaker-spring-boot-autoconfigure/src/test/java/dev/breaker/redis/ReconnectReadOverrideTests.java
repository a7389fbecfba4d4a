package dev.breaker.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicBoolean;

import dev.breaker.core.Breaker;
import dev.breaker.core.BreakerConfig;
import dev.breaker.core.BreakerRegistry;
import dev.breaker.core.State;
import dev.breaker.core.Ticker;
import io.lettuce.core.RedisURI;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The reconnect read ends a standing override that it did not find (an operator's reset
 * reached the others while this replica was deaf); an operator's fleet-wide CLOSED on
 * another thread may end it at the same moment. The read must still finish: a replica
 * whose read never finishes never reads the fleet again after a reconnect. A real Redis;
 * the operator's CLOSED lands exactly there through the reconciler's test hook.
 */
class ReconnectReadOverrideTests {

	private final RedisServerHarness redis = RedisServerHarness.start();

	private final RedisAdmin admin = new RedisAdmin(redis);

	private final BreakerRegistry registry = BreakerRegistry.builder()
		.defaults(BreakerConfig.builder().ticker(Ticker.system()).build())
		.build();

	private final FleetSync sync = new FleetSync(registry, new SharedStoreStatus("a", Clock.systemUTC()),
			RedisURI.create("127.0.0.1", redis.port()), FleetSettings.defaults(1));

	@AfterEach
	void close() {
		sync.close();
		admin.close();
		redis.close();
	}

	@Test
	void anOperatorsCloseLandingAsTheReadEndsAnUnheardOverrideLeavesTheReadFinishedAndReadingAgain() throws Exception {
		sync.start();
		assertThat(sync.awaitFirstSync(Duration.ofSeconds(10))).isTrue();
		Breaker payments = registry.breaker("payments");
		sync.override(payments, State.FORCED_OPEN, true);
		await().atMost(Duration.ofSeconds(10)).until(() -> admin.redis().dbsize() > 0);
		// the operator's reset reached the others while this replica was deaf: Redis no
		// longer holds the override
		admin.redis().flushall();
		AtomicBoolean landed = new AtomicBoolean();
		sync.reconciler().beforeOverrideEnd(breaker -> {
			if (breaker == payments && landed.compareAndSet(false, true)) {
				sync.override(payments, State.CLOSED, true);
			}
		});

		Instant before = sync.status().lastSync();
		sync.thread().submit(sync.reconciler()::resync);
		await().atMost(Duration.ofSeconds(10)).until(() -> sync.status().lastSync().isAfter(before));
		assertThat(landed).isTrue();
		assertThat(payments.state()).isEqualTo(State.CLOSED);
		assertThat(sync.view("payments").override()).isNull();

		// the next reconnect reads the fleet again
		Instant first = sync.status().lastSync();
		sync.thread().submit(sync.reconciler()::resync);
		await().atMost(Duration.ofSeconds(10)).until(() -> sync.status().lastSync().isAfter(first));
	}

}
