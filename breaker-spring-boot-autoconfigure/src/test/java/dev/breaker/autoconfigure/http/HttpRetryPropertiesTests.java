package dev.breaker.autoconfigure.http;

import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.util.List;

import com.jayway.jsonpath.JsonPath;
import dev.breaker.core.BreakerSetting;
import dev.breaker.http.HttpRetryPolicy;
import org.junit.jupiter.api.Test;

import org.springframework.core.io.ClassPathResource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code breaker.http.retry.*} as a plain Boot properties class: each field starts at its
 * default, a host inherits what it does not set and wins with what it sets, even a value
 * equal to the default.
 */
class HttpRetryPropertiesTests {

	@Test
	void theRetryOfEveryHostStartsAtTheDefaults() {
		HttpBreakerProperties.HttpRetry retry = new HttpBreakerProperties().getRetry();
		assertThat(retry.getIntervals()).isEmpty();
		assertThat(retry.getJitter()).isEqualTo(BreakerSetting.RETRY_JITTER.<Double>defaultAs());
		assertThat(retry.getOn()).containsExactly("failure", "timeout");
		assertThat(retry.getNonIdempotent()).isFalse();
	}

	@Test
	void aHostsRetryStartsAtTheDefaultsWithNothingSet() {
		HttpBreakerProperties.HostRetry retry = new HttpBreakerProperties.Host().getRetry();
		assertThat(retry.getNonIdempotent()).isFalse();
		assertThat(retry.isSet("nonIdempotent")).isFalse();
		retry.setNonIdempotent(false);
		assertThat(retry.isSet("nonIdempotent")).isTrue();
	}

	@Test
	void theMetadataStatesTheInitialValues() throws IOException {
		HttpBreakerProperties.HttpRetry retry = new HttpBreakerProperties.HttpRetry();
		assertThat(metadataDefault("breaker.http.retry.intervals")).isEqualTo(retry.getIntervals());
		assertThat(((Number) metadataDefault("breaker.http.retry.jitter")).doubleValue()).isEqualTo(retry.getJitter());
		assertThat(metadataDefault("breaker.http.retry.on")).isEqualTo(retry.getOn());
		assertThat(metadataDefault("breaker.http.retry.non-idempotent")).isEqualTo(retry.getNonIdempotent());
	}

	@Test
	void aHostInheritsWhatItDoesNotSet() {
		HttpRetryPolicy policy = HostsPolicy.retryPolicy(everyHost(), new HttpBreakerProperties.HostRetry(), "host");
		assertThat(policy.intervals()).containsExactly(Duration.ofMillis(100));
		assertThat(policy.jitter()).isZero();
		assertThat(policy.statuses()).containsExactly(503);
		assertThat(policy.outcomes()).isEmpty();
		assertThat(policy.nonIdempotent()).isTrue();
	}

	@Test
	void aHostWinsWithWhatItSetsEvenTheDefault() {
		HttpBreakerProperties.HostRetry host = new HttpBreakerProperties.HostRetry();
		host.setIntervals(List.of());
		host.setJitter(0.5);
		host.setOn(List.of("failure", "timeout"));
		host.setNonIdempotent(false);
		HttpRetryPolicy policy = HostsPolicy.retryPolicy(everyHost(), host, "host");
		assertThat(policy.intervals()).isEmpty();
		assertThat(policy.jitter()).isEqualTo(0.5);
		assertThat(policy.statuses()).isEmpty();
		assertThat(policy.outcomes()).containsExactlyInAnyOrder(dev.breaker.core.Outcome.FAILURE,
				dev.breaker.core.Outcome.TIMEOUT);
		assertThat(policy.nonIdempotent()).isFalse();
	}

	/** breaker.http.retry with every field set away from its default. */
	private static HttpBreakerProperties.HttpRetry everyHost() {
		HttpBreakerProperties.HttpRetry all = new HttpBreakerProperties.HttpRetry();
		all.setIntervals(List.of(Duration.ofMillis(100)));
		all.setJitter(0.0);
		all.setOn(List.of("503"));
		all.setNonIdempotent(true);
		return all;
	}

	/** The default the hand-written metadata states for {@code name}. */
	private static Object metadataDefault(String name) throws IOException {
		try (InputStream metadata = new ClassPathResource("META-INF/additional-spring-configuration-metadata.json")
			.getInputStream()) {
			List<Object> defaults = JsonPath.parse(metadata)
				.read("$.properties[?(@.name == '" + name + "')].defaultValue");
			assertThat(defaults).as("metadata of %s", name).hasSize(1);
			return defaults.get(0);
		}
	}

}
