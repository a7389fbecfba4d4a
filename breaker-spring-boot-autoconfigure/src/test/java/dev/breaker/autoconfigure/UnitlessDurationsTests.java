package dev.breaker.autoconfigure;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.env.MapPropertySource;

import dev.breaker.autoconfigure.http.HttpBreakerAutoConfiguration;
import dev.breaker.core.BreakerConfig;
import dev.breaker.core.BreakerRegistry;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A duration under {@code breaker.*} written as a number alone ({@code open-wait: 30},
 * meant as 30s) would be read as milliseconds and start with a 30 ms open wait: start-up
 * stops instead, naming the property and the value and asking for a unit.
 */
class UnitlessDurationsTests {

	private static final String WRITE_A_UNIT = "a duration with its unit, such as 500ms, 30s or 5m "
			+ "(a number alone would be read as milliseconds)";

	private final ApplicationContextRunner runner = new ApplicationContextRunner().withConfiguration(AutoConfigurations
		.of(AopAutoConfiguration.class, BreakerAutoConfiguration.class, HttpBreakerAutoConfiguration.class));

	@Test
	void aDurationWithoutAUnitStopsStartUpRatherThanBeingReadAsMilliseconds() {
		this.runner.withPropertyValues("breaker.instances.payments.open-wait=30")
			.run((context) -> assertThat(StartupFailure.invalidProperty(context))
				.hasMessage("Invalid value '30' for property 'breaker.instances.payments.open-wait'; allowed: "
						+ WRITE_A_UNIT));
	}

	@Test
	void aYamlNumberForADurationStopsStartUp() {
		// YAML reads "slow-call-duration: 2" as the integer 2
		withSource(Map.of("breaker.defaults.slow-call-duration", 2))
			.run((context) -> assertThat(StartupFailure.invalidProperty(context)).hasMessage(
					"Invalid value '2' for property 'breaker.defaults.slow-call-duration'; allowed: " + WRITE_A_UNIT));
	}

	@Test
	void aListedPauseWithoutAUnitIsNamedByItsIndex() {
		this.runner.withPropertyValues("breaker.instances.search.retry.intervals=100ms,200")
			.run((context) -> assertThat(StartupFailure.invalidProperty(context))
				.hasMessage("Invalid value '200' for property 'breaker.instances.search.retry.intervals[1]'; allowed: "
						+ WRITE_A_UNIT));
	}

	@Test
	void aYamlListedPauseWithoutAUnitIsNamedByItsIndex() {
		withSource(Map.of("breaker.instances.search.retry.intervals[0]", "100ms",
				"breaker.instances.search.retry.intervals[1]", 400))
			.run((context) -> assertThat(StartupFailure.invalidProperty(context).property())
				.isEqualTo("breaker.instances.search.retry.intervals[1]"));
	}

	@Test
	void aPlaceholderThatResolvesToANumberAloneStopsStartUpNamingTheResolvedValue() {
		refusedAs("breaker.instances.payments.open-wait", "30", "breaker.instances.payments.open-wait=${WAIT}",
				"WAIT=30");
	}

	@Test
	void aPlaceholdersDefaultWithoutAUnitStopsStartUp() {
		refusedAs("breaker.defaults.slow-call-duration", "2", "breaker.defaults.slow-call-duration=${SLOW_CALL:2}");
	}

	@Test
	void aListedPauseFromAPlaceholderIsNamedByItsIndex() {
		refusedAs("breaker.instances.search.retry.intervals[1]", "200",
				"breaker.instances.search.retry.intervals=${PAUSES}", "PAUSES=100ms,200");
	}

	/** Start-up with these properties stops naming the property and the value read. */
	private void refusedAs(String property, String value, String... properties) {
		this.runner.withPropertyValues(properties)
			.run((context) -> assertThat(StartupFailure.invalidProperty(context))
				.hasMessage("Invalid value '" + value + "' for property '" + property + "'; allowed: " + WRITE_A_UNIT));
	}

	@Test
	void aPlaceholderThatResolvesToADurationWithItsUnitStarts() {
		this.runner.withPropertyValues("breaker.instances.payments.open-wait=${WAIT}", "WAIT=30s").run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(context.getBean(BreakerRegistry.class).breaker("payments").config().openWait())
				.isEqualTo(Duration.ofSeconds(30));
		});
	}

	@Test
	void theHttpBreakersDurationsNeedAUnitToo() {
		this.runner.withPropertyValues("breaker.http.idle-expiry=600")
			.run((context) -> assertThat(StartupFailure.invalidProperty(context))
				.hasMessage("Invalid value '600' for property 'breaker.http.idle-expiry'; allowed: " + WRITE_A_UNIT));
		this.runner.withPropertyValues("breaker.http.instances[stock.acme.com].open-wait=10")
			.run((context) -> assertThat(StartupFailure.invalidProperty(context).property())
				.isEqualTo("breaker.http.instances[stock.acme.com].open-wait"));
	}

	@Test
	void reportsTheMissingUnitInTheFailureAnalysis() {
		this.runner.withPropertyValues("breaker.instances.payments.open-wait=30")
			.run((context) -> assertThat(
					StartupFailure.analysis(context, new InvalidBreakerPropertyFailureAnalyzer()).getDescription())
				.isEqualTo("""
						Invalid breaker configuration:

						    Property: breaker.instances.payments.open-wait
						    Value:    '30'
						    Allowed:  %s
						""".formatted(WRITE_A_UNIT)));
	}

	@Test
	void durationsWithUnitsAndAPlainZeroStart() {
		this.runner
			.withPropertyValues("breaker.instances.payments.open-wait=30s", "breaker.instances.payments.timeout=PT5S",
					"breaker.instances.payments.retry.intervals=0,100ms")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				BreakerConfig config = context.getBean(BreakerRegistry.class).breaker("payments").config();
				assertThat(config.openWait()).isEqualTo(Duration.ofSeconds(30));
				assertThat(context.getBean(ConfiguredBreakers.class).of("payments").callPolicy().retry().intervals())
					.isEqualTo(List.of(Duration.ZERO, Duration.ofMillis(100)));
			});
	}

	private ApplicationContextRunner withSource(Map<String, Object> properties) {
		return this.runner.withInitializer((context) -> context.getEnvironment()
			.getPropertySources()
			.addFirst(new MapPropertySource("yaml", properties)));
	}

}
