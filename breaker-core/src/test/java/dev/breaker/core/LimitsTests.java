package dev.breaker.core;

import dev.breaker.core.spi.SharedStateHooks;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Every duration has a documented maximum, and no value or time overflows anywhere. */
class LimitsTests {

	private static final Duration HUGE = Duration.ofDays(1_000_000);

	private final Fixture fixture = new Fixture();

	static Stream<Arguments> tooLong() {
		return Stream.of(bad(b -> b.window(HUGE), "'window' must be at most 24h but was 24000000h"),
				bad(b -> b.window(Duration.ofSeconds(Long.MAX_VALUE)),
						"'window' must be at most 24h but was 2562047788015215h30m7s"),
				bad(b -> b.window(Duration.ofHours(24).plusNanos(1)),
						"'window' must be at most 24h but was 24h0.000000001s"),
				bad(b -> b.bucket(HUGE), "'bucket' must be at most 1h but was 24000000h"),
				bad(b -> b.bucket(Duration.ofHours(2)).window(Duration.ofHours(4)),
						"'bucket' must be at most 1h but was 2h"),
				bad(b -> b.slowCallDuration(HUGE), "'slowCallDuration' must be at most 24h but was 24000000h"),
				bad(b -> b.openWait(HUGE), "'openWait' must be at most 24h but was 24000000h"),
				bad(b -> b.maxOpenWait(HUGE), "'maxOpenWait' must be at most 24h but was 24000000h"),
				bad(b -> b.halfOpenMaxWait(HUGE), "'halfOpenMaxWait' must be at most 24h but was 24000000h"));
	}

	private static Arguments bad(UnaryOperator<BreakerConfig.Builder> setting, String message) {
		return Arguments.of(setting, message);
	}

	@ParameterizedTest(name = "{1}")
	@MethodSource("tooLong")
	void everyDurationHasAMaximumCheckedInBuild(UnaryOperator<BreakerConfig.Builder> setting, String message) {
		assertThatThrownBy(() -> setting.apply(BreakerConfig.builder()).build())
			.isInstanceOf(InvalidBreakerConfigException.class)
			.hasMessage(message);
	}

	@Test
	void theMaximaThemselvesAreAllowedAndABreakerRunsWithThem() throws Exception {
		Breaker breaker = fixture.breaker(c -> c.bucket(Duration.ofHours(1))
			.window(Duration.ofHours(24))
			.slowCallDuration(Duration.ofHours(24))
			.openWait(Duration.ofHours(24))
			.maxOpenWait(Duration.ofHours(24))
			.halfOpenMaxWait(Duration.ofHours(24))
			.openWaitMultiplier(1000)
			.consecutiveFailures(1)
			.stallCalls(1)
			.halfOpenSuccessesToClose(1));
		assertThatThrownBy(() -> breaker.call(() -> {
			throw new IOException("down");
		})).isInstanceOf(IOException.class);
		assertThat(breaker.state()).isEqualTo(State.OPEN);
		assertThat(breaker.snapshot().openUntil()).isEqualTo(Fixture.EPOCH.plus(Duration.ofHours(24)));
		fixture.advance(Duration.ofHours(24));
		assertThat(breaker.call(() -> "probe")).isEqualTo("probe");
		assertThat(breaker.state()).isEqualTo(State.CLOSED);
	}

	@Test
	void aRetryAfterHintIsClampedToMaxOpenWait() {
		Breaker breaker = fixture.breaker(c -> c.consecutiveFailures(1).maxOpenWait(Duration.ofMinutes(5)));
		Fixture.fail(breaker, 1);
		breaker.retryAfter(HUGE);
		assertThat(breaker.snapshot().openUntil()).isEqualTo(Fixture.EPOCH.plus(Duration.ofMinutes(5)));
		fixture.advance(Duration.ofMinutes(5));
		assertThat(breaker.state()).isEqualTo(State.HALF_OPEN);
	}

	@Test
	void aRetryAfterHintBeforeATripIsClampedToMaxOpenWait() {
		Breaker breaker = fixture.breaker(c -> c.consecutiveFailures(1).maxOpenWait(Duration.ofMinutes(5)));
		breaker.retryAfter(Duration.ofSeconds(Long.MAX_VALUE));
		Fixture.fail(breaker, 1);
		assertThat(breaker.snapshot().openUntil()).isEqualTo(Fixture.EPOCH.plus(Duration.ofMinutes(5)));
	}

