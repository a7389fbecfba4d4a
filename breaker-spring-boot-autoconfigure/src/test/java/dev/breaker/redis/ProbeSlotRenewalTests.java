package dev.breaker.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import dev.breaker.core.Breaker;
import dev.breaker.core.BreakerConfig;
import dev.breaker.core.BreakerRegistry;
import dev.breaker.core.State;
import dev.breaker.core.Ticker;
import io.lettuce.core.RedisURI;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A replica following many open episodes must not keep Redis (and its own sync thread)
 * busy renewing probe slots long before any open wait ends: with 100,000 open circuits, a
 * renewal every half second for each is 200,000 scripts a second, and the start-up read
 * behind them on the sync thread never finishes. Probe slots only matter once the open
 * wait ends; until shortly before then, the first claim's lease must hold them.
 */
class ProbeSlotRenewalTests {

	private static final int CIRCUITS = 200;

	private static final long OPEN_MILLIS = 60_000;

	private final RedisServerHarness redis = RedisServerHarness.start();

	private final RedisAdmin admin = new RedisAdmin(redis);

	private final BreakerRegistry registry = BreakerRegistry.builder()
		.defaults(BreakerConfig.builder()
			.openWait(Duration.ofSeconds(30))
			.maxOpenWait(Duration.ofMinutes(5))
			.ticker(Ticker.system())
			.build())
		.build();

	private final FleetKeys keys = new FleetKeys("breaker:");

	private FleetSync sync;

	private final List<FleetSync> fleet = new ArrayList<>();

	@AfterEach
	void close() {
		if (sync != null) {
			sync.close();
		}
		fleet.forEach(FleetSync::close);
		admin.close();
		redis.close();
	}

	@Test
	void followedEpisodesFarFromTheEndOfTheirOpenWaitClaimProbeSlotsOnceAndHoldThemUntilShortlyBeforeIt()
			throws Exception {
		List<Breaker> breakers = new ArrayList<>();
		for (int i = 0; i < CIRCUITS; i++) {
			String name = "tenant-" + i;
			breakers.add(registry.breaker(name));
			admin.redis()
				.hset(keys.state(name), Map.of("state", "OPEN", "episode", "e" + i, "ttl", Long.toString(OPEN_MILLIS),
						"replica", "other", "reason", "consecutive failures", "issued", "0", "sig", ""));
			admin.redis().pexpire(keys.state(name), OPEN_MILLIS);
		}
		sync = new FleetSync(registry, new SharedStoreStatus("late", Clock.systemUTC()),
				RedisURI.create("127.0.0.1", redis.port()), FleetSettings.defaults(1));
		sync.start();
		assertThat(sync.awaitFirstSync(Duration.ofSeconds(30))).isTrue();
		assertThat(breakers).allMatch(b -> b.state() == State.OPEN);
		// every breaker's first claim is answered: it holds its episode's probe slots
		await().atMost(Duration.ofSeconds(20))
			.until(() -> breakers.stream().allMatch(b -> sync.view(b.name()).probeSlots() > 0));
		long scriptsBefore = scripts();

		// two seconds later (four renewal periods), with every open wait still some 55 s
		// from its end
		long until = System.nanoTime() + Duration.ofSeconds(2).toNanos();
		await().atMost(Duration.ofSeconds(10)).until(() -> System.nanoTime() - until >= 0);

		assertThat(scripts() - scriptsBefore).as("scripts run while every open wait was a minute from its end")
			.isZero();
		List<String> time = admin.redis().time();
		long redisNow = Long.parseLong(time.get(0)) * 1_000 + Long.parseLong(time.get(1)) / 1_000;
		for (int i = 0; i < CIRCUITS; i += 50) {
			String held = admin.redis().hget(keys.probes("tenant-" + i, "e" + i), "late"); // slots|leaseUntil|want|sig
			assertThat(held).as("tenant-%d's probe slots", i).isNotNull();
			long leaseLeft = Long.parseLong(held.split("\\|")[1]) - redisNow;
			assertThat(leaseLeft).as("tenant-%d's lease holds the slots until shortly before its open wait ends", i)
				.isGreaterThan(OPEN_MILLIS - 15_000);
		}
		assertThat(breakers).allMatch(b -> sync.view(b.name()).probeSlots() > 0);
	}

	@Test
	void withLeasesThatLastToTheEndOfALongOpenWaitTheFleetStillNeverRunsMoreConcurrentProbesThanAllowed()
			throws Exception {
		// an open wait long enough that every claim is made far from its end (the long
		// lease), then renewed close to it
		BreakerConfig config = BreakerConfig.builder()
			.consecutiveFailures(3)
			.failureRateThreshold(0)
			.openWait(Duration.ofSeconds(4))
			.openWaitJitter(0)
			.maxOpenWait(Duration.ofSeconds(60))
			.halfOpenMaxProbes(2)
			.halfOpenSuccessesToClose(10)
			.halfOpenMaxWait(Duration.ofSeconds(30))
			.ticker(Ticker.system())
			.build();
		List<Breaker> payments = new ArrayList<>();
		for (String id : List.of("a", "b", "c")) {
			BreakerRegistry replica = BreakerRegistry.builder().defaults(config).build();
			payments.add(replica.breaker("payments"));
			fleet.add(redis.join(replica, id, 1));
		}
		for (int i = 0; i < 3; i++) {
			try {
				payments.get(0).call(() -> {
					throw new IllegalStateException("down");
				});
			}
			catch (IllegalStateException expected) {
				// a failure
			}
		}
		await().atMost(Duration.ofSeconds(5)).until(() -> payments.stream().allMatch(b -> b.state() == State.OPEN));

		try (HangingProbes probes = HangingProbes.start(payments, 3, Duration.ofSeconds(20))) {
			await().atMost(Duration.ofSeconds(12)).until(() -> probes.probes() >= 1);
			// every replica's open wait has ended by now: let all claims come back and
			// any over-granted probe start
			await().pollDelay(Duration.ofMillis(2000)).atMost(Duration.ofSeconds(3)).until(() -> true);

			assertThat(probes.mostAtOnce()).isBetween(1, 2);
		}
	}

	private long scripts() {
		for (String line : admin.redis().info("commandstats").split("\r?\n")) {
			if (line.startsWith("cmdstat_evalsha:")) {
				return Long.parseLong(line.substring(line.indexOf("calls=") + 6, line.indexOf(',')));
			}
		}
		return 0;
	}

}
