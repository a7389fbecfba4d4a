package dev.breaker.core;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A duration written back as a Spring Boot property value: one unit, exact, as a user
 * types it.
 */
class NumbersAsPropertyTests {

	@Test
	void aDurationReadsInTheLargestUnitThatStatesItExactly() {
		assertThat(Numbers.asProperty(Duration.ZERO)).isEqualTo("0s");
		assertThat(Numbers.asProperty(Duration.ofSeconds(-1))).isEqualTo("-1s");
		assertThat(Numbers.asProperty(Duration.ofMillis(-200))).isEqualTo("-200ms");
		assertThat(Numbers.asProperty(Duration.ofSeconds(90))).isEqualTo("90s");
		assertThat(Numbers.asProperty(Duration.ofMillis(1500))).isEqualTo("1500ms");
		assertThat(Numbers.asProperty(Duration.ofMinutes(5))).isEqualTo("5m");
		assertThat(Numbers.asProperty(Duration.ofHours(2))).isEqualTo("2h");
		assertThat(Numbers.asProperty(Duration.ofNanos(10))).isEqualTo("10ns");
	}

	@Test
	void aDurationTooLongForNanosecondsReadsAsIso8601() {
		assertThat(Numbers.asProperty(Duration.ofHours(2_400_000_000L))).isEqualTo("PT2400000000H");
	}

}
