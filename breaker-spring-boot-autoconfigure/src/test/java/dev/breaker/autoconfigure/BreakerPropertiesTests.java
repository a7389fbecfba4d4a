package dev.breaker.autoconfigure;

import java.io.IOException;
import java.time.Duration;
import java.util.List;

import dev.breaker.aspect.CallPolicy;
import dev.breaker.core.BreakerConfig;
import dev.breaker.core.BreakerRegistry;
import dev.breaker.core.ManualTicker;
import dev.breaker.core.Outcome;
import dev.breaker.core.OutcomeClassifier;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * {@link BreakerProperties.Instance} on its own, as other parts of the starter use it
 * (the HTTP clients map {@code breaker.http.instances.<host>} through it).
 */
class BreakerPropertiesTests {

	@Test
	void mergesAnInstanceOverTheDefaultsOverTheEngineDefaults() {
		BreakerProperties.Instance defaults = new BreakerProperties.Instance();
		defaults.setMinimumCalls(7);
		defaults.getHalfOpen().setMaxProbes("4");
		BreakerProperties.Instance instance = new BreakerProperties.Instance();
		instance.setMinimumCalls(9);
		instance.setOpenWait(Duration.ofSeconds(10));
		ManualTicker ticker = new ManualTicker();
		BreakerConfig config = BreakerSettings.config("breaker.http.instances.api.acme.com", instance, defaults,
				ticker);
		assertThat(config.minimumCalls()).isEqualTo(9);
		assertThat(config.openWait()).isEqualTo(Duration.ofSeconds(10));
		assertThat(config.halfOpenMaxProbes()).isEqualTo(4);
		assertThat(config.window()).isEqualTo(BreakerConfig.defaults().window());
		assertThat(config.ticker()).isSameAs(ticker);
	}

	@Test
	void namesTheGivenPathInErrors() {
		BreakerProperties.Instance instance = new BreakerProperties.Instance();
		instance.setOpenWaitJitter(1.0);
		assertThatExceptionOfType(InvalidBreakerPropertyException.class).isThrownBy(
				() -> BreakerSettings.config("breaker.http.instances.api.acme.com", instance, null, new ManualTicker()))
			.satisfies((ex) -> {
				assertThat(ex.property()).isEqualTo("breaker.http.instances.api.acme.com.open-wait-jitter");
				assertThat(ex.value()).isEqualTo(1.0);
				assertThat(ex.allowed()).isEqualTo("[0, 1)");
			});
	}

	@Test
	void refinesTheBaseClassifierWithRecordedAndIgnoredExceptions() {
		BreakerProperties.Instance instance = new BreakerProperties.Instance();
		instance.setRecordExceptions(List.of("java.io.IOException"));
		instance.setIgnoreExceptions(List.of("java.io.FileNotFoundException"));
		OutcomeClassifier classifier = BreakerSettings
			.merge("breaker.instances.files", instance, null, new ManualTicker(), OutcomeClassifier.defaults(),
					getClass().getClassLoader())
			.config()
			.classifier();
		assertThat(classifier.classify(null, new IOException())).isEqualTo(Outcome.FAILURE);
		assertThat(classifier.classify(null, new RuntimeException(new IOException()))).isEqualTo(Outcome.FAILURE);
		assertThat(classifier.classify(null, new java.io.FileNotFoundException())).isEqualTo(Outcome.IGNORED);
		assertThat(classifier.classify(null, new IllegalStateException())).isEqualTo(Outcome.IGNORED);
		assertThat(classifier.classify(null, new java.util.concurrent.TimeoutException())).isEqualTo(Outcome.TIMEOUT);
		assertThat(classifier.classify("value", null)).isEqualTo(Outcome.SUCCESS);
	}

	@Test
	void keepsTheBaseClassifierWhenNoExceptionListIsSet() {
		OutcomeClassifier base = (result, error) -> Outcome.SUCCESS;
		assertThat(BreakerSettings
			.merge("breaker.instances.x", new BreakerProperties.Instance(), null, new ManualTicker(), base,
					getClass().getClassLoader())
			.config()
			.classifier()).isSameAs(base);
	}

	@Test
	void inheritsTheRetryPolicyAndTimeout() {
		BreakerProperties.Instance defaults = new BreakerProperties.Instance();
		defaults.getRetry().setIntervals(List.of(Duration.ofMillis(100)));
		defaults.setTimeout(Duration.ofSeconds(2));
		BreakerProperties.Instance instance = new BreakerProperties.Instance();
		instance.getRetry().setJitter(0.1);
		CallPolicy policy = merge("breaker.instances.search", instance, defaults).callPolicy();
		assertThat(policy.timeout()).isEqualTo(Duration.ofSeconds(2));
		assertThat(policy.retry().intervals()).containsExactly(Duration.ofMillis(100));
		assertThat(policy.retry().jitter()).isEqualTo(0.1);
		assertThat(policy.retry().on()).containsExactlyInAnyOrder(Outcome.FAILURE, Outcome.TIMEOUT);
		assertThat(policy.retry().recordEachAttempt()).isFalse();
	}

	@Test
	void tenantChildrenConsultTheirParent() {
		BreakerProperties.Instance instance = new BreakerProperties.Instance();
		instance.getTenants().setMax(50);
		BreakerRegistry.Children children = merge("breaker.instances.recommendations", instance, null).children();
		assertThat(children.maxEntries()).isEqualTo(50);
		assertThat(children.idleExpiry()).isEqualTo(Duration.ofMinutes(10));
		assertThat(children.consultParent()).isTrue();
	}

	@Test
	void reportsOpenHealthUpUnlessSet() {
		BreakerProperties.Instance defaults = new BreakerProperties.Instance();
		assertThat(merge("breaker.instances.x", new BreakerProperties.Instance(), defaults).healthWhenOpen())
			.isEqualTo(BreakerProperties.OpenHealth.UP);
		defaults.setHealthWhenOpen(BreakerProperties.OpenHealth.DOWN);
		assertThat(merge("breaker.instances.x", new BreakerProperties.Instance(), defaults).healthWhenOpen())
			.isEqualTo(BreakerProperties.OpenHealth.DOWN);
	}

	private BreakerSettings merge(String path, BreakerProperties.Instance instance,
			BreakerProperties.Instance defaults) {
		return BreakerSettings.merge(path, instance, defaults, new ManualTicker(), OutcomeClassifier.defaults(),
				getClass().getClassLoader());
	}

}
