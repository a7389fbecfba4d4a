package dev.breaker.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.function.Supplier;

import org.junit.jupiter.api.Test;

/**
 * {@link ChildFootprint} states what a child really allocates: never less, and at most
 * {@link ChildFootprint#SLACK_BYTES} more, from one bucket to the most a window may hold.
 */
class ChildFootprintTests {

	private static final BreakerConfig[] WINDOWS = { BreakerConfig.defaults(),
			BreakerConfig.builder().window(Duration.ofSeconds(1)).bucket(Duration.ofSeconds(1)).build(),
			BreakerConfig.builder().window(Duration.ofMinutes(1)).bucket(Duration.ofSeconds(1)).build(),
			BreakerConfig.builder().window(Duration.ofMinutes(10)).bucket(Duration.ofSeconds(1)).build(),
			BreakerConfig.builder().window(Duration.ofHours(1)).bucket(Duration.ofSeconds(1)).build() };

	@Test
	void aTenantChildThatConsultsItsParentTakesWhatTheEstimateSays() {
		for (BreakerConfig config : WINDOWS) {
			Breaker parent = Breaker.of("tenants", config);
			assertThatEstimated(config, true,
					() -> new Breaker("tenants:user-42", config, parent, "tenants", "user-42"));
		}
	}

	@Test
	void aHostChildThatRecordsItsOwnLatencyTakesWhatTheEstimateSays() {
		for (BreakerConfig config : WINDOWS) {
			assertThatEstimated(config, false,
					() -> new Breaker("http:api.acme.com", config, null, "http", "api.acme.com"));
		}
	}

	@Test
	void aChildCountingStalledCallsTakesWhatTheEstimateSays() {
		for (BreakerConfig window : WINDOWS) {
			BreakerConfig config = BreakerConfig.builder()
				.window(window.window())
				.bucket(window.bucket())
				.slowCallDuration(Duration.ofMillis(500))
				.stallCalls(5)
				.recordLatency(false)
				.build();
			assertThatEstimated(config, false,
					() -> new Breaker("http:api.acme.com", config, null, "http", "api.acme.com"));
		}
	}

	@Test
	void theCountWindowIsFourStripesOfSixLongsABucket() {
		BreakerConfig config = BreakerConfig.builder()
			.window(Duration.ofMinutes(10))
			.bucket(Duration.ofSeconds(1))
			.build();
		assertThat(ChildFootprint.windowBytes(config)).isEqualTo(16 + 8L * 4 * 600 * 6);
	}

	private static void assertThatEstimated(BreakerConfig config, boolean consultsParent, Supplier<Breaker> child) {
		long measured = settledBytes(child);
		long estimate = ChildFootprint.bytes(config, consultsParent);
		System.out.println("child of " + Numbers.format(config.window()) + "/" + Numbers.format(config.bucket())
				+ (consultsParent ? ", consulting its parent" : "") + (config.stallCalls() > 0 ? ", stall calls" : "")
				+ ": measured " + measured + " bytes, estimated " + estimate);
		assertThat(estimate).as("estimate of a child of %s/%s, measured %d", config.window(), config.bucket(), measured)
			.isBetween(measured, measured + ChildFootprint.SLACK_BYTES);
	}

	/** The least bytes one construction allocated, once the JIT has settled. */
	private static long settledBytes(Supplier<Breaker> construction) {
		return Allocations.settledBytes(construction, 30, 300);
	}

}
