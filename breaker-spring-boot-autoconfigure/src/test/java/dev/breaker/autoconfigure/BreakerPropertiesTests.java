package dev.breaker.autoconfigure;

import java.beans.Introspector;
import java.beans.PropertyDescriptor;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import dev.breaker.aspect.CallPolicy;
import dev.breaker.core.BreakerConfig;
import dev.breaker.core.BreakerRegistry;
import dev.breaker.core.ManualTicker;
import dev.breaker.core.Outcome;
import dev.breaker.core.OutcomeClassifier;
import org.junit.jupiter.api.Test;

import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

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

	@Test
	void anInstanceThatSetsTheDefaultValueStillOverridesBreakerDefaults() {
		BreakerProperties properties = bind(Map.of("breaker.defaults.open-wait", "10s", "breaker.defaults.tenants.max",
				"50", "breaker.instances.payments.open-wait", "30s", "breaker.instances.payments.tenants.max",
				"10000"));
		BreakerSettings payments = merge("breaker.instances.payments", properties.getInstances().get("payments"),
				properties.getDefaults());
		BreakerSettings other = merge("breaker.instances.other", new BreakerProperties.Instance(),
				properties.getDefaults());
		assertThat(payments.config().openWait()).isEqualTo(Duration.ofSeconds(30));
		assertThat(payments.children().maxEntries()).isEqualTo(10_000);
		assertThat(other.config().openWait()).isEqualTo(Duration.ofSeconds(10));
		assertThat(other.children().maxEntries()).isEqualTo(50);
	}

	@Test
	void anInstanceInheritsWhatItLeavesOutFromBreakerDefaults() {
		BreakerProperties properties = bind(Map.of("breaker.defaults.consecutive-failures", "7",
				"breaker.defaults.half-open.successes-to-close", "2", "breaker.defaults.tenants.min-failing", "5",
				"breaker.defaults.retry.budget.ratio", "0.5", "breaker.defaults.half-open.failures-to-reopen", "1",
				"breaker.defaults.retry.budget.min-per-second", "20", "breaker.instances.payments.open-wait", "30s",
				"breaker.instances.payments.half-open.failures-to-reopen", "3",
				"breaker.instances.payments.retry.budget.min-per-second", "10"));
		BreakerSettings payments = merge("breaker.instances.payments", properties.getInstances().get("payments"),
				properties.getDefaults());
		assertThat(payments.config().consecutiveFailures()).isEqualTo(7);
		assertThat(payments.config().halfOpenSuccessesToClose()).isEqualTo(2);
		assertThat(payments.children().minFailingChildren()).isEqualTo(5);
		assertThat(payments.config().retryBudgetRatio()).isEqualTo(0.5);
		assertThat(payments.config().openWait()).isEqualTo(Duration.ofSeconds(30));
		assertThat(payments.config().halfOpenFailuresToReopen()).isEqualTo(3);
		assertThat(payments.config().retryBudgetMinPerSecond()).isEqualTo(10.0);
	}

	@Test
	void everySetterRecordsThatItsPropertyWasSet() throws Exception {
		for (Class<?> type : List.of(BreakerProperties.Instance.class, BreakerProperties.HalfOpen.class,
				BreakerProperties.Retry.class, BreakerProperties.Budget.class, BreakerProperties.Tenants.class)) {
			for (PropertyDescriptor property : Introspector.getBeanInfo(type, Object.class).getPropertyDescriptors()) {
				if (property.getWriteMethod() == null) {
					continue;
				}
				BreakerProperties.Inheriting settings = (BreakerProperties.Inheriting) type.getConstructor()
					.newInstance();
				assertThat(settings.isSet(property.getName())).as(type.getSimpleName() + "." + property.getName())
					.isFalse();
				property.getWriteMethod().invoke(settings, property.getReadMethod().invoke(settings));
				assertThat(settings.isSet(property.getName())).as(type.getSimpleName() + "." + property.getName())
					.isTrue();
			}
		}
	}

	@Test
	void aBadInheritedValueIsReportedWhereItWasWritten() {
		BreakerProperties properties = bind(
				Map.of("breaker.defaults.open-wait-jitter", "1", "breaker.instances.payments.open-wait", "30s"));
		assertThatExceptionOfType(InvalidBreakerPropertyException.class)
			.isThrownBy(() -> merge("breaker.instances.payments", properties.getInstances().get("payments"),
					properties.getDefaults()))
			.satisfies((ex) -> assertThat(ex.property()).isEqualTo("breaker.defaults.open-wait-jitter"));
	}

	private static BreakerProperties bind(Map<String, String> properties) {
		return new Binder(new MapConfigurationPropertySource(properties)).bind("breaker", BreakerProperties.class)
			.get();
	}

	private BreakerSettings merge(String path, BreakerProperties.Instance instance,
			BreakerProperties.Instance defaults) {
		return BreakerSettings.merge(path, instance, defaults, new ManualTicker(), OutcomeClassifier.defaults(),
				getClass().getClassLoader());
	}

}
