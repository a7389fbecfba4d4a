package dev.breaker.sample.demo;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class LatenciesTests {

	@Test
	void percentilesUseTheNearestRank() {
		Latencies latencies = new Latencies();
		for (int millis = 100; millis >= 1; millis--) {
			latencies.add(millis * 1_000_000L);
		}
		assertThat(latencies.percentileMillis(50)).isEqualTo(50.0);
		assertThat(latencies.percentileMillis(99)).isEqualTo(99.0);
		assertThat(latencies.percentileMillis(100)).isEqualTo(100.0);
	}

	@Test
	void noLatenciesHaveNoPercentile() {
		Latencies latencies = new Latencies();
		assertThat(latencies.percentileMillis(99)).isEqualTo(-1);
		assertThat(latencies.format(99, 5)).isEqualTo("    -");
	}

	@Test
	void growsPastItsInitialCapacity() {
		Latencies latencies = new Latencies();
		for (int i = 0; i < 1000; i++) {
			latencies.add(5_000_000L);
		}
		latencies.add(900_000_000L);
		assertThat(latencies.count()).isEqualTo(1001);
		assertThat(latencies.percentileMillis(99)).isEqualTo(5.0);
		assertThat(latencies.percentileMillis(100)).isEqualTo(900.0);
	}

}
