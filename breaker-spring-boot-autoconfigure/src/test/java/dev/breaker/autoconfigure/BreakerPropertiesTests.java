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
 * {@link BreakerProperties.Instance} on its own, as other parts of the starter use it (the HTTP
 * clients map {@code breaker.http.instances.<host>} through it).
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
		BreakerConfig config = instance.toConfig("breaker.http.instances.api.acme.com", defaults, ticker);
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
		assertThatExceptionOfType(InvalidBreakerPropertyException.class)
			.isThrownBy(() -> instance.toConfig("breaker.http.instances.api.acme.com", null, new ManualTicker()))
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
		OutcomeClassifier classifier = instance
			.toConfig("breaker.instances.files", null, new ManualTicker(), OutcomeClassifier.defaults(),
					getClass().getClassLoader())
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
		assertThat(new BreakerProperties.Instance()
			.toConfig("breaker.instances.x", null, new ManualTicker(), base, getClass().getClassLoader())
			.classifier()).isSameAs(base);
	}

	@Test
	void inheritsTheRetryPolicyAndTimeout() {
		BreakerProperties.Instance defaults = new BreakerProperties.Instance();
		defaults.getRetry().setIntervals(List.of(Duration.ofMillis(100)));
		defaults.setTimeout(Duration.ofSeconds(2));
		BreakerProperties.Instance instance = new BreakerProperties.Instance();
		instance.getRetry().setJitter(0.1);
		CallPolicy policy = instance.toCallPolicy("breaker.instances.search", defaults);
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
		BreakerRegistry.Children children = instance.toChildren("breaker.instances.recommendations", null);
		assertThat(children.maxEntries()).isEqualTo(50);
		assertThat(children.idleExpiry()).isEqualTo(Duration.ofMinutes(10));
		assertThat(children.consultParent()).isTrue();
	}

	@Test
	void reportsOpenHealthUpUnlessSet() {
		BreakerProperties.Instance defaults = new BreakerProperties.Instance();
		assertThat(new BreakerProperties.Instance().healthWhenOpen(defaults)).isEqualTo(BreakerProperties.OpenHealth.UP);
		defaults.setHealthWhenOpen(BreakerProperties.OpenHealth.DOWN);
		assertThat(new BreakerProperties.Instance().healthWhenOpen(defaults))
			.isEqualTo(BreakerProperties.OpenHealth.DOWN);
	}

}
