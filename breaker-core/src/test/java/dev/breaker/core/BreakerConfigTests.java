package dev.breaker.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import java.util.stream.Stream;

/**
 * Every bad value is rejected in build() with a message naming the setting, the value and
 * what is allowed.
 */
class BreakerConfigTests {

	@Test
	void defaultsAreTheDocumentedOnes() {
		BreakerConfig c = BreakerConfig.defaults();
		assertThat(c.window()).isEqualTo(Duration.ofSeconds(10));
		assertThat(c.bucket()).isEqualTo(Duration.ofSeconds(1));
		assertThat(c.consecutiveFailures()).isEqualTo(5);
		assertThat(c.failureRateThreshold()).isEqualTo(50);
		assertThat(c.minimumCalls()).isEqualTo(20);
		assertThat(c.slowCallDuration()).isEqualTo(Duration.ofSeconds(2));
		assertThat(c.slowCallRateThreshold()).isZero();
		assertThat(c.stallCalls()).isZero();
		assertThat(c.timeoutWeight()).isEqualTo(1);
		assertThat(c.openWait()).isEqualTo(Duration.ofSeconds(30));
		assertThat(c.openWaitMultiplier()).isEqualTo(2);
		assertThat(c.maxOpenWait()).isEqualTo(Duration.ofMinutes(5));
		assertThat(c.openWaitJitter()).isEqualTo(0.2);
		assertThat(c.halfOpenMaxProbes()).isEqualTo(10);
		assertThat(c.halfOpenSuccessesToClose()).isEqualTo(5);
		assertThat(c.halfOpenFailuresToReopen()).isEqualTo(3);
		assertThat(c.halfOpenMaxWait()).isEqualTo(Duration.ofMinutes(1));
		assertThat(c.halfOpenMaxProbesAuto()).isFalse();
		assertThat(c.minimumCallsRatio()).isZero();
		assertThat(c.retryBudgetRatio()).isEqualTo(0.2);
		assertThat(c.retryBudgetMinPerSecond()).isEqualTo(10);
		assertThat(c.classifier()).isSameAs(OutcomeClassifier.defaults());
		assertThat(c.ticker()).isSameAs(Ticker.cached());
	}

	@Test
	void toBuilderKeepsEverySetting() {
		BreakerConfig c = BreakerConfig.builder()
			.consecutiveFailures(3)
			.openWait(Duration.ofSeconds(5))
			.recordLatency(false)
			.build();
		BreakerConfig copy = c.toBuilder().build();
		assertThat(copy.toString()).isEqualTo(c.toString());
	}

