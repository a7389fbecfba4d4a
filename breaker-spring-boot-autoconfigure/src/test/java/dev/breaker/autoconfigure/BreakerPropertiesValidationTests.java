package dev.breaker.autoconfigure;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.beans.factory.BeanCreationException;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.ContextConsumer;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Configuration;

import dev.breaker.core.BreakerRegistry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Every kind of bad {@code breaker.*} value stops start-up with a message naming the
 * property, the value and what is allowed.
 */
@ExtendWith(OutputCaptureExtension.class)
class BreakerPropertiesValidationTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, BreakerAutoConfiguration.class));

	@Test
	void rejectsAPercentageAboveHundred() {
		this.runner.withPropertyValues("breaker.instances.payments.failure-rate-threshold=120")
			.run(failsWith("Invalid value '120' for property 'breaker.instances.payments.failure-rate-threshold'; "
					+ "allowed: (0, 100], or 0 to turn the rule off"));
	}

	@Test
	void namesTheDefaultsWhenTheBadValueIsInherited() {
		this.runner
			.withPropertyValues("breaker.defaults.slow-call-rate-threshold=-5",
					"breaker.instances.payments.consecutive-failures=3")
			.run(failsWith("Invalid value '-5' for property 'breaker.defaults.slow-call-rate-threshold'; "
					+ "allowed: (0, 100], or 0 to turn the rule off"));
	}

	@Test
	void rejectsANegativeDuration() {
		this.runner.withPropertyValues("breaker.instances.payments.open-wait=-1s")
			.run(failsWith(
					"Invalid value '-1s' for property 'breaker.instances.payments.open-wait'; allowed: a positive duration"));
	}

	@Test
	void rejectsAnOutOfRangeHalfOpenSetting() {
		this.runner.withPropertyValues("breaker.instances.payments.half-open.max-probes=64")
			.run(failsWith("Invalid value '64' for property 'breaker.instances.payments.half-open.max-probes'; "
					+ "allowed: [1, 32]"));
	}

	@Test
	void rejectsAMaxOpenWaitBelowTheOpenWait() {
		this.runner.withPropertyValues("breaker.instances.payments.open-wait=10m")
			.run(failsWith("Invalid value '5m' for property 'breaker.instances.payments.max-open-wait'; "
					+ "allowed: at least 'openWait' (10m)"));
	}

	@Test
	void rejectsAnIgnoredExceptionThatIsNotOnTheClasspath() {
		this.runner
			.withPropertyValues("breaker.instances.payments.ignore-exceptions=java.lang.IllegalStateException,"
					+ "com.acme.InvalidOrderException")
			.run(failsWith("Invalid value 'com.acme.InvalidOrderException' for property "
					+ "'breaker.instances.payments.ignore-exceptions[1]'; "
					+ "allowed: the fully qualified name of an exception class on the classpath"));
	}

	@Test
	void rejectsARecordedExceptionThatIsNotAThrowable() {
		this.runner.withPropertyValues("breaker.defaults.record-exceptions=java.lang.String")
			.run(failsWith("Invalid value 'java.lang.String' for property 'breaker.defaults.record-exceptions[0]'; "
					+ "allowed: a subclass of java.lang.Throwable"));
	}

	@Test
	void rejectsANegativeTimeout() {
		this.runner.withPropertyValues("breaker.instances.search.timeout=-200ms")
			.run(failsWith("Invalid value '-200ms' for property 'breaker.instances.search.timeout'; "
					+ "allowed: a positive duration, or unset for no timeout"));
	}

	@Test
	void rejectsATimeoutLongerThanADayWhichTheSchedulersCannotCountInNanoseconds() {
		this.runner.withPropertyValues("breaker.instances.search.timeout=200000d")
			.run(failsWith("Invalid value 'PT4800000H' for property 'breaker.instances.search.timeout'; "
					+ "allowed: at most 24h"));
	}

	@Test
	void rejectsATimeoutOfADayAndASecondButTakesADay() {
		this.runner.withPropertyValues("breaker.defaults.timeout=86401s")
			.run(failsWith("Invalid value '86401s' for property 'breaker.defaults.timeout'; allowed: at most 24h"));
		this.runner.withPropertyValues("breaker.defaults.timeout=24h")
			.run((context) -> assertThat(context).hasNotFailed());
	}

	@Test
	void rejectsARetryJitterAboveOne() {
		this.runner.withPropertyValues("breaker.instances.search.retry.jitter=1.5")
			.run(failsWith("Invalid value '1.5' for property 'breaker.instances.search.retry.jitter'; "
					+ "allowed: a fraction in [0, 1]"));
	}

	@Test
	void rejectsANegativeRetryInterval() {
		this.runner.withPropertyValues("breaker.instances.search.retry.intervals=100ms,-1s")
			.run(failsWith("Invalid value '-1s' for property 'breaker.instances.search.retry.intervals[1]'; "
					+ "allowed: a duration from 0 to 24h"));
	}

	@Test
	void rejectsRetryingOnSuccessNamingTheValueAsTyped() {
		this.runner.withPropertyValues("breaker.instances.search.retry.on=failure,success")
			.run(failsWith("Invalid value 'success' for property 'breaker.instances.search.retry.on[1]'; "
					+ "allowed: failure, timeout or throttled"));
	}

	@Test
	void rejectsRetryingOnSuccessInAYamlList() {
		this.runner
			.withPropertyValues("breaker.instances.search.retry.on[0]=timeout",
					"breaker.instances.search.retry.on[1]=Success")
			.run(failsWith("Invalid value 'Success' for property 'breaker.instances.search.retry.on[1]'; "
					+ "allowed: failure, timeout or throttled"));
	}

	@Test
	void rejectsAnOutcomeThatDoesNotExistListingOnlyTheOutcomesThatRetry() {
		this.runner.withPropertyValues("breaker.instances.search.retry.on[0]=bogus")
			.run(failsWith("Invalid value 'bogus' for property 'breaker.instances.search.retry.on[0]'; "
					+ "allowed: failure, timeout or throttled"));
	}

	@Test
	void rejectsAnOutcomeThatDoesNotExistInACommaSeparatedList() {
		this.runner.withPropertyValues("breaker.defaults.retry.on=failure, timeout,bogus")
			.run(failsWith("Invalid value 'bogus' for property 'breaker.defaults.retry.on[2]'; "
					+ "allowed: failure, timeout or throttled"));
	}

	@Test
	void rejectsAnOpenHealthThatDoesNotExist() {
		this.runner.withPropertyValues("breaker.instances.payments.health-when-open=sideways")
			.run(failsWith("Invalid value 'sideways' for property 'breaker.instances.payments.health-when-open'; "
					+ "allowed: up, out-of-service or down"));
	}

	@Test
	void reportsTheValueAPlaceholderResolvedTo() {
		this.runner
			.withPropertyValues("breaker.instances.payments.health-when-open=${OPEN_HEALTH}", "OPEN_HEALTH=sideways")
			.run(failsWith("Invalid value 'sideways' for property 'breaker.instances.payments.health-when-open'; "
					+ "allowed: up, out-of-service or down"));
	}

	@Test
	void rejectsAStatusOutcomeThatDoesNotExistEvenWithoutTheHttpClients() {
		this.runner.withPropertyValues("breaker.http.instances[stock.acme.com].status-outcomes.404=fine")
			.run(failsWith("Invalid value 'fine' for property "
					+ "'breaker.http.instances[stock.acme.com].status-outcomes.404'; "
					+ "allowed: success, failure, timeout, ignored or throttled"));
	}

	@Test
	void reportsABadEnumValueWithBreakersOwnAnalysis() {
		this.runner.withPropertyValues("breaker.instances.payments.health-when-open=sideways").run((context) -> {
			FailureAnalysis analysis = StartupFailure.analysis(context, new InvalidBreakerPropertyFailureAnalyzer());
			assertThat(analysis.getDescription()).isEqualTo("""
					Invalid breaker configuration:

					    Property: breaker.instances.payments.health-when-open
					    Value:    'sideways'
					    Allowed:  up, out-of-service or down
					""");
		});
	}

	@Test
	void breakersAnalysisComesBeforeSpringBootsBindingAnalysis(CapturedOutput output) {
		SpringApplication application = new SpringApplication(MinimalApplication.class);
		application.setWebApplicationType(WebApplicationType.NONE);
		assertThatExceptionOfType(RuntimeException.class)
			.isThrownBy(() -> application.run("--breaker.instances.search.retry.on=bogus"));
		assertThat(output).contains("APPLICATION FAILED TO START")
			.contains("    Property: breaker.instances.search.retry.on[0]")
			.contains("    Value:    'bogus'")
			.contains("    Allowed:  failure, timeout or throttled")
			.doesNotContain("FAILURE IGNORED SUCCESS THROTTLED TIMEOUT");
	}

	@Test
	void rejectsZeroTenants() {
		this.runner.withPropertyValues("breaker.instances.recommendations.tenants.max=0")
			.run(failsWith("Invalid value '0' for property 'breaker.instances.recommendations.tenants.max'; "
					+ "allowed: an integer of 1 or more"));
	}

	@Test
	void rejectsANonPositiveTenantIdleExpiry() {
		this.runner.withPropertyValues("breaker.defaults.tenants.idle-expiry=0s")
			.run(failsWith("Invalid value '0s' for property 'breaker.defaults.tenants.idle-expiry'; "
					+ "allowed: a positive duration"));
	}

	@Test
	void rejectsAMinimumOfFailingTenantsOfZero() {
		this.runner.withPropertyValues("breaker.instances.recommendations.tenants.min-failing=0")
			.run(failsWith("Invalid value '0' for property 'breaker.instances.recommendations.tenants.min-failing'; "
					+ "allowed: an integer in [1, 100]"));
	}

	@Test
	void rejectsATenantKeyLimitTooShortForAPrefixAndAHash() {
		this.runner.withPropertyValues("breaker.defaults.tenants.max-key-length=20")
			.run(failsWith("Invalid value '20' for property 'breaker.defaults.tenants.max-key-length'; "
					+ "allowed: an integer in [32, 1024]"));
	}

	@Test
	void reportsTheFailureWithPropertyValueAndWhatIsAllowed() {
		this.runner.withPropertyValues("breaker.instances.payments.failure-rate-threshold=120").run((context) -> {
			FailureAnalysis analysis = StartupFailure.analysis(context, new InvalidBreakerPropertyFailureAnalyzer());
			assertThat(analysis.getDescription()).isEqualTo("""
					Invalid breaker configuration:

					    Property: breaker.instances.payments.failure-rate-threshold
					    Value:    '120'
					    Allowed:  (0, 100], or 0 to turn the rule off
					""");
			assertThat(analysis.getAction()).isEqualTo("Set 'breaker.instances.payments.failure-rate-threshold' "
					+ "in your application's configuration to an allowed value: (0, 100], or 0 to turn the rule off.");
		});
	}

	@Test
	void springBootPrintsTheReportWhenTheApplicationFailsToStart(CapturedOutput output) {
		SpringApplication application = new SpringApplication(MinimalApplication.class);
		application.setWebApplicationType(WebApplicationType.NONE);
		assertThatExceptionOfType(BeanCreationException.class)
			.isThrownBy(() -> application.run("--breaker.instances.payments.failure-rate-threshold=120"));
		assertThat(output).contains("APPLICATION FAILED TO START")
			.contains("    Property: breaker.instances.payments.failure-rate-threshold")
			.contains("Set 'breaker.instances.payments.failure-rate-threshold' in your application's configuration");
	}

	@Test
	void rejectsARetryIntervalSoLongItsPauseWouldOverflow() {
		this.runner.withPropertyValues("breaker.instances.search.retry.intervals=100000000d")
			.run(failsWith("Invalid value 'PT2400000000H' for property 'breaker.instances.search.retry.intervals[0]'; "
					+ "allowed: a duration from 0 to 24h"));
	}

	@Test
	void readsRetryOutcomesWhateverTheirCase() {
		this.runner.withPropertyValues("breaker.instances.search.retry.on=Failure,TIME_OUT,throttled")
			.run((context) -> assertThat(context).hasNotFailed());
	}

	@Test
	void rejectsANegativeRetryBudgetRatio() {
		this.runner.withPropertyValues("breaker.instances.payments.retry.budget.ratio=-0.2")
			.run(failsWith("Invalid value '-0.2' for property 'breaker.instances.payments.retry.budget.ratio'; "
					+ "allowed: [0, 1000]"));
	}

	@Test
	void rejectsAnInheritedRetryBudgetFloorAboveTheMost() {
		this.runner.withPropertyValues("breaker.defaults.retry.budget.min-per-second=2000000")
			.run(failsWith("Invalid value '2000000' for property 'breaker.defaults.retry.budget.min-per-second'; "
					+ "allowed: [0, 1000000]"));
	}

	@Test
	void rejectsAMinimumCallsRatioOfOne() {
		this.runner.withPropertyValues("breaker.instances.payments.minimum-calls-ratio=1")
			.run(failsWith("Invalid value '1' for property 'breaker.instances.payments.minimum-calls-ratio'; "
					+ "allowed: [0, 1) (0 turns it off)"));
	}

	@Test
	void rejectsMaxProbesThatAreNeitherANumberNorAuto() {
		this.runner.withPropertyValues("breaker.instances.payments.half-open.max-probes=lots")
			.run(failsWith("Invalid value 'lots' for property 'breaker.instances.payments.half-open.max-probes'; "
					+ "allowed: an integer in [1, 32], or auto"));
	}

	@Test
	void acceptsAutoMaxProbes() {
		this.runner
			.withPropertyValues("breaker.instances.payments.half-open.max-probes=AUTO",
					"breaker.instances.payments.minimum-calls-ratio=0.5")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				dev.breaker.core.BreakerConfig config = context.getBean(dev.breaker.core.BreakerRegistry.class)
					.breaker("payments")
					.config();
				assertThat(config.halfOpenMaxProbesAuto()).isTrue();
				assertThat(config.minimumCallsRatio()).isEqualTo(0.5);
			});
	}

	@Test
	void rejectsANumberTooLargeForItsSettingNamingWhatIsAllowed() {
		this.runner.withPropertyValues("breaker.instances.payments.consecutive-failures=2147483648")
			.run(failsWith("Invalid value '2147483648' for property 'breaker.instances.payments.consecutive-failures'; "
					+ "allowed: an integer from 0 to 2147483647 (0 turns the rule off)"));
	}

	@Test
	void rejectsATenantLimitTooLargeForAnIntegerInTheDefaults() {
		this.runner.withPropertyValues("breaker.defaults.tenants.max=99999999999")
			.run(failsWith("Invalid value '99999999999' for property 'breaker.defaults.tenants.max'; "
					+ "allowed: an integer from 1 to 2147483647"));
	}

	@Test
	void rejectsABooleanTypo() {
		this.runner.withPropertyValues("breaker.instances.payments.track-in-flight=maybe")
			.run(failsWith("Invalid value 'maybe' for property 'breaker.instances.payments.track-in-flight'; "
					+ "allowed: true or false"));
	}

	@Test
	void rejectsAPercentageThatIsNotANumber() {
		this.runner.withPropertyValues("breaker.instances.payments.failure-rate-threshold=high")
			.run(failsWith("Invalid value 'high' for property 'breaker.instances.payments.failure-rate-threshold'; "
					+ "allowed: a number in (0, 100], or 0 to turn the rule off"));
	}

	@Test
	void rejectsAHostSettingThatIsNotAnInteger() {
		this.runner.withPropertyValues("breaker.http.instances[stock.acme.com].half-open.successes-to-close=five")
			.run(failsWith("Invalid value 'five' for property "
					+ "'breaker.http.instances[stock.acme.com].half-open.successes-to-close'; "
					+ "allowed: an integer from 1 to 2147483647"));
	}

	@Test
	void rejectsADurationTypo() {
		this.runner.withPropertyValues("breaker.instances.payments.open-wait=30 seconds")
			.run(failsWith("Invalid value '30 seconds' for property 'breaker.instances.payments.open-wait'; "
					+ "allowed: a duration such as 500ms, 30s or 5m: a positive duration, at most 24h"));
	}

	@Test
	void rejectsAnIntegerTooLargeOutsideTheBreakerSettings() {
		this.runner.withPropertyValues("breaker.advisor-order=4294967296")
			.run(failsWith("Invalid value '4294967296' for property 'breaker.advisor-order'; "
					+ "allowed: an integer from -2147483648 to 2147483647"));
	}

	@Test
	void rejectsTooManyHostsForAnIntegerNamingTheRangeTheHostsCheckAllows() {
		dev.breaker.http.HttpClients.restClientRunner("jdk")
			.withPropertyValues("breaker.http.max-hosts=2147483648")
			.run(failsWith("Invalid value '2147483648' for property 'breaker.http.max-hosts'; "
					+ "allowed: an integer from 1 to 2147483647"));
	}

	@Test
	void rejectsAHostKeyLimitTooLargeForAnIntegerNamingTheRangeTheHostsCheckAllows() {
		this.runner.withPropertyValues("breaker.http.max-key-length=99999999999")
			.run(failsWith("Invalid value '99999999999' for property 'breaker.http.max-key-length'; "
					+ "allowed: an integer in [32, 1024]"));
	}

	@Test
	void rejectsAQuorumTooLargeForAnIntegerNamingTheRangeTheFleetCheckAllows() {
		this.runner.withPropertyValues("breaker.shared.redis.quorum=99999999999")
			.run(failsWith("Invalid value '99999999999' for property 'breaker.shared.redis.quorum'; "
					+ "allowed: an integer from 1 to 2147483647 (1: any replica's trip opens the fleet)"));
	}

	@Test
	void rejectsAnHttpRetryJitterThatIsNotANumberNamingItsRange() {
		this.runner.withPropertyValues("breaker.http.retry.jitter=half")
			.run(failsWith("Invalid value 'half' for property 'breaker.http.retry.jitter'; allowed: "
					+ dev.breaker.core.BreakerSetting.RETRY_JITTER.range().typed()));
		assertThat(dev.breaker.core.BreakerSetting.RETRY_JITTER.range().typed()).contains("[0, 1]");
	}

	@Test
	void namesTheBadElementOfAListThatHasAnEmptyOne() {
		this.runner.withPropertyValues("breaker.instances.payments.retry.intervals=100ms,,soon").run((context) -> {
			InvalidBreakerPropertyException ex = StartupFailure.invalidProperty(context);
			assertThat(ex.property()).isEqualTo("breaker.instances.payments.retry.intervals[2]");
			assertThat(ex.value()).isEqualTo("soon");
		});
	}

	@Test
	void boundsAHugeValueAndAHugeNameInTheReport() {
		String huge = "m" + "a".repeat(1_000_000) + "ybe";
		this.runner.withPropertyValues("breaker.instances.payments.track-in-flight=" + huge).run((context) -> {
			String message = StartupFailure.invalidProperty(context).getMessage();
			assertThat(message.length()).as("length of the report's message").isLessThan(1_000);
			assertThat(message).contains("'maaa").contains("(1000004 characters)");
		});
		this.runner.withPropertyValues("breaker.instances." + "p".repeat(1_000_000) + ".track-in-flight=maybe")
			.run((context) -> {
				String message = StartupFailure.invalidProperty(context).getMessage();
				assertThat(message.length()).as("length of the report's message").isLessThan(1_000);
				assertThat(message).contains("'breaker.instances.ppp").contains("characters)");
			});
	}

	@Test
	void escapesAndBoundsEveryCheckedValueInTheReportNotOnlyTheOnesThatCannotBeBound() {
		java.util.Map<String, Object> source = new java.util.HashMap<>();
		source.put("breaker.instances.payments.ignore-exceptions[0]",
				"com.acme.Nope\r\n\u001b[31mFORGED LINE" + "x".repeat(100_000));
		this.runner
			.withInitializer((context) -> context.getEnvironment()
				.getPropertySources()
				.addFirst(new org.springframework.core.env.MapPropertySource("programmatic", source)))
			.run((context) -> {
				InvalidBreakerPropertyException invalid = StartupFailure.invalidProperty(context);
				assertThat(invalid.property()).isEqualTo("breaker.instances.payments.ignore-exceptions[0]");
				assertThat(invalid.getMessage()).as("the report's message")
					.doesNotContain("\r")
					.doesNotContain("\n")
					.doesNotContain("\u001b")
					.startsWith("Invalid value 'com.acme.Nope\\r\\n\\u001b[31mFORGED LINE")
					.contains("(100031 characters)'");
				assertThat(invalid.getMessage().length()).as("length of the report's message").isLessThan(1_000);
			});
	}

	@Test
	void escapesAValueThatIsNoStringInTheReport() {
		java.util.Map<String, Object> source = new java.util.HashMap<>();
		source.put("breaker.instances.payments.track-in-flight", new StringBuilder("maybe\r\n\u001b[31mFORGED LINE"));
		this.runner
			.withInitializer((context) -> context.getEnvironment()
				.getPropertySources()
				.addFirst(new org.springframework.core.env.MapPropertySource("programmatic", source)))
			.run((context) -> assertThat(StartupFailure.invalidProperty(context).getMessage())
				.as("the report's message")
				.doesNotContain("\r")
				.doesNotContain("\n")
				.doesNotContain("\u001b")
				.contains("'maybe\\r\\n\\u001b[31mFORGED LINE'"));
	}

	/**
	 * A typo in the switch must not turn breaker off without a word: Spring Boot's
	 * boolean condition reads anything but {@code true} as off.
	 */
	@Test
	void rejectsATypoInTheSwitchRatherThanTurningBreakerOff() {
		this.runner.withPropertyValues("breaker.enabled=ture")
			.run(failsWith("Invalid value 'ture' for property 'breaker.enabled'; allowed: true or false"));
	}

	@Test
	void keepsTheSwitchOnOrOffWhenItSaysSo() {
		this.runner.withPropertyValues("breaker.enabled=TRUE")
			.run((context) -> assertThat(context).hasNotFailed().hasSingleBean(BreakerRegistry.class));
		this.runner.withPropertyValues("breaker.enabled=false")
			.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(BreakerRegistry.class));
		this.runner.run((context) -> assertThat(context).hasNotFailed().hasSingleBean(BreakerRegistry.class));
	}

	@Test
	void rejectsATypoInTheSwitchesOfTheHttpClientsAndTheFleet() {
		this.runner.withPropertyValues("breaker.http.enabled=ture")
			.run(failsWith("Invalid value 'ture' for property 'breaker.http.enabled'; allowed: true or false"));
		this.runner.withPropertyValues("breaker.shared.redis.enabled=yes please")
			.run(failsWith(
					"Invalid value 'yes please' for property 'breaker.shared.redis.enabled'; allowed: true or false"));
	}

	@Test
	void springBootPrintsBreakersReportForAValueNotOfItsType(CapturedOutput output) {
		SpringApplication application = new SpringApplication(MinimalApplication.class);
		application.setWebApplicationType(WebApplicationType.NONE);
		assertThatExceptionOfType(RuntimeException.class)
			.isThrownBy(() -> application.run("--breaker.instances.payments.track-in-flight=maybe"));
		assertThat(output).contains("APPLICATION FAILED TO START")
			.contains("    Property: breaker.instances.payments.track-in-flight")
			.contains("    Value:    'maybe'")
			.contains("    Allowed:  true or false");
	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration({ AopAutoConfiguration.class, BreakerAutoConfiguration.class })
	static class MinimalApplication {

	}

	private static ContextConsumer<AssertableApplicationContext> failsWith(String message) {
		return (context) -> assertThat(StartupFailure.invalidProperty(context)).hasMessage(message);
	}

}
