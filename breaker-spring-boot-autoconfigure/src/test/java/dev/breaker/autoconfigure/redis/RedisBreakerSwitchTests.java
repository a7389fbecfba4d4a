package dev.breaker.autoconfigure.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.breaker.core.BreakerRegistry;
import dev.breaker.redis.FleetSync;
import dev.breaker.redis.FleetWindow;
import dev.breaker.redis.RedisServerHarness;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * {@code breaker.shared.redis.enabled} and {@code breaker.shared.redis.fleet-window} read
 * their value as Spring's binder does, so a value the binder takes as true never leaves a
 * replica running alone without a word.
 */
class RedisBreakerSwitchTests {

	private static RedisServerHarness redis;

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class, RedisBreakerAutoConfiguration.class))
		.withBean(BreakerRegistry.class, () -> BreakerRegistry.builder().build())
		.withPropertyValues("spring.data.redis.host=127.0.0.1");

	@BeforeAll
	static void startRedis() {
		redis = RedisServerHarness.start();
	}

	@AfterAll
	static void stopRedis() {
		redis.close();
	}

	private ApplicationContextRunner redis(String... properties) {
		return this.runner.withPropertyValues("spring.data.redis.port=" + redis.port()).withPropertyValues(properties);
	}

	@ParameterizedTest
	@ValueSource(strings = { "on", "yes", "1", " TRUE " })
	void fleetModeIsOnForEveryValueSpringReadsAsTrue(String value) {
		redis("breaker.shared.redis.enabled=" + value)
			.run((context) -> assertThat(context).as("breaker.shared.redis.enabled='%s' shared?", value)
				.hasNotFailed()
				.hasSingleBean(FleetSync.class));
	}

	@ParameterizedTest
	@ValueSource(strings = { "off", "no", "0", "FALSE" })
	void fleetModeIsOffForEveryValueSpringReadsAsFalse(String value) {
		redis("breaker.shared.redis.enabled=" + value)
			.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(FleetSync.class));
	}

	@ParameterizedTest
	@ValueSource(strings = { "on", "yes", "1", " TRUE " })
	void theFleetWindowIsOnForEveryValueSpringReadsAsTrue(String value) {
		redis("breaker.shared.redis.enabled=true", "breaker.shared.redis.fleet-window=" + value)
			.run((context) -> assertThat(context).as("breaker.shared.redis.fleet-window='%s' shared?", value)
				.hasNotFailed()
				.hasSingleBean(FleetWindow.class));
	}

	@ParameterizedTest
	@ValueSource(strings = { "off", "no", "0" })
	void theFleetWindowIsOffForEveryValueSpringReadsAsFalse(String value) {
		redis("breaker.shared.redis.enabled=true", "breaker.shared.redis.fleet-window=" + value)
			.run((context) -> assertThat(context).hasNotFailed()
				.hasSingleBean(FleetSync.class)
				.doesNotHaveBean(FleetWindow.class));
	}

	@ParameterizedTest
	@ValueSource(strings = { "ture", "" })
	void aFleetSwitchNeitherTrueNorFalseStopsStartUp(String value) {
		redis("breaker.shared.redis.enabled=true", "breaker.shared.redis.fleet-window=" + value)
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.hasMessage("Invalid value '" + value
						+ "' for property 'breaker.shared.redis.fleet-window'; allowed: true or false"));
	}

}