	static Stream<Arguments> badValues() {
		return Stream.of(
				bad(b -> b.failureRateThreshold(120),
						"'failureRateThreshold' must be in (0, 100] (or 0 to turn the rule off) but was 120"),
				bad(b -> b.failureRateThreshold(-1),
						"'failureRateThreshold' must be in (0, 100] (or 0 to turn the rule off) but was -1"),
				bad(b -> b.slowCallRateThreshold(100.5),
						"'slowCallRateThreshold' must be in (0, 100] (or 0 to turn the rule off) but was 100.5"),
				bad(b -> b.window(Duration.ofMillis(2500)),
						"'window' must be a whole multiple of 'bucket' (1s) but was 2.5s"),
				bad(b -> b.window(Duration.ofSeconds(-1)), "'window' must be a positive duration but was PT-1S"),
				bad(b -> b.window(Duration.ofHours(2)), "'window' must be at most 3600 buckets of 1s but was 2h"),
				bad(b -> b.bucket(Duration.ofNanos(10)), "'bucket' must be at least 1ms but was 10ns"),
				bad(b -> b.consecutiveFailures(-1),
						"'consecutiveFailures' must be at least 0 (0 turns the rule off) but was -1"),
				bad(b -> b.minimumCalls(0), "'minimumCalls' must be at least 1 but was 0"),
				bad(b -> b.slowCallDuration(Duration.ZERO),
						"'slowCallDuration' must be a positive duration but was 0ms"),
				bad(b -> b.stallCalls(-2), "'stallCalls' must be at least 0 (0 turns the rule off) but was -2"),
				bad(b -> b.stallCalls(3).slowCallDuration(Duration.ofSeconds(11)),
						"'slowCallDuration' must be at most 'window' (10s) when 'stallCalls' is on but was 11s"),
				bad(b -> b.timeoutWeight(101), "'timeoutWeight' must be in [0, 100] but was 101"),
				bad(b -> b.openWait(null), "'openWait' must be a positive duration but was null"),
				bad(b -> b.openWaitMultiplier(0.5), "'openWaitMultiplier' must be in [1, 1000] but was 0.5"),
				bad(b -> b.maxOpenWait(Duration.ofSeconds(10)),
						"'maxOpenWait' must be at least 'openWait' (30s) but was 10s"),
				bad(b -> b.openWaitJitter(1), "'openWaitJitter' must be in [0, 1) but was 1"),
				bad(b -> b.halfOpenMaxProbes(33), "'halfOpenMaxProbes' must be in [1, 32] but was 33"),
				bad(b -> b.halfOpenMaxProbes(0), "'halfOpenMaxProbes' must be in [1, 32] but was 0"),
				bad(b -> b.halfOpenSuccessesToClose(0), "'halfOpenSuccessesToClose' must be at least 1 but was 0"),
				bad(b -> b.halfOpenFailuresToReopen(0), "'halfOpenFailuresToReopen' must be at least 1 but was 0"),
				bad(b -> b.halfOpenMaxWait(Duration.ofSeconds(-5)),
						"'halfOpenMaxWait' must be a positive duration but was PT-5S"),
				bad(b -> b.classifier(null), "'classifier' must be set but was null"),
				bad(b -> b.ticker(null), "'ticker' must be set but was null"),
				bad(b -> b.clock(null), "'clock' must be set but was null"),
				// the value exactly as given, never rounded
				bad(b -> b.openWaitMultiplier(0.99), "'openWaitMultiplier' must be in [1, 1000] but was 0.99"),
				bad(b -> b.failureRateThreshold(100.04),
						"'failureRateThreshold' must be in (0, 100] (or 0 to turn the rule off) but was 100.04"),
				bad(b -> b.timeoutWeight(100.0000001), "'timeoutWeight' must be in [0, 100] but was 100.0000001"),
				bad(b -> b.openWaitJitter(-0.0001), "'openWaitJitter' must be in [0, 1) but was -0.0001"),
				bad(b -> b.bucket(Duration.ofNanos(1_000_001)),
						"'window' must be a whole multiple of 'bucket' (1.000001ms) but was 10s"),
				bad(b -> b.bucket(Duration.ofNanos(999_999)), "'bucket' must be at least 1ms but was 999999ns"),
				bad(b -> b.window(Duration.ofMillis(10_001)).bucket(Duration.ofMillis(2)),
						"'window' must be a whole multiple of 'bucket' (2ms) but was 10.001s"),
				bad(b -> b.openWait(Duration.ofMinutes(2).plusNanos(5)).maxOpenWait(Duration.ofMinutes(2)),
						"'maxOpenWait' must be at least 'openWait' (2m0.000000005s) but was 2m"),
				bad(b -> b.slowCallRateThreshold(Double.NaN),
						"'slowCallRateThreshold' must be in (0, 100] (or 0 to turn the rule off) but was NaN"),
				bad(b -> b.failureRateThreshold(1e300),
						"'failureRateThreshold' must be in (0, 100] (or 0 to turn the rule off) but was 1.0E300"),
				// the retry budget and the thresholds that follow traffic
				bad(b -> b.retryBudgetRatio(-0.1), "'retryBudgetRatio' must be in [0, 1000] but was -0.1"),
				bad(b -> b.retryBudgetRatio(1000.5), "'retryBudgetRatio' must be in [0, 1000] but was 1000.5"),
				bad(b -> b.retryBudgetRatio(Double.NaN), "'retryBudgetRatio' must be in [0, 1000] but was NaN"),
				bad(b -> b.retryBudgetMinPerSecond(-1), "'retryBudgetMinPerSecond' must be in [0, 1000000] but was -1"),
				bad(b -> b.retryBudgetMinPerSecond(Double.POSITIVE_INFINITY),
						"'retryBudgetMinPerSecond' must be in [0, 1000000] but was Infinity"),
				bad(b -> b.minimumCallsRatio(1), "'minimumCallsRatio' must be in [0, 1) but was 1"),
				bad(b -> b.minimumCallsRatio(-0.5), "'minimumCallsRatio' must be in [0, 1) but was -0.5"),
				bad(b -> b.minimumCallsRatio(Double.NaN), "'minimumCallsRatio' must be in [0, 1) but was NaN"));
	}

