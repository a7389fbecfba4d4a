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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * How long a peer's open lasts here is a relative TTL run on this replica's own ticker;
 * wall clocks never meet.
 */
class PeerOpenTimingTests {

	@RegisterExtension
	final Replicas replicas = Replicas.onLocalRedis().properties("breaker.shared.redis.quorum=1");

	@Test
	void aPeersOpenLastsItsRemainingWaitOnTheLocalTickerWhateverTheClocksSay() {
		BreakerConfig base = BreakerConfig.builder()
			.consecutiveFailures(3)
			.openWait(Duration.ofSeconds(30))
			.openWaitJitter(0)
			.build();
		Replica tripping = replicas.start("a",
				base.toBuilder()
					.ticker(Ticker.system())
					.clock(Clock.offset(Clock.systemUTC(), Duration.ofHours(1)))
					.build());
		ManualTicker ticker = new ManualTicker();
		Replica following = replicas.start("b",
				base.toBuilder().ticker(ticker).clock(Clock.offset(Clock.systemUTC(), Duration.ofHours(-3))).build());
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
