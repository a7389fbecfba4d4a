package dev.breaker.autoconfigure.redis;

import static dev.breaker.autoconfigure.redis.FleetModeIntegrationTests.failTimes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Clock;
import java.time.Duration;

import dev.breaker.core.BreakerConfig;
import dev.breaker.core.ManualTicker;
import dev.breaker.core.State;
import dev.breaker.core.Ticker;
import dev.breaker.redis.RedisServerHarness;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * How long a peer's open lasts here is a relative TTL run on this replica's own ticker;
 * wall clocks never meet.
 */
class PeerOpenTimingTests {

	private RedisServerHarness redis;

	private Replica tripping;

	private Replica following;

	@BeforeEach
	void startRedis() {
		redis = RedisServerHarness.start();
	}

	@AfterEach
	void stopAll() {
		if (following != null) {
			following.close();
		}
		if (tripping != null) {
			tripping.close();
		}
		redis.close();
	}

	@Test
	void aPeersOpenLastsItsRemainingWaitOnTheLocalTickerWhateverTheClocksSay() {
		BreakerConfig base = BreakerConfig.builder()
			.consecutiveFailures(3)
			.openWait(Duration.ofSeconds(30))
			.openWaitJitter(0)
			.build();
		tripping = Replica.start(redis, "a",
				base.toBuilder()
					.ticker(Ticker.system())
					.clock(Clock.offset(Clock.systemUTC(), Duration.ofHours(1)))
					.build(),
				"breaker.shared.redis.quorum=1");
		ManualTicker ticker = new ManualTicker();
		following = Replica.start(redis, "b",
				base.toBuilder().ticker(ticker).clock(Clock.offset(Clock.systemUTC(), Duration.ofHours(-3))).build(),
				"breaker.shared.redis.quorum=1");
		following.breaker("payments");

		failTimes(tripping.breaker("payments"), 3);
		await().atMost(Duration.ofSeconds(3)).until(() -> following.breaker("payments").state() == State.OPEN);

		ticker.advance(Duration.ofSeconds(28));
		assertThat(following.breaker("payments").state()).isEqualTo(State.OPEN);
		// the 30 s the fleet holds it open, plus the second a replica without probe slots
		// stays open longer
		ticker.advance(Duration.ofSeconds(3));
		assertThat(following.breaker("payments").state()).isEqualTo(State.HALF_OPEN);
	}

}
