package dev.breaker.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import dev.breaker.core.Breaker;
import dev.breaker.core.BreakerConfig;
import dev.breaker.core.BreakerRegistry;
import dev.breaker.core.State;
import dev.breaker.core.Ticker;
import io.lettuce.core.KillArgs;
import io.lettuce.core.RedisURI;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A trip that was to open the fleet at once (the fleet window's verdict, this replica's
 * failed probes for the fleet) still does when Redis refused it and the replica tells it
 * again after a reconnect: told as one vote, it would wait for a quorum of 2 that no
 * other replica brings.
 */
class RefusedTripTests {

	private static final Duration RECONNECT = Duration.ofMillis(200);

	private final RedisServerHarness redis = RedisServerHarness.start();

	private final RedisAdmin admin = new RedisAdmin(redis);

	private final List<FleetSync> fleet = new ArrayList<>();

	@AfterEach
	void close() {
		fleet.forEach(FleetSync::close);
		admin.close();
		redis.close();
	}

	@Test
	void aRefusedTripThatOpensTheFleetAtOnceStillDoesWhenToldAgainAfterAReconnect() throws Exception {
		FleetSync a = replica("a");
		FleetSync b = replica("b");
		Breaker payments = a.registry().breaker("payments");
		b.registry().breaker("payments");
		// a primary demoted by a failover answers every write with READONLY, until its
		// clients are disconnected
		admin.redis().replicaof("127.0.0.1", 1);
		a.tripFromFleetWindow(payments, "fleet failure rate 100.0% >= 50% over 40 calls");
		assertThat(payments.state()).isEqualTo(State.OPEN);
		// refused, then sent again 1, 2 and 4 reconnect intervals later (the next: 8)
		await().atMost(Duration.ofSeconds(5)).until(() -> a.status().errors() >= 4);
		assertThat(a.entries().get("payments").tripUnpublished()).isEqualTo(FleetPublisher.Trip.FLEET);

		admin.redis().replicaofNoOne();
		admin.redis().clientKill(KillArgs.Builder.typeNormal().skipme());

		await().atMost(Duration.ofSeconds(2)).until(() -> b.registry().breaker("payments").state() == State.OPEN);
	}

	private FleetSync replica(String id) throws InterruptedException {
		BreakerRegistry registry = BreakerRegistry.builder()
			.defaults(BreakerConfig.builder()
				.consecutiveFailures(3)
				.failureRateThreshold(0)
				.openWait(Duration.ofSeconds(30))
				.openWaitJitter(0)
				.ticker(Ticker.system())
				.build())
			.build();
		FleetSettings defaults = FleetSettings.defaults(2);
		FleetSettings settings = new FleetSettings(defaults.keyPrefix(), defaults.channel(), defaults.timeout(),
				RECONNECT, 2, "");
		FleetSync sync = new FleetSync(registry, new SharedStoreStatus(id, Clock.systemUTC()),
				RedisURI.create("127.0.0.1", redis.port()), settings);
		fleet.add(sync);
		sync.start();
		assertThat(sync.awaitFirstSync(Duration.ofSeconds(10))).isTrue();
		return sync;
	}

}
