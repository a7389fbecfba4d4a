package dev.breaker.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** How values read in messages: exactly as given, the way an operator writes them. */
class NumbersTests {

	@Test
	void exactDoublesArePlainBetweenATenMillionthAndTenQuadrillion() {
		assertThat(Numbers.exact(0)).isEqualTo("0");
		assertThat(Numbers.exact(120)).isEqualTo("120");
		assertThat(Numbers.exact(0.99)).isEqualTo("0.99");
		assertThat(Numbers.exact(1e-7)).isEqualTo("0.0000001");
		assertThat(Numbers.exact(9.99e-8)).isEqualTo("9.99E-8");
		assertThat(Numbers.exact(9_999_999_999_999_998.0)).isEqualTo("9999999999999998");
		assertThat(Numbers.exact(1e16)).isEqualTo("1.0E16");
		assertThat(Numbers.exact(Double.POSITIVE_INFINITY)).isEqualTo("Infinity");
	}

	@Test
	void durationsReadExactly() {
		assertThat(Numbers.format(Duration.ZERO)).isEqualTo("0ms");
		assertThat(Numbers.format(Duration.ofNanos(999_999))).isEqualTo("999999ns");
		assertThat(Numbers.format(Duration.ofMillis(1))).isEqualTo("1ms");
		assertThat(Numbers.format(Duration.ofNanos(1_500_000))).isEqualTo("1.5ms");
		assertThat(Numbers.format(Duration.ofMillis(1500))).isEqualTo("1.5s");
		assertThat(Numbers.format(Duration.ofSeconds(90))).isEqualTo("1m30s");
		assertThat(Numbers.format(Duration.ofHours(2).plusNanos(1))).isEqualTo("2h0.000000001s");
		assertThat(Numbers.format(Duration.ofSeconds(-1))).isEqualTo("PT-1S");
	}

	@Test
	void nanosSaturateInsteadOfOverflowing() {
		assertThat(Numbers.saturatedNanos(Duration.ofSeconds(3))).isEqualTo(3_000_000_000L);
		assertThat(Numbers.saturatedNanos(Duration.ofDays(1_000_000))).isEqualTo(Long.MAX_VALUE);
		assertThat(Numbers.saturatedNanos(Duration.ofDays(-1_000_000))).isEqualTo(Long.MIN_VALUE);
	}

	@Test
	void theJitteredOpenWaitSpansItsWholeFraction() {
		BreakerConfig config = BreakerConfig.builder().openWait(Duration.ofSeconds(30)).openWaitJitter(0.2).build();
		assertThat(TripRules.openWaitNanos(config, 1, 0.0)).isEqualTo(Duration.ofSeconds(24).toNanos());
		assertThat(TripRules.openWaitNanos(config, 1, 0.5)).isEqualTo(Duration.ofSeconds(30).toNanos());
		assertThat(TripRules.openWaitNanos(config, 1, 1.0)).isEqualTo(Duration.ofSeconds(36).toNanos());
	}

	@Test
	void theBoundariesOfEachRangeAreAllowed() {
		BreakerConfig c = BreakerConfig.builder()
			.window(Duration.ofHours(1))
			.bucket(Duration.ofSeconds(1))
			.timeoutWeight(100)
			.halfOpenMaxProbes(32)
			.build();
		assertThat(c.window()).isEqualTo(Duration.ofHours(1)); // exactly 3600 buckets
		assertThat(BreakerConfig.builder().timeoutWeight(0).halfOpenMaxProbes(1).build().timeoutWeight()).isZero();
		assertThat(new dev.breaker.core.internal.StripedCounters(16).sum(15)).isZero();
	}

}
