package dev.breaker.autoconfigure;

import java.time.Duration;
import java.util.Arrays;
import java.util.stream.Stream;

import dev.breaker.autoconfigure.http.HttpBreakerAutoConfiguration;
import dev.breaker.autoconfigure.redis.RedisBreakerAutoConfiguration;
import dev.breaker.core.BreakerSetting;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every duration that must be positive, whichever part of breaker reads it, is refused
 * with the one text next to the one check
 * ({@link BreakerSetting.Range#POSITIVE_DURATION}), the failure naming the property and
 * the value.
 */
class PositiveDurationsTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner().withConfiguration(AutoConfigurations
		.of(AopAutoConfiguration.class, BreakerAutoConfiguration.class, HttpBreakerAutoConfiguration.class,
				DataRedisAutoConfiguration.class, RedisBreakerAutoConfiguration.class));

	/**
	 * The table's durations, which must all be positive (the timeout may also be unset)
	 * but the bucket (at least 1ms) and max-open-wait (at least open-wait, which refuses
	 * a zero first), then the HTTP and fleet ones.
	 */
	static Stream<Arguments> positiveDurations() {
		Stream<Arguments> table = Arrays.stream(BreakerSetting.values())
			.filter((setting) -> setting.type() == Duration.class)
			.filter((setting) -> setting != BreakerSetting.BUCKET && setting != BreakerSetting.MAX_OPEN_WAIT)
			.map((setting) -> Arguments.of(BreakerProperties.DEFAULTS_PREFIX + "." + setting.property(),
					(setting == BreakerSetting.TIMEOUT)
							? BreakerSetting.Range.POSITIVE_DURATION + ", or unset for no timeout"
							: BreakerSetting.Range.POSITIVE_DURATION));
		Stream<Arguments> others = Stream
			.of("breaker.http.idle-expiry", "breaker.shared.redis.timeout", "breaker.shared.redis.reconnect-interval",
					"breaker.shared.redis.flush-interval")
			.map((property) -> Arguments.of(property, BreakerSetting.Range.POSITIVE_DURATION));
		return Stream.concat(table, others);
	}

	@ParameterizedTest
	@MethodSource("positiveDurations")
	void aZeroDurationIsRefusedWithTheOneTextForPositiveDurations(String property, String allowed) {
		// fleet mode on for the fleet's settings, its Redis nowhere: they are checked
		// before any connection
		this.runner
			.withPropertyValues(property + "=0s",
					"breaker.shared.redis.enabled=" + property.startsWith("breaker.shared.redis."),
					"spring.data.redis.port=1")
			.run((context) -> {
				InvalidBreakerPropertyException ex = StartupFailure.invalidProperty(context);
				assertThat(ex.property()).isEqualTo(property);
				assertThat(ex.value()).isEqualTo(Duration.ZERO);
				assertThat(ex.allowed()).isEqualTo(allowed);
			});
	}

}
