package dev.breaker.autoconfigure;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.breaker.aspect.CircuitGuardedAdvisor;
import dev.breaker.aspect.GuardedMethodRegistry;
import dev.breaker.core.Breaker;
import dev.breaker.core.BreakerConfig;
import dev.breaker.core.BreakerRegistry;
import dev.breaker.core.ManualTicker;
import dev.breaker.core.Outcome;
import dev.breaker.core.OutcomeClassifier;
import dev.breaker.core.State;
import dev.breaker.core.Ticker;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ApplicationListener;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;

@ExtendWith(OutputCaptureExtension.class)
class BreakerAutoConfigurationTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, BreakerAutoConfiguration.class));

	@Test
	void isOnByDefault() {
		this.runner.run((context) -> assertThat(context).hasSingleBean(BreakerRegistry.class)
			.hasSingleBean(Ticker.class)
			.hasSingleBean(OutcomeClassifier.class)
			.hasSingleBean(CircuitGuardedAdvisor.class)
			.hasSingleBean(BreakerProperties.class));
	}

	@Test
	void isOffWithBreakerEnabledFalse() {
		this.runner.withPropertyValues("breaker.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(BreakerRegistry.class)
				.doesNotHaveBean(CircuitGuardedAdvisor.class)
				.doesNotHaveBean(BreakerProperties.class));
	}

	@Test
	void guardsWithoutAspectJ() {
		this.runner.withClassLoader(new FilteredClassLoader("org.aspectj"))
			.run((context) -> assertThat(context).hasSingleBean(BreakerRegistry.class)
				.hasSingleBean(CircuitGuardedAdvisor.class)
				.hasSingleBean(GuardedMethodRegistry.class));
	}

	@Test
	void createsTheRegistryOnlyOnceEveryPostProcessorIsRegistered() {
		this.runner.withUserConfiguration(Guarded.class, PostProcessed.class)
			.run((context) -> assertThat(context.getBean(PostProcessedBeans.class).names()).contains("breakerRegistry",
					"breakerGuardedMethods", "guardedClient"));
	}

	@Test
	void usersRegistryWins() {
		this.runner.withUserConfiguration(UserRegistry.class)
			.run((context) -> assertThat(context).getBean(BreakerRegistry.class)
				.isSameAs(context.getBean(UserRegistry.class).registry));
	}

	@Test
	void usersTickerDrivesEveryBreaker() {
		this.runner.withUserConfiguration(UserTicker.class).run((context) -> {
			ManualTicker ticker = context.getBean(ManualTicker.class);
			ticker.set(42_000);
			Breaker breaker = context.getBean(BreakerRegistry.class).breaker("payments");
			assertThat(breaker.config().ticker()).isSameAs(ticker);
			assertThat(breaker.nanos()).isEqualTo(42_000);
		});
	}

	@Test
	void usersClassifierIsTheBaseOfEveryBreaker() {
		this.runner.withUserConfiguration(UserClassifier.class)
			.withPropertyValues("breaker.instances.payments.ignore-exceptions=java.lang.IllegalArgumentException")
			.run((context) -> {
				BreakerRegistry registry = context.getBean(BreakerRegistry.class);
				OutcomeClassifier payments = registry.breaker("payments").config().classifier();
				assertThat(payments.classify("throttle me", null)).isEqualTo(Outcome.THROTTLED);
				assertThat(payments.classify(null, new IllegalArgumentException())).isEqualTo(Outcome.IGNORED);
				assertThat(registry.breaker("other").config().classifier().classify("throttle me", null))
					.isEqualTo(Outcome.THROTTLED);
			});
	}

	@Test
	void customizersShapeTheRegistry() {
		this.runner.withUserConfiguration(Customizer.class).run((context) -> {
			BreakerRegistry registry = context.getBean(BreakerRegistry.class);
			assertThat(registry.breaker("custom").config().consecutiveFailures()).isEqualTo(42);
		});
	}

	@Test
	void instancesInheritWhatTheyDoNotSetFromDefaults() {
		this.runner
			.withPropertyValues("breaker.defaults.failure-rate-threshold=30", "breaker.defaults.minimum-calls=7",
					"breaker.defaults.half-open.max-probes=4", "breaker.instances.payments.consecutive-failures=3",
					"breaker.instances.payments.open-wait=10s", "breaker.instances.payments.minimum-calls=9",
					"breaker.instances.payments.track-in-flight=true")
			.run((context) -> {
				BreakerRegistry registry = context.getBean(BreakerRegistry.class);
				BreakerConfig payments = registry.breaker("payments").config();
				assertThat(payments.consecutiveFailures()).isEqualTo(3);
				assertThat(payments.openWait()).isEqualTo(Duration.ofSeconds(10));
				assertThat(payments.minimumCalls()).isEqualTo(9);
				assertThat(payments.failureRateThreshold()).isEqualTo(30);
				assertThat(payments.halfOpenMaxProbes()).isEqualTo(4);
				assertThat(payments.window()).isEqualTo(BreakerConfig.defaults().window());
				assertThat(payments.trackInFlight()).isTrue();
				BreakerConfig unnamed = registry.breaker("unnamed").config();
				assertThat(unnamed.minimumCalls()).isEqualTo(7);
				assertThat(unnamed.consecutiveFailures()).isEqualTo(BreakerConfig.defaults().consecutiveFailures());
			});
	}

	@Test
	void recordLatencyIsOnByDefaultAndTurnsOffPerInstance() {
		this.runner.withPropertyValues("breaker.instances.bulk.record-latency=false").run((context) -> {
			BreakerRegistry registry = context.getBean(BreakerRegistry.class);
			assertThat(registry.breaker("payments").config().recordLatency()).isTrue();
			assertThat(registry.breaker("bulk").config().recordLatency()).isFalse();
			assertThat(registry.breaker("bulk").durations()).isNull();
		});
	}

	@Test
	void recordLatencyTurnsOffForEveryBreakerUnderDefaults() {
		this.runner
			.withPropertyValues("breaker.defaults.record-latency=false",
					"breaker.instances.payments.record-latency=true")
			.run((context) -> {
				BreakerRegistry registry = context.getBean(BreakerRegistry.class);
				assertThat(registry.breaker("unnamed").config().recordLatency()).isFalse();
				assertThat(registry.breaker("payments").config().recordLatency()).isTrue();
			});
	}

	@Test
	void publishesEveryTransitionAsAnApplicationEvent() {
		this.runner.withUserConfiguration(EventRecorder.class).run((context) -> {
			Breaker breaker = context.getBean(BreakerRegistry.class).breaker("payments");
			breaker.forceOpen();
			breaker.reset();
			List<BreakerTransitionEvent> events = context.getBean(EventRecorder.class).events;
			assertThat(events).extracting((event) -> event.transition().to())
				.containsExactly(State.FORCED_OPEN, State.CLOSED);
			assertThat(events.get(0).transition().breaker()).isEqualTo("payments");
			assertThat(events.get(0).transition().reason()).isEqualTo("operator");
		});
	}

	@Test
	void publishesTransitionsOfTenantChildren() {
		this.runner.withUserConfiguration(EventRecorder.class).run((context) -> {
			context.getBean(BreakerRegistry.class).breaker("recommendations", "alice").forceOpen();
			assertThat(context.getBean(EventRecorder.class).events).extracting((event) -> event.transition().breaker())
				.containsExactly("recommendations:alice");
		});
	}

	@Test
	void publishesTransitionsOfAUsersRegistryToo() {
		this.runner.withUserConfiguration(UserRegistry.class, EventRecorder.class).run((context) -> {
			context.getBean(BreakerRegistry.class).breaker("mine").forceOpen();
			assertThat(context.getBean(EventRecorder.class).events).hasSize(1);
		});
	}

	@Test
	void warnsOnceAboutAnInstanceNothingUses(CapturedOutput output) {
		this.runner.withPropertyValues("breaker.instances.paymnets.consecutive-failures=3").run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(output).containsOnlyOnce("'breaker.instances.paymnets' is configured, but no @CircuitGuarded "
					+ "method uses a breaker named 'paymnets' and no bean has created one (a typo?)");
		});
	}

	@Test
	void listsTheNamesInUseSorted(CapturedOutput output) {
		this.runner
			.withBean("someNames", BreakerNamesInUse.class,
					() -> () -> new java.util.LinkedHashSet<>(java.util.List.of("search", "payments", "inventory")))
			.withBean("moreNames", BreakerNamesInUse.class,
					() -> () -> new java.util.LinkedHashSet<>(java.util.List.of("recommendations", "catalog")))
			.withPropertyValues("breaker.instances.paymnets.consecutive-failures=3")
			.run((context) -> assertThat(output)
				.contains("Names in use: [catalog, inventory, payments, recommendations, search]"));
	}

	@Test
	void doesNotWarnAboutAnInstanceABeanCreated(CapturedOutput output) {
		this.runner.withUserConfiguration(CreatesPayments.class)
			.withPropertyValues("breaker.instances.payments.consecutive-failures=3")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(output).doesNotContain("'breaker.instances.payments' is configured");
			});
	}

	@Configuration(proxyBeanMethods = false)
	static class UserRegistry {

		final BreakerRegistry registry = BreakerRegistry.builder().build();

		@Bean
		BreakerRegistry myRegistry() {
			return this.registry;
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class UserTicker {

		@Bean
		ManualTicker manualTicker() {
			return new ManualTicker();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class UserClassifier {

		@Bean
		OutcomeClassifier throttleAwareClassifier() {
			OutcomeClassifier defaults = OutcomeClassifier.defaults();
			return (result, error) -> "throttle me".equals(result) ? Outcome.THROTTLED
					: defaults.classify(result, error);
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class Customizer {

		@Bean
		BreakerRegistryCustomizer custom() {
			return (builder) -> builder.config("custom", BreakerConfig.builder().consecutiveFailures(42).build());
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class EventRecorder implements ApplicationListener<BreakerTransitionEvent> {

		final List<BreakerTransitionEvent> events = new CopyOnWriteArrayList<>();

		@Override
		public void onApplicationEvent(BreakerTransitionEvent event) {
			this.events.add(event);
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class CreatesPayments {

		@Bean
		Breaker paymentsBreaker(BreakerRegistry registry) {
			return registry.breaker("payments");
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class Guarded {

		@Bean
		GuardedClient guardedClient() {
			return new GuardedClient();
		}

	}

	static class GuardedClient {

		@dev.breaker.annotation.CircuitGuarded(name = "client")
		public String call() {
			return "ok";
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class PostProcessed {

		@Bean
		static PostProcessedBeans postProcessedBeans() {
			return new PostProcessedBeans();
		}

	}

	/**
	 * Registered last of the post-processors: it sees only the beans created after all of
	 * them.
	 */
	static class PostProcessedBeans implements org.springframework.beans.factory.config.BeanPostProcessor {

		private final List<String> names = new CopyOnWriteArrayList<>();

		@Override
		public Object postProcessAfterInitialization(Object bean, String beanName) {
			this.names.add(beanName);
			return bean;
		}

		List<String> names() {
			return this.names;
		}

	}

}