	@Test
	void aPeerOpenIsClampedToMaxOpenWait() {
		Breaker breaker = fixture.breaker(c -> c.maxOpenWait(Duration.ofMinutes(5)));
		SharedStateHooks.openFromPeer(breaker, HUGE, "peer");
		assertThat(breaker.snapshot().openUntil()).isEqualTo(Fixture.EPOCH.plus(Duration.ofMinutes(5)));
		fixture.advance(Duration.ofMinutes(5));
		assertThat(breaker.state()).isEqualTo(State.HALF_OPEN);
	}

	@Test
	void aNegativePeerOpenTimeOpensForTheShortestTime() {
		Breaker breaker = fixture.breaker(c -> c);
		SharedStateHooks.openFromPeer(breaker, Duration.ofSeconds(-5), "peer");
		fixture.advance(Duration.ofNanos(1));
		assertThat(breaker.state()).isEqualTo(State.HALF_OPEN);
	}

	@Test
	void aChildrenIdleExpiryHasAMaximum() {
		assertThatThrownBy(() -> new BreakerRegistry.Children(1, HUGE, false))
			.isInstanceOf(InvalidBreakerConfigException.class)
			.hasMessage("'idleExpiry' must be at most 168h but was 24000000h");
		BreakerRegistry registry = BreakerRegistry.builder()
			.defaults(fixture.config().build())
			.children("tenants", new BreakerRegistry.Children(2, Duration.ofHours(168), false))
			.build();
		assertThat(registry.breaker("tenants", "a").name()).isEqualTo("tenants:a");
		fixture.advance(Duration.ofHours(168));
		assertThat(registry.breaker("tenants", "b").name()).isEqualTo("tenants:b");
		assertThat(registry.children("tenants")).extracting(Breaker::key).containsExactly("b");
	}

	/**
	 * The worst values a caller or a clock can hand the engine: nothing but documented
	 * exceptions comes back.
	 */
	@Test
	void noHostileTimeOrElapsedValueThrowsFromTheCallPath() {
		long[] times = { 0, 1, Long.MAX_VALUE / 2, Long.MAX_VALUE - 1, Long.MIN_VALUE / 2 };
		long[] elapsed = { 0, -1, Long.MIN_VALUE, Long.MAX_VALUE, 1L << 62 };
		for (long start : times) {
			ManualTicker ticker = new ManualTicker();
			ticker.set(start);
			Breaker breaker = Breaker.of("hostile",
					BreakerConfig.builder()
						.ticker(ticker)
						.consecutiveFailures(2)
						.stallCalls(1)
						.slowCallRateThreshold(50)
						.minimumCalls(1)
						.halfOpenSuccessesToClose(1)
						.bucket(Duration.ofMillis(1))
						.window(Duration.ofSeconds(3))
						.slowCallDuration(Duration.ofSeconds(1))
						.maxOpenWait(Duration.ofHours(24))
						.build());
			BreakerRegistry registry = BreakerRegistry.builder()
				.defaults(breaker.config())
				.children("t", new BreakerRegistry.Children(2, Duration.ofHours(168), true))
				.build();
			assertThatCode(() -> {
				for (int round = 0; round < 3; round++) {
					for (long e : elapsed) {
						for (Outcome outcome : Outcome.values()) {
							for (Breaker b : List.of(breaker, registry.breaker("t", "k" + (e & 3)))) {
								Permit p = b.acquire();
								b.release(p, outcome, e);
								b.state();
								b.snapshot();
							}
						}
						breaker.retryAfter(Duration.ofSeconds(Long.MAX_VALUE));
						SharedStateHooks.openFromPeer(breaker, Duration.ofSeconds(Long.MAX_VALUE), "peer");
						SharedStateHooks.openFromPeer(breaker, Duration.ofSeconds(Long.MIN_VALUE), "peer");
						ticker.advanceNanos(Long.MAX_VALUE / 8);
					}
					breaker.halfOpen();
				}
			}).as("ticker starting at %d", start).doesNotThrowAnyException();
		}
	}

}
