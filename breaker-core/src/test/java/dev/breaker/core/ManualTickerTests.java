package dev.breaker.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The testing clock: a ticker that moves when told, and a wall clock that follows it. */
class ManualTickerTests {

	private static final Instant START = Instant.parse("2026-12-01T10:00:00Z");

	@Test
	void movesOnlyWhenTold() {
		ManualTicker ticker = new ManualTicker();
		assertThat(ticker.nanos()).isZero();
		ticker.advance(Duration.ofMillis(1500));
		ticker.advanceNanos(7);
		assertThat(ticker.nanos()).isEqualTo(1_500_000_007L);
		ticker.set(42);
		assertThat(ticker.nanos()).isEqualTo(42);
		assertThatThrownBy(() -> ticker.advanceNanos(-1)).isInstanceOf(IllegalArgumentException.class)
			.hasMessage("a ticker never goes back, but was asked to advance by -1 ns");
	}

	@Test
	void itsClockShowsTheStartPlusTheTickersTimeInUtc() {
		ManualTicker ticker = new ManualTicker();
		Clock clock = ticker.clock(START);
		assertThat(clock.instant()).isEqualTo(START);
		assertThat(clock.getZone()).isEqualTo(ZoneOffset.UTC);
		ticker.advance(Duration.ofSeconds(90).plusNanos(5));
		assertThat(clock.instant()).isEqualTo(START.plusSeconds(90).plusNanos(5));
		assertThat(clock.millis()).isEqualTo(START.plusSeconds(90).toEpochMilli());
	}

	@Test
	void inAnotherZoneItStillFollowsTheTicker() {
		ManualTicker ticker = new ManualTicker();
		ZoneId paris = ZoneId.of("Europe/Paris");
		Clock clock = ticker.clock(START).withZone(paris);
		ticker.advance(Duration.ofMinutes(1));
		assertThat(clock.getZone()).isEqualTo(paris);
		assertThat(clock.instant()).isEqualTo(START.plusSeconds(60));
	}

	@Test
	void aClockOnAnyTickerReadsItOnceAtEachInstant() {
		AtomicLong reads = new AtomicLong();
		Clock clock = ManualTicker.clock(() -> Duration.ofHours(reads.incrementAndGet()).toNanos(), START);
		assertThat(clock.instant()).isEqualTo(START.plusSeconds(3600));
		assertThat(clock.instant()).isEqualTo(START.plusSeconds(7200));
		assertThat(reads).hasValue(2);
	}

}
