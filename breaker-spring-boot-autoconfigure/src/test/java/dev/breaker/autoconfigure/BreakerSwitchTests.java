package dev.breaker.autoconfigure;

import dev.breaker.core.BreakerRegistry;
import io.lettuce.core.RedisClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The switches {@code breaker.enabled} and {@code breaker.shared.redis.enabled} (fleet
 * mode's requirement of Lettuce) read their value as Spring's binder does: {@code true},
 * {@code on}, {@code yes}, {@code 1} are on, {@code false}, {@code off}, {@code no},
 * {@code 0} are off, and anything else stops start-up.
 */
class BreakerSwitchTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, BreakerAutoConfiguration.class));

	@ParameterizedTest
	@ValueSource(strings = { "true", "on", "yes", "1", " TRUE ", "On" })
	void breakerIsOnForEveryValueSpringReadsAsTrue(String value) {
		this.runner.withPropertyValues("breaker.enabled=" + value)
			.run((context) -> assertThat(context).hasNotFailed().hasSingleBean(BreakerRegistry.class));
	}

	@ParameterizedTest
	@ValueSource(strings = { "false", "off", "no", "0", " FALSE " })
	void breakerIsOffForEveryValueSpringReadsAsFalse(String value) {
		this.runner.withPropertyValues("breaker.enabled=" + value)
			.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(BreakerRegistry.class));
	}

	@Test
	void breakerIsOnWhenItsSwitchIsMissing() {
		this.runner.run((context) -> assertThat(context).hasNotFailed().hasSingleBean(BreakerRegistry.class));
	}

	@Test
	void aSwitchValueNeitherTrueNorFalseStopsStartUpNamingThePropertyAndWhatIsAllowed() {
		this.runner.withPropertyValues("breaker.enabled=yes please")
			.run((context) -> assertThat(StartupFailure.invalidProperty(context))
				.hasMessage("Invalid value 'yes please' for property 'breaker.enabled'; allowed: true or false"));
	}

	@Test
	void aHugeHostileSwitchValueIsShownEscapedAndCut() {
		this.runner.withPropertyValues("breaker.enabled=" + "\u202e".repeat(100_000)).run((context) -> {
			InvalidBreakerPropertyException invalid = StartupFailure.invalidProperty(context);
			assertThat(invalid.getMessage().length()).as("length of the start-up failure's message").isLessThan(2_000);
			assertThat(invalid.getMessage()).startsWith("Invalid value '\\u202e\\u202e")
				.contains("... (100000 characters)'")
				.doesNotContain("\u202e")
				.endsWith(" for property 'breaker.enabled'; allowed: true or false");
		});
	}

	@ParameterizedTest
	@ValueSource(strings = { "on", "yes", "1", " TRUE " })
	void fleetModeAskedForWithAnyTrueValueStillRequiresLettuce(String value) {
		this.runner.withPropertyValues("breaker.shared.redis.enabled=" + value)
			.withClassLoader(new FilteredClassLoader(RedisClient.class))
			.run((context) -> assertThat(StartupFailure.invalidProperty(context).property())
				.as("breaker.shared.redis.enabled='%s' without Lettuce refused", value)
				.isEqualTo("breaker.shared.redis.enabled"));
	}

	@ParameterizedTest
	@ValueSource(strings = { "false", "off", "no", "0" })
	void fleetModeSwitchedOffWithAnyFalseValueNeedsNoLettuce(String value) {
		this.runner.withPropertyValues("breaker.shared.redis.enabled=" + value)
			.withClassLoader(new FilteredClassLoader(RedisClient.class))
			.run((context) -> assertThat(context).hasNotFailed().hasSingleBean(BreakerRegistry.class));
	}

}