	private static Arguments bad(UnaryOperator<BreakerConfig.Builder> setting, String message) {
		return Arguments.of(setting, message);
	}

	@ParameterizedTest(name = "{1}")
	@MethodSource("badValues")
	void rejectsABadValueNamingTheSettingTheValueAndTheRange(UnaryOperator<BreakerConfig.Builder> setting,
			String message) {
		assertThatThrownBy(() -> setting.apply(BreakerConfig.builder()).build())
			.isInstanceOf(InvalidBreakerConfigException.class)
			.isInstanceOf(IllegalArgumentException.class)
			.hasMessage(message);
	}

	@Test
	void theExceptionCarriesSettingValueAndAllowedRange() {
		assertThatThrownBy(() -> BreakerConfig.builder().failureRateThreshold(120).build())
			.isInstanceOfSatisfying(InvalidBreakerConfigException.class, e -> {
				assertThat(e.setting()).isEqualTo("failureRateThreshold");
				assertThat(e.value()).isEqualTo(120.0);
				assertThat(e.allowed()).isEqualTo("(0, 100], or 0 to turn the rule off");
			});
	}

	@Test
	void theEdgesOfTheNewRangesAreAllowed() {
		BreakerConfig low = BreakerConfig.builder()
			.retryBudgetRatio(0)
			.retryBudgetMinPerSecond(0)
			.minimumCallsRatio(0)
			.build();
		assertThat(low.retryBudgetRatio()).isZero();
		assertThat(low.retryBudgetMinPerSecond()).isZero();
		BreakerConfig high = BreakerConfig.builder()
			.retryBudgetRatio(1000)
			.retryBudgetMinPerSecond(1_000_000)
			.minimumCallsRatio(0.999)
			.build();
		assertThat(high.retryBudgetRatio()).isEqualTo(1000);
		assertThat(high.retryBudgetMinPerSecond()).isEqualTo(1_000_000);
		assertThat(high.minimumCallsRatio()).isEqualTo(0.999);
	}

	@Test
	void autoProbesAllowUpToThirtyTwoAndASetNumberTurnsAutoOff() {
		BreakerConfig auto = BreakerConfig.builder().halfOpenMaxProbesAuto().build();
		assertThat(auto.halfOpenMaxProbesAuto()).isTrue();
		assertThat(auto.halfOpenMaxProbes()).isEqualTo(32);
		assertThat(auto.toBuilder().build().halfOpenMaxProbesAuto()).isTrue();
		BreakerConfig fixed = auto.toBuilder().halfOpenMaxProbes(4).build();
		assertThat(fixed.halfOpenMaxProbesAuto()).isFalse();
		assertThat(fixed.halfOpenMaxProbes()).isEqualTo(4);
		assertThat(auto.toString()).contains("halfOpenMaxProbes=auto");
	}

	@Test
	void toBuilderKeepsTheNewSettings() {
		BreakerConfig c = BreakerConfig.builder()
			.retryBudgetRatio(0.5)
			.retryBudgetMinPerSecond(2)
			.minimumCallsRatio(0.25)
			.halfOpenMaxProbesAuto()
			.build();
		BreakerConfig copy = c.toBuilder().build();
		assertThat(copy.retryBudgetRatio()).isEqualTo(0.5);
		assertThat(copy.retryBudgetMinPerSecond()).isEqualTo(2);
		assertThat(copy.minimumCallsRatio()).isEqualTo(0.25);
		assertThat(copy.halfOpenMaxProbesAuto()).isTrue();
	}

	@Test
	void zeroTurnsARuleOff() {
		BreakerConfig c = BreakerConfig.builder().failureRateThreshold(0).consecutiveFailures(0).build();
		assertThat(c.failureRateThreshold()).isZero();
		assertThat(c.consecutiveFailures()).isZero();
	}

}
