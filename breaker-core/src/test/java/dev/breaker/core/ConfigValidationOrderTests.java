package dev.breaker.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Which bad setting {@code build()} reports when several are bad: the first in a fixed
 * order, the rules that tie two settings together at their own places in it.
 */
class ConfigValidationOrderTests {

	@Test
	void reportsTheBadSettingsOneAtATimeInTheirFixedOrder() {
		BreakerConfig.Builder builder = BreakerConfig.builder()
			.bucket(Duration.ZERO)
			.window(Duration.ZERO)
			.consecutiveFailures(-1)
			.failureRateThreshold(101)
			.minimumCalls(0)
			.minimumCallsRatio(2)
			.slowCallDuration(Duration.ofHours(25))
			.slowCallRateThreshold(101)
			.stallCalls(-1)
			.timeoutWeight(-1)
			.openWait(Duration.ZERO)
			.openWaitMultiplier(0.5)
			.maxOpenWait(null)
			.openWaitJitter(2)
			.halfOpenMaxProbes(0)
			.halfOpenSuccessesToClose(0)
			.halfOpenFailuresToReopen(0)
			.halfOpenMaxWait(Duration.ZERO)
			.retryBudgetRatio(-1)
			.retryBudgetMinPerSecond(-1)
			.classifier(null)
			.ticker(null)
			.clock(null);
		List<String> reported = new ArrayList<>();
		for (InvalidBreakerConfigException e = firstError(builder); e != null; e = firstError(builder)) {
			reported.add(e.setting() + ": " + e.allowed());
			repair(builder, e.setting());
		}
		assertThat(reported).containsExactly("bucket: at least 1ms", "window: a positive duration",
				"consecutiveFailures: >= 0 (0 turns the rule off)",
				"failureRateThreshold: (0, 100], or 0 to turn the rule off", "minimumCalls: >= 1",
				"minimumCallsRatio: [0, 1) (0 turns it off)", "slowCallDuration: at most 24h",
				"slowCallRateThreshold: (0, 100], or 0 to turn the rule off", "stallCalls: >= 0 (0 turns the rule off)",
				"timeoutWeight: [0, 100]", "openWait: a positive duration", "openWaitMultiplier: [1, 1000]",
				"maxOpenWait: at least 'openWait' (30s)", "openWaitJitter: [0, 1)", "halfOpenMaxProbes: [1, 32]",
				"halfOpenSuccessesToClose: >= 1", "halfOpenFailuresToReopen: >= 1",
				"halfOpenMaxWait: a positive duration", "retryBudgetRatio: [0, 1000]",
				"retryBudgetMinPerSecond: [0, 1000000]", "classifier: not null", "ticker: not null", "clock: not null");
	}

	@Test
	void aWindowOfPartBucketsIsReportedRightAfterTheWindowsRange() {
		BreakerConfig.Builder builder = BreakerConfig.builder()
			.window(Duration.ofMillis(10_500))
			.consecutiveFailures(-1);
		assertThat(firstError(builder).setting()).isEqualTo("window");
	}

	@Test
	void aStallRuleLongerThanTheWindowIsReportedRightAfterTheStallCalls() {
		BreakerConfig.Builder builder = BreakerConfig.builder()
			.stallCalls(1)
			.slowCallDuration(Duration.ofSeconds(20))
			.timeoutWeight(-1);
		assertThat(firstError(builder).setting()).isEqualTo("slowCallDuration");
		assertThat(firstError(builder.minimumCalls(0)).setting()).as("an earlier bad setting comes first")
			.isEqualTo("minimumCalls");
	}

	@Test
	void aMaxOpenWaitBelowTheOpenWaitIsReportedAfterTheMultiplierAndBeforeItsOwnRange() {
		assertThat(firstError(BreakerConfig.builder().openWaitMultiplier(0.5).maxOpenWait(Duration.ZERO)).setting())
			.isEqualTo("openWaitMultiplier");
		assertThat(firstError(BreakerConfig.builder().maxOpenWait(Duration.ZERO)).allowed())
			.isEqualTo("at least 'openWait' (30s)");
	}

	private static InvalidBreakerConfigException firstError(BreakerConfig.Builder builder) {
		return catchThrowableOfType(InvalidBreakerConfigException.class, builder::build);
	}

	private static void repair(BreakerConfig.Builder builder, String setting) {
		switch (setting) {
			case "classifier" -> builder.classifier(OutcomeClassifier.defaults());
			case "ticker" -> builder.ticker(Ticker.cached());
			case "clock" -> builder.clock(Clock.systemUTC());
			default -> {
				BreakerSetting bad = BreakerSetting.of(BreakerSetting.Scope.ENGINE)
					.stream()
					.filter((s) -> s.settingName().equals(setting))
					.findFirst()
					.orElseThrow();
				bad.write(builder, bad.defaultValue());
			}
		}
	}

}
