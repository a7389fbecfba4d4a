package dev.breaker.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

import dev.breaker.core.Breaker;
import dev.breaker.core.BreakerConfig;
import dev.breaker.core.BreakerRegistry;
import dev.breaker.core.State;
import dev.breaker.core.Ticker;
import io.lettuce.core.KillArgs;
import io.lettuce.core.RedisURI;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

/**
 * Untold overrides lost to a child eviction; a malformed override key stalling the read.
 */
class UntoldOverrideLossTests {

	private static final String HOST = "payments.acme.com";

	private static final String NAME = "http:" + HOST;

	@AutoClose
	private final RedisServerHarness redis = RedisServerHarness.start();

	@AutoClose
	private final RedisAdmin admin = new RedisAdmin(redis);

	private final BreakerRegistry registry = BreakerRegistry.builder()
		.defaults(BreakerConfig.builder().ticker(Ticker.system()).build())
		.children("http", new BreakerRegistry.Children(2, Duration.ofMinutes(10), false))
		.build();

	private final FleetSettings settings = FleetSettings.defaults(1);

	@AutoClose
	private final FleetSync sync = new FleetSync(registry, new SharedStoreStatus("a", Clock.systemUTC()),
			RedisURI.create("127.0.0.1", redis.port()), settings);

	private final BreakerRegistry peers = OneReplica.systemTickerRegistry();

	@AutoClose
	private FleetSync peer;

	@Test
	void aResetMadeWhileCutOffIsNotLostWhenItsHostBreakerIsEvicted() throws Exception {
		sync.start();
		assertThat(sync.awaitFirstSync(Duration.ofSeconds(10))).isTrue();
		peer = redis.join(peers, "b", 1);
		Breaker here = registry.breaker("http", HOST);
		Breaker there = peers.breaker("http", HOST);
		peer.override(there, State.FORCED_OPEN, true);
		await().atMost(Duration.ofSeconds(10)).until(() -> here.state() == State.FORCED_OPEN);

		admin.redis().configSet("requirepass", "cut-off");
		admin.redis().clientKill(KillArgs.Builder.typeNormal().skipme());
		admin.redis().clientKill(KillArgs.Builder.typePubsub());
		await().atMost(Duration.ofSeconds(10)).until(() -> !sync.status().up());
		Instant before = sync.status().lastSync();

		// the operator's latest decision: reset it on every replica
		sync.override(here, State.CLOSED, true);
		await().atMost(Duration.ofSeconds(10)).until(() -> sync.view(NAME).untold() != null);
		assertThat(here.state()).isEqualTo(State.CLOSED);
		// other hosts' requests evict the (now CLOSED, least recently used) child
		registry.breaker("http", "other-1");
		registry.breaker("http", "other-2");
		registry.breaker("http", "other-3");
		assertThat(registry.children("http")).doesNotContain(here);

		admin.redis().configSet("requirepass", "");
		await().atMost(Duration.ofSeconds(20)).until(() -> sync.status().lastSync().isAfter(before));
		// the untold reset is settled here (sent again and taken, or dropped), and what
		// Redis published of it has reached b
		await().atMost(Duration.ofSeconds(20)).until(() -> sync.view(NAME).untold() == null);

		assertThat(registry.breaker("http", HOST).state()).as("this host's next request, replica a")
			.isEqualTo(State.CLOSED);
		await().atMost(Duration.ofSeconds(10))
			.untilAsserted(() -> assertThat(there.state()).as("replica b").isEqualTo(State.CLOSED));
	}

	@Test
	void controlWithoutTheMalformedKeyTheReconnectReadCompletes() throws Exception {
		stall(false);
	}

	@Test
	void aMalformedOverrideOfABreakerWithAnUntoldOverrideDoesNotStallTheReconnectRead() throws Exception {
		stall(true);
	}

	private void stall(boolean malformed) throws Exception {
		sync.start();
		assertThat(sync.awaitFirstSync(Duration.ofSeconds(10))).isTrue();
		Breaker payments = registry.breaker("payments");
		// something this version cannot read (a newer version's state, say)
		if (malformed) {
			admin.redis().hset(settings.keyPrefix() + "{payments}:override", "state", "METERED");
			admin.redis().hset(settings.keyPrefix() + "{payments}:override", "replica", "c");
			admin.redis().hset(settings.keyPrefix() + "{payments}:override", "issued", "1");
		}
		// a demoted primary: writes refused, reads answered
		admin.redis().replicaof("127.0.0.1", 1);
		sync.override(payments, State.FORCED_OPEN, true);
		await().atMost(Duration.ofSeconds(10)).until(() -> sync.view("payments").untold() != null);

		long scansBefore = scans();
		Instant before = sync.status().lastSync();
		admin.redis().clientKill(KillArgs.Builder.typeNormal().skipme()); // a reconnect:
																			// the read
		await().atMost(Duration.ofSeconds(6)).untilAsserted(() -> {
			long scans = scans() - scansBefore;
			assertThat(sync.status().lastSync())
				.as("the reconnect read completed (lastSync moved), SCANs run: " + scans)
				.isAfter(before);
		});
	}

	private long scans() {
		String info = admin.redis().info("commandstats");
		java.util.regex.Matcher m = java.util.regex.Pattern.compile("cmdstat_scan:calls=(\\d+)").matcher(info);
		return m.find() ? Long.parseLong(m.group(1)) : -1;
	}

}
