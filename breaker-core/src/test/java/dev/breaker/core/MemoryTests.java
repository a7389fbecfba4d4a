package dev.breaker.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * A breaker is small, and a registry stays within its bound whatever keys it is given.
 */
class MemoryTests {

	/**
	 * Latency costs about 6.6 KiB: 116 int counts per bucket of the window (10 buckets),
	 * the 116 long totals behind the cumulative histogram, and 16 long buckets per
	 * outcome for metrics.
	 */
	@Test
	void aBreakerWithTheDefaultWindowTakesAtMostElevenKibibytes() {
		long bytes = constructionBytes(BreakerConfig.defaults());
		System.out.println("bytes allocated constructing one breaker with the default window: " + bytes);
		assertThat(bytes).isLessThanOrEqualTo(11 * 1024);
	}

	@Test
	void aBreakerWithTheDefaultWindowAndNoLatencyTakesAtMostFourKibibytes() {
		long bytes = constructionBytes(BreakerConfig.builder().recordLatency(false).build());
		System.out.println("bytes allocated constructing one breaker with the default window, no latency: " + bytes);
		assertThat(bytes).isLessThanOrEqualTo(4096);
	}

	@Test
	void aChildThatConsultsItsParentTakesAtMostFourKibibytes() {
		BreakerRegistry registry = BreakerRegistry.builder()
			.children("tenants", new BreakerRegistry.Children(100_000, Duration.ofMinutes(10), true))
			.build();
		Breaker parent = registry.breaker("tenants");
		for (int i = 0; i < 10_000; i++) {
			new Breaker("warm-up:" + i, parent.config(), parent, "tenants", "k");
		}
		Breaker[] keep = new Breaker[1];
		long bytes = Allocations
			.of(() -> keep[0] = new Breaker("tenants:user-42", parent.config(), parent, "tenants", "user-42"));
		System.out.println("bytes allocated constructing one tenant child: " + bytes);
		assertThat(bytes).isLessThanOrEqualTo(4096);
		assertThat(keep[0].state()).isEqualTo(State.CLOSED);
	}

	/** Bytes allocated constructing one breaker with {@code config}, after warm-up. */
	private static long constructionBytes(BreakerConfig config) {
		for (int i = 0; i < 10_000; i++) {
			Breaker.of("warm-up", config);
		}
		Breaker[] keep = new Breaker[1];
		long bytes = Allocations.of(() -> keep[0] = Breaker.of("payments", config));
		assertThat(keep[0].state()).isEqualTo(State.CLOSED);
		return bytes;
	}

	@Test
	void aRegistryKeepsAtMostMaxEntriesChildrenAfterAMillionDistinctKeys() {
		int max = 1000;
		ManualTicker ticker = new ManualTicker();
		BreakerRegistry registry = BreakerRegistry.builder()
			.defaults(BreakerConfig.builder().ticker(ticker).build())
			.children("tenants", new BreakerRegistry.Children(max, Duration.ofMinutes(10), false))
			.build();
		AtomicLong removed = new AtomicLong();
		registry.onRemoved(b -> removed.incrementAndGet());
		for (int i = 0; i < 1_000_000; i++) {
			registry.breaker("tenants", "user-" + i);
		}
		assertThat(registry.children("tenants")).hasSize(max);
		assertThat(removed.get()).isEqualTo(1_000_000 - max);
		assertThat(registry.find("tenants:user-999999")).isPresent();
		assertThat(registry.find("tenants:user-0")).isEmpty();
	}

}
