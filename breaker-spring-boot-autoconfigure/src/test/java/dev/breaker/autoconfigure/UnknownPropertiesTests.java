package dev.breaker.autoconfigure;

import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

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
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

import dev.breaker.core.BreakerRegistry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * A key under {@code breaker.*} that breaker does not know would leave its setting at the
 * default without a word: it stops start-up instead, naming the key as written and the
 * closest valid key. Only the breaker auto-configuration runs here: keys of the HTTP,
 * fleet and metrics parts are checked even when those parts are off.
 */
@ExtendWith(OutputCaptureExtension.class)
class UnknownPropertiesTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, BreakerAutoConfiguration.class));

	@Test
	void aTypoInsideAnInstanceStopsStartUpNamingTheClosestKey() {
		this.runner.withPropertyValues("breaker.instances.payments.consecutive-failure=3")
			.run(failsWith("breaker.instances.payments.consecutive-failure",
					"breaker.instances.payments.consecutive-failures"));
	}

	@Test
	void aTransposedLetterIsOneStepFromTheKeyMeant() {
		this.runner.withPropertyValues("breaker.instances.payments.open-wiat=5s")
			.run(failsWith("breaker.instances.payments.open-wiat", "breaker.instances.payments.open-wait"));
	}

	@Test
	void reportsTheKeyTheValueCameFromTheClosestKeyAndTheKeysAllowedThere() {
		this.runner.withPropertyValues("breaker.instances.payments.open-wiat=5s").run((context) -> {
			FailureAnalysis analysis = StartupFailure.analysis(context, new UnknownBreakerPropertyFailureAnalyzer());
			assertThat(analysis.getDescription()).isEqualTo("""
					Unknown breaker property:

					    Property: breaker.instances.payments.open-wiat
					    Origin:   "breaker.instances.payments.open-wiat" from property source "test"

					breaker would ignore it and leave the setting it was meant for at its default.
					""");
			assertThat(analysis.getAction()).isEqualTo("""
					Did you mean 'open-wait'? Rename 'breaker.instances.payments.open-wiat' to \
					'breaker.instances.payments.open-wait', or remove it.
					The keys under 'breaker.instances.payments' are: bucket, consecutive-failures, \
					failure-rate-threshold, half-open.failures-to-reopen, half-open.max-probes, half-open.max-wait, \
					half-open.successes-to-close, health-when-open, ignore-exceptions, max-open-wait, minimum-calls, \
					minimum-calls-ratio, open-wait, open-wait-jitter, open-wait-multiplier, record-exceptions, \
					record-latency, retry.budget.min-per-second, retry.budget.ratio, retry.intervals, retry.jitter, \
					retry.on, retry.record-each-attempt, slow-call-duration, slow-call-rate-threshold, stall-calls, \
					tenants.idle-expiry, tenants.max, tenants.max-key-length, tenants.min-failing, timeout, \
					timeout-weight, track-in-flight, window.""");
		});
	}

	@Test
	void namesTheKeyAsWrittenInCamelCase() {
		this.runner.withPropertyValues("breaker.instances.payments.openWiat=5s")
			.run(failsWith("breaker.instances.payments.openWiat", "breaker.instances.payments.open-wait"));
	}

	@Test
	void aTypoInANestedGroupNamesTheNestedKey() {
		this.runner.withPropertyValues("breaker.defaults.half-open.max-probe=4")
			.run(failsWith("breaker.defaults.half-open.max-probe", "breaker.defaults.half-open.max-probes"));
	}

	@Test
	void aTypoInTheNameOfANestedGroupNamesTheWholeKey() {
		this.runner.withPropertyValues("breaker.defaults.half-opn.max-probes=4")
			.run(failsWith("breaker.defaults.half-opn.max-probes", "breaker.defaults.half-open.max-probes"));
	}

	@Test
	void aTypoInDefaultsItselfIsCaught() {
		this.runner.withPropertyValues("breaker.default.open-wait=10s")
			.run(failsWith("breaker.default.open-wait", "breaker.defaults.open-wait"));
	}

	@Test
	void aTypoUnderHttpIsCaughtWhileTheHttpClientsAreOff() {
		this.runner.withPropertyValues("breaker.http.max-host=10")
			.run(failsWith("breaker.http.max-host", "breaker.http.max-hosts"));
	}

	@Test
	void aHostWithoutBracketsIsShownWithThem() {
		this.runner.withPropertyValues("breaker.http.instances.stock.acme.com.open-wait=10s")
			.run(failsWith("breaker.http.instances.stock.acme.com.open-wait",
					"breaker.http.instances[stock.acme.com].open-wait"));
	}

	@Test
	void aTypoUnderSharedRedisIsCaughtWhileFleetModeIsOff() {
		this.runner.withPropertyValues("breaker.shared.redis.enabeld=true")
			.run(failsWith("breaker.shared.redis.enabeld", "breaker.shared.redis.enabled"));
	}

	@Test
	void aTypoUnderMetricsIsCaught() {
		this.runner.withPropertyValues("breaker.metrics.tenant-tag=true")
			.run(failsWith("breaker.metrics.tenant-tag", "breaker.metrics.tenant-tags"));
	}

	@Test
	void anUnquotedOnInYamlIsReadAsTrueAndSaysSo() {
		// what YAML makes of "retry: { on: [success] }": the key on is the boolean true
		this.runner.withPropertyValues("breaker.instances.payments.retry[true][0]=failure").run((context) -> {
			FailureAnalysis analysis = StartupFailure.analysis(context, new UnknownBreakerPropertyFailureAnalyzer());
			assertThat(analysis.getAction())
				.startsWith("Did you mean 'on'? Rename "
						+ "'breaker.instances.payments.retry[true][0]' to 'breaker.instances.payments.retry.on'")
				.endsWith(
						"YAML reads an unquoted key on, off, yes or no as true or false: write \"on\": [failure, timeout].");
		});
	}

	@Test
	void anUnknownEnvironmentVariableIsOnlyLoggedSinceAPlatformSetsItsOwn(CapturedOutput output) {
		this.runner
			.withInitializer((context) -> context.getEnvironment()
				.getPropertySources()
				.replace(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
						new SystemEnvironmentPropertySource(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
								Map.of("BREAKER_SERVICE_HOST", "10.0.0.7", "BREAKER_SHARED_REDIS_ENABLD", "true"))))
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(output).contains("Unknown breaker properties: 'breaker.service.host'",
						"'breaker.shared.redis.enabld' (did you mean 'breaker.shared.redis.enabled'?)",
						"They come from environment variables");
			});
	}

	@Test
	void aKnownEnvironmentVariableBinds() {
		this.runner
			.withInitializer((context) -> context.getEnvironment()
				.getPropertySources()
				.replace(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
						new SystemEnvironmentPropertySource(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
								Map.of("BREAKER_INSTANCES_PAYMENTS_OPENWAIT", "7s"))))
			.run((context) -> assertThat(context.getBean(BreakerRegistry.class).breaker("payments").config().openWait())
				.isEqualTo(Duration.ofSeconds(7)));
	}

	@Test
	void aSystemPropertyIsCheckedLikeAnyOtherKey() {
		this.runner.withSystemProperties("breaker.instances.payments.open-wiat=5s")
			.run(failsWith("breaker.instances.payments.open-wiat", "breaker.instances.payments.open-wait"));
	}

	@Test
	void everyUnknownKeyIsReportedAtOnce() {
		this.runner.withPropertyValues("breaker.instances.payments.open-wiat=5s", "breaker.metrics.tenant-tag=true")
			.run((context) -> {
				UnknownBreakerPropertyException ex = cause(context, UnknownBreakerPropertyException.class);
				assertThat(ex.unknown()).extracting(UnknownBreakerPropertyException.Unknown::property)
					.containsExactly("breaker.instances.payments.open-wiat", "breaker.metrics.tenant-tag");
			});
	}

	@Test
	void theValueOfAnUnknownKeyIsNeverPrinted() {
		this.runner.withPropertyValues("breaker.shared.redis.signing-kye=s3cr3t-signing-key").run((context) -> {
			FailureAnalysis analysis = StartupFailure.analysis(context, new UnknownBreakerPropertyFailureAnalyzer());
			assertThat(analysis.getDescription() + analysis.getAction() + context.getStartupFailure().getMessage())
				.doesNotContain("s3cr3t");
		});
	}

	@Test
	void everyKnownKeyStarts() {
		this.runner.withPropertyValues("breaker.enabled=true", "breaker.defaults.open-wait=10s",
				"breaker.defaults.half-open.max-probes=4", "breaker.defaults.retry.intervals[0]=100ms",
				"breaker.defaults.retry.on=failure,timeout", "breaker.defaults.ignore-exceptions[0]=java.lang.Error",
				"breaker.instances.payments.consecutive-failures=3", "breaker.instances.payments.health-when-open=down",
				"breaker.instances.payments.tenants.min-failing=2", "breaker.instances[search.v2].open-wait=1s",
				"breaker.instances.http.stall-calls=5", "breaker.http.max-hosts=10", "breaker.http.max-key-length=64",
				"breaker.http.status-outcomes.404=success", "breaker.http.instances[stock.acme.com].open-wait=10s",
				"breaker.http.instances[stock.acme.com].status-outcomes.409=failure",
				"breaker.shared.redis.key-prefix=b:", "breaker.metrics.tenant-tags=true",
				"breaker.metrics.host-tags=true")
			.run((context) -> assertThat(context).hasNotFailed());
	}

	@Test
	void springBootPrintsTheReportWhenTheApplicationFailsToStart(CapturedOutput output) {
		SpringApplication application = new SpringApplication(MinimalApplication.class);
		application.setWebApplicationType(WebApplicationType.NONE);
		assertThatExceptionOfType(RuntimeException.class)
			.isThrownBy(() -> application.run("--breaker.instances.payments.consecutive-failure=3"));
		assertThat(output).contains("APPLICATION FAILED TO START")
			.contains("    Property: breaker.instances.payments.consecutive-failure")
			.contains("Did you mean 'consecutive-failures'?");
	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration({ AopAutoConfiguration.class, BreakerAutoConfiguration.class })
	static class MinimalApplication {

	}

	private static ContextConsumer<AssertableApplicationContext> failsWith(String property, String closest) {
		return (context) -> {
			assertThat(context).hasFailed();
			UnknownBreakerPropertyException ex = cause(context, UnknownBreakerPropertyException.class);
			assertThat(ex.unknown()).hasSize(1);
			assertThat(ex.unknown().get(0).property()).isEqualTo(property);
			assertThat(ex.unknown().get(0).closest()).isEqualTo(closest);
		};
	}

	private static <T extends Throwable> T cause(AssertableApplicationContext context, Class<T> type) {
		Throwable failure = context.getStartupFailure();
		while (failure != null && !type.isInstance(failure)) {
			failure = failure.getCause();
		}
		assertThat(failure).as("a %s among the causes of %s", type.getSimpleName(), context.getStartupFailure())
			.isNotNull();
		return type.cast(failure);
	}

}
