package dev.breaker.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Duration;

import dev.breaker.core.Breaker;
import dev.breaker.core.BreakerConfig;
import dev.breaker.core.BreakerRegistry;
import dev.breaker.core.Snapshot;
import dev.breaker.core.State;
import dev.breaker.core.Ticker;
import io.lettuce.core.RedisURI;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * With signing on, an announced open lasts until the end of the episode it was issued for
 * (its signed issue time plus its signed TTL, by Redis's clock), never longer: a signed
 * announcement replayed within the 30 s freshness window, or delivered late, must not
 * hold a replica open past the episode the fleet opened. Driven by hand on the sync side;
 * no Redis is needed (none is reached).
 */
class SignedAnnouncementLengthTests {

	private static final String KEY = "signing-key-of-the-checkout-fleet";

	private static final long REDIS_NOW = 1_764_000_000_000L;

	private final BreakerRegistry registry = BreakerRegistry.builder()
		.defaults(BreakerConfig.builder()
			.consecutiveFailures(1)
			.openWait(Duration.ofSeconds(30))
			.maxOpenWait(Duration.ofSeconds(60))
			.ticker(Ticker.system())
			.build())
		.build();

	private final FleetSettings defaults = FleetSettings.defaults(1);

	private final FleetSync sync = new FleetSync(registry, new SharedStoreStatus("a", Clock.systemUTC()),
			RedisURI.create("127.0.0.1", 1), new FleetSettings(defaults.keyPrefix(), defaults.channel(),
					defaults.timeout(), defaults.reconnectInterval(), 1, KEY));

	/** The replica that opened the episode, with its own estimate of Redis's clock. */
	private final RedisClock sendersClock = new RedisClock();

	private final Trust sender = new Trust(MessageSigner.of(KEY), sendersClock,
			new SharedStoreStatus("c", Clock.systemUTC()));

	private final Breaker payments = registry.breaker("payments");

	@AfterEach
	void close() {
		sync.close();
	}

	@Test
	void aSignedOpenHeardOnTimeHoldsTheBreakerForItsWholeTtl() {
		FleetMessage open = issuedAt(REDIS_NOW, 20_000);
		redisNowHereIs(REDIS_NOW);

		sync.peers().received(open.encode());

		assertThat(payments.state()).isEqualTo(State.OPEN);
		assertThat(openWait(payments)).isBetween(Duration.ofSeconds(19), Duration.ofSeconds(20));
	}

	@Test
	void aSignedOpenReplayedWhileStillFreshHoldsTheBreakerOnlyUntilItsEpisodeEnds() {
		FleetMessage open = issuedAt(REDIS_NOW, 20_000);
		// 15 s later: fresh enough to be believed (within 30 s), 5 s left of its episode
		redisNowHereIs(REDIS_NOW + 15_000);

		sync.peers().received(open.encode());

		assertThat(payments.state()).isEqualTo(State.OPEN);
		assertThat(openWait(payments)).as("the open wait of a replayed announcement")
			.isBetween(Duration.ofSeconds(4), Duration.ofSeconds(5));
		assertThat(sync.view("payments").remainingMillis()).isBetween(4_000L, 5_000L);
	}

	@Test
	void aSignedOpenReplayedAfterItsEpisodeEndedOpensNothing() {
		FleetMessage open = issuedAt(REDIS_NOW, 20_000);
		// 25 s later: still within the freshness window, but its episode ended 5 s ago
		redisNowHereIs(REDIS_NOW + 25_000);

		sync.peers().received(open.encode());

		assertThat(payments.state()).isEqualTo(State.CLOSED);
		assertThat(sync.view("payments").fleetOpen()).isFalse();
	}

	private FleetMessage issuedAt(long redisMillis, long ttlMillis) {
		long now = System.nanoTime();
		sendersClock.sample(redisMillis, now, now);
		return sender.issue(FleetMessage.Kind.OPEN, "payments", "e1", ttlMillis, null, "c", "trip");
	}

	private void redisNowHereIs(long redisMillis) {
		long now = System.nanoTime();
		sync.trust().clock().sample(redisMillis, now, now);
	}

	private static Duration openWait(Breaker breaker) {
		Snapshot snapshot = breaker.snapshot();
		return Duration.between(snapshot.since(), snapshot.openUntil());
	}

}
