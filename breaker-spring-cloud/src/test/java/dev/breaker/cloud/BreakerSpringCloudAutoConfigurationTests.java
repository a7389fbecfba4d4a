package dev.breaker.cloud;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeoutException;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

import dev.breaker.autoconfigure.BreakerAutoConfiguration;
import dev.breaker.cloud.autoconfigure.BreakerSpringCloudAutoConfiguration;
import dev.breaker.core.Breaker;
import dev.breaker.core.BreakerOpenException;
import dev.breaker.core.BreakerRegistry;
import dev.breaker.core.ManualTicker;
import dev.breaker.core.Outcome;
import dev.breaker.core.OutcomeClassifier;
import dev.breaker.core.State;
import feign.FeignException;
import feign.Request;
import feign.Response;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.cloud.client.circuitbreaker.CircuitBreakerFactory;
import org.springframework.cloud.client.circuitbreaker.Customizer;
import org.springframework.cloud.client.circuitbreaker.ReactiveCircuitBreakerFactory;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

class BreakerSpringCloudAutoConfigurationTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(
				AutoConfigurations.of(BreakerAutoConfiguration.class, BreakerSpringCloudAutoConfiguration.class))
		.withUserConfiguration(Ticking.class)
		.withPropertyValues("breaker.defaults.failure-rate-threshold=0",
				"breaker.instances.payments.consecutive-failures=2", "breaker.instances.payments.open-wait=7s");

	@Test
	void createsTheRegistrysBreakerConfiguredFromItsInstance() {
		this.runner.run((context) -> {
			Breaker breaker = factory(context.getBean(CircuitBreakerFactory.class)).create("payments").breaker();
			assertThat(breaker).isSameAs(context.getBean(BreakerRegistry.class).breaker("payments"));
			assertThat(breaker.config().consecutiveFailures()).isEqualTo(2);
			assertThat(breaker.config().openWait()).isEqualTo(Duration.ofSeconds(7));
			assertThat(context.getBean(ReactiveCircuitBreakerFactory.class))
				.isInstanceOf(ReactiveBreakerCircuitBreakerFactory.class);
		});
	}

	@Test
	void recordsOutcomesAndFallsBackWithTheCauseThenWithTheRejection() {
		this.runner.run((context) -> {
			BreakerCircuitBreaker payments = factory(context.getBean(CircuitBreakerFactory.class)).create("payments");
			assertThat(payments.run(() -> "paid", (cause) -> "queued")).isEqualTo("paid");
			AtomicReference<Throwable> seen = new AtomicReference<>();
			for (int i = 0; i < 2; i++) {
				assertThat(payments.<String>run(() -> {
					throw new UncheckedIOException(new IOException("reset"));
				}, (cause) -> {
					seen.set(cause);
					return "queued";
				})).isEqualTo("queued");
				assertThat(seen.get()).isInstanceOf(UncheckedIOException.class);
			}
			assertThat(payments.breaker().state()).isEqualTo(State.OPEN);
			assertThat(payments.run(() -> "paid", (cause) -> {
				seen.set(cause);
				return "queued";
			})).isEqualTo("queued");
			assertThat(seen.get()).isInstanceOf(BreakerOpenException.class);
			assertThat(payments.breaker().totals().calls(Outcome.SUCCESS)).isEqualTo(1);
			assertThat(payments.breaker().totals().calls(Outcome.FAILURE)).isEqualTo(2);
			assertThat(payments.breaker().totals().rejected()).isEqualTo(1);
		});
	}

	@Test
	void aGroupIsTheDependencysBreakerAndTheIdItsChild() {
		this.runner.run((context) -> {
			BreakerCircuitBreaker charge = factory(context.getBean(CircuitBreakerFactory.class)).create("charge",
					"payments");
			assertThat(charge.breaker().name()).isEqualTo("payments:charge");
			assertThat(charge.breaker().config().consecutiveFailures()).isEqualTo(2);
			BreakerRegistry registry = context.getBean(BreakerRegistry.class);
			registry.breaker("payments").forceOpen();
			AtomicReference<Throwable> seen = new AtomicReference<>();
			charge.run(() -> "paid", (cause) -> {
				seen.set(cause);
				return "queued";
			});
			assertThat(seen.get()).isSameAs(registry.breaker("payments").rejection());
		});
	}

	@Test
	void aCustomizerConfiguresABreakerOverItsProperties() {
		this.runner.withUserConfiguration(Customized.class).run((context) -> {
			Breaker payments = context.getBean(BreakerRegistry.class).breaker("payments");
			assertThat(payments.config().consecutiveFailures()).isEqualTo(1);
			assertThat(payments.config().openWait()).isEqualTo(Duration.ofSeconds(7));
		});
	}

	@Test
	void refusesConfigurationOnceTheRegistryIsBuilt() {
		this.runner.run((context) -> assertThatIllegalStateException()
			.isThrownBy(() -> factory(context.getBean(CircuitBreakerFactory.class))
				.configure((builder) -> builder.tune((config) -> config.consecutiveFailures(1)), "payments"))
			.withMessage("configure(...) on breaker's Spring Cloud factory after the breaker registry was built: "
					+ "call it from a Customizer bean, or configure breaker.instances.<id>"));
	}

	@Test
	void configuringNoIdsOnceTheRegistryIsBuiltConfiguresNothingAsSpringCloudsLoopDoes() {
		this.runner.run((context) -> {
			AtomicReference<BreakerConfigBuilder> consumed = new AtomicReference<>();
			factory(context.getBean(CircuitBreakerFactory.class)).configure(consumed::set);
			reactive(context.getBean(ReactiveCircuitBreakerFactory.class)).configure(consumed::set, new String[0]);
			assertThat(consumed.get()).as("a builder handed to the consumer").isNull();
			assertThat(context.getBean(BreakerRegistry.class).breaker("payments").config().consecutiveFailures())
				.isEqualTo(2);
		});
	}

	@Test
	void reactiveCallsAreRecordedWhenTheyTerminateAndFallBackWhenRejected() {
		this.runner.run((context) -> {
			ReactiveBreakerCircuitBreaker payments = reactive(context.getBean(ReactiveCircuitBreakerFactory.class))
				.create("payments");
			Mono<String> paid = Mono.just("paid");
			assertThat(payments.run(paid, (cause) -> Mono.just("queued")).block()).isEqualTo("paid");
			assertThat(payments.run(Flux.just("a", "b"), (cause) -> Flux.just("x")).collectList().block())
				.containsExactly("a", "b");
			Mono<String> failing = Mono.error(new IOException("reset"));
			assertThat(
					payments.run(failing, (cause) -> Mono.just("queued " + cause.getClass().getSimpleName())).block())
				.isEqualTo("queued IOException");
			assertThat(payments.run(Flux.<String>error(new IOException("reset")), (cause) -> Flux.just("x"))
				.collectList()
				.block()).containsExactly("x");
			assertThat(payments.breaker().state()).isEqualTo(State.OPEN);
			assertThat(payments.run(paid, (cause) -> Mono.just("queued " + cause.getClass().getSimpleName())).block())
				.isEqualTo("queued BreakerOpenException");
			assertThat(payments.breaker().totals().calls(Outcome.SUCCESS)).isEqualTo(2);
			assertThat(payments.breaker().totals().calls(Outcome.FAILURE)).isEqualTo(2);
			assertThat(payments.breaker().totals().rejected()).isEqualTo(1);
		});
	}

	@Test
	void aReactiveCallThatOutlivesItsTimeoutIsATimeout() {
		this.runner.withPropertyValues("breaker.instances.slow.timeout=50ms").run((context) -> {
			ReactiveBreakerCircuitBreaker slow = reactive(context.getBean(ReactiveCircuitBreakerFactory.class))
				.create("slow");
			AtomicReference<Throwable> seen = new AtomicReference<>();
			String answer = slow.run(Mono.<String>never(), (cause) -> {
				seen.set(cause);
				return Mono.just("late");
			}).block(Duration.ofSeconds(30));
			assertThat(answer).isEqualTo("late");
			assertThat(seen.get()).isInstanceOf(TimeoutException.class)
				.hasMessage("breaker 'slow': did not complete within PT0.05S");
			assertThat(slow.breaker().totals().calls(Outcome.TIMEOUT)).isEqualTo(1);
		});
	}

	@Test
	void aHalfOpenReactiveChildRefusedByItsForcedOpenGroupFallsBackWithTheGroupsRejection() {
		this.runner.withPropertyValues("breaker.instances.payments.open-wait-jitter=0").run((context) -> {
			ReactiveBreakerCircuitBreaker charge = reactive(context.getBean(ReactiveCircuitBreakerFactory.class))
				.create("charge", "payments");
			for (int i = 0; i < 2; i++) {
				charge.run(Mono.<String>error(new IOException("reset")), (cause) -> Mono.just("queued")).block();
			}
			assertThat(charge.breaker().state()).isEqualTo(State.OPEN);
			context.getBean(ManualTicker.class).advance(Duration.ofSeconds(8));
			assertThat(charge.breaker().state()).isEqualTo(State.HALF_OPEN);
			Breaker payments = context.getBean(BreakerRegistry.class).breaker("payments");
			payments.forceOpen();
			AtomicReference<Throwable> seen = new AtomicReference<>();
			assertThat(charge.run(Mono.just("paid"), (cause) -> {
				seen.set(cause);
				return Mono.just("queued");
			}).block()).isEqualTo("queued");
			assertThat(seen.get()).as("what the fallback was told").isSameAs(payments.rejection());
			assertThat(charge.run(Flux.just("paid"), (cause) -> {
				seen.set(cause);
				return Flux.just("queued");
			}).collectList().block()).containsExactly("queued");
			assertThat(seen.get()).as("what the Flux fallback was told").isSameAs(payments.rejection());
		});
	}

	@Test
	void aClassifierThatThrowsNeitherReachesTheFallbackNorKeepsTheCallInFlight() {
		this.runner.withBean("throwingClassifier", OutcomeClassifier.class, () -> (result, error) -> {
			throw new IllegalArgumentException("bug in the application's classifier");
		}).withPropertyValues("breaker.instances.payments.track-in-flight=true").run((context) -> {
			ReactiveBreakerCircuitBreaker payments = reactive(context.getBean(ReactiveCircuitBreakerFactory.class))
				.create("payments");
			AtomicReference<Throwable> seen = new AtomicReference<>();
			IOException reset = new IOException("reset");
			assertThat(payments.run(Mono.<String>error(reset), (cause) -> {
				seen.set(cause);
				return Mono.just("queued");
			}).block()).isEqualTo("queued");
			assertThat(seen.get()).as("what the Mono fallback was told").isSameAs(reset);
			assertThat(payments.run(Flux.<String>error(reset), (cause) -> {
				seen.set(cause);
				return Flux.just("queued");
			}).collectList().block()).containsExactly("queued");
			assertThat(seen.get()).as("what the Flux fallback was told").isSameAs(reset);
			assertThat(payments.breaker().snapshot().inFlight()).as("calls in flight").isZero();
			assertThat(payments.breaker().totals().calls(Outcome.FAILURE)).isEqualTo(2);
		});
	}

	@Test
	void aCancelledSubscriptionIsIgnored() {
		this.runner.run((context) -> {
			ReactiveBreakerCircuitBreaker payments = reactive(context.getBean(ReactiveCircuitBreakerFactory.class))
				.create("payments");
			payments.run(Mono.<String>never(), (cause) -> Mono.just("x")).subscribe().dispose();
			assertThat(payments.breaker().totals().calls(Outcome.IGNORED)).isEqualTo(1);
		});
	}

	@Test
	void isOffWithItsProperty() {
		this.runner.withPropertyValues("spring.cloud.circuitbreaker.breaker.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(CircuitBreakerFactory.class)
				.doesNotHaveBean(ReactiveCircuitBreakerFactory.class)
				.hasSingleBean(BreakerRegistry.class));
	}

	@ParameterizedTest
	@ValueSource(strings = { "true", "on", "yes", "1", "TRUE" })
	void isOnForEveryValueSpringReadsAsTrue(String on) {
		this.runner.withPropertyValues("spring.cloud.circuitbreaker.breaker.enabled=" + on)
			.run((context) -> assertThat(context).as("spring.cloud.circuitbreaker.breaker.enabled=%s", on)
				.hasSingleBean(CircuitBreakerFactory.class)
				.hasSingleBean(ReactiveCircuitBreakerFactory.class));
	}

	@ParameterizedTest
	@ValueSource(strings = { "off", "no", "0" })
	void isOffForEveryValueSpringReadsAsFalse(String off) {
		this.runner.withPropertyValues("spring.cloud.circuitbreaker.breaker.enabled=" + off)
			.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(CircuitBreakerFactory.class));
	}

	@Test
	void aTypoInItsSwitchStopsStartUpNamingThePropertyAndWhatIsAllowed() {
		this.runner.withPropertyValues("spring.cloud.circuitbreaker.breaker.enabled=ture")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.hasMessageContaining("'spring.cloud.circuitbreaker.breaker.enabled'")
				.hasMessageContaining("'ture'")
				.hasMessageContaining("true or false"));
	}

	@Test
	void isOffWithoutSpringCloudCircuitBreaker() {
		this.runner.withClassLoader(new FilteredClassLoader(CircuitBreakerFactory.class))
			.run((context) -> assertThat(context).doesNotHaveBean(CloudBreakers.class)
				.hasSingleBean(BreakerRegistry.class));
	}

	@Test
	void theDefaultClassifierJudgesAFeignStatusExceptionByItsStatus() {
		this.runner.run((context) -> {
			OutcomeClassifier classifier = context.getBean(OutcomeClassifier.class);
			assertThat(classifier.classify(null, feignException(404))).isEqualTo(Outcome.IGNORED);
			assertThat(classifier.classify(null, feignException(429))).isEqualTo(Outcome.THROTTLED);
			assertThat(classifier.classify(null, feignException(500))).isEqualTo(Outcome.FAILURE);
		});
	}

	@Test
	void withoutFeignNoFeignStatusIsRead() {
		this.runner.withClassLoader(new FilteredClassLoader("feign"))
			.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(FeignStatus.class));
	}

	@Test
	void aClassifierBeanOfTheUsersWinsOverFeignsStatuses() {
		this.runner.withBean(OutcomeClassifier.class, OutcomeClassifier::defaults)
			.run((context) -> assertThat(context.getBean(OutcomeClassifier.class).classify(null, feignException(404)))
				.isEqualTo(Outcome.FAILURE));
	}

	private static FeignException feignException(int status) {
		Request request = Request.create(Request.HttpMethod.GET, "http://orders/orders/1", Map.of(), null,
				StandardCharsets.UTF_8, null);
		return FeignException.errorStatus("OrdersClient#order(String)",
				Response.builder().status(status).reason("").request(request).headers(Map.of()).build());
	}

	@Test
	void isOffWithBreakerOff() {
		this.runner.withPropertyValues("breaker.enabled=false")
			.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(CircuitBreakerFactory.class));
	}

	@Test
	void usersFactoryWins() {
		this.runner.withUserConfiguration(UsersFactory.class)
			.run((context) -> assertThat(context.getBean(CircuitBreakerFactory.class))
				.isSameAs(context.getBean(UsersFactory.class).factory));
	}

	private static BreakerCircuitBreakerFactory factory(CircuitBreakerFactory<?, ?> factory) {
		return (BreakerCircuitBreakerFactory) factory;
	}

	private static ReactiveBreakerCircuitBreakerFactory reactive(ReactiveCircuitBreakerFactory<?, ?> factory) {
		return (ReactiveBreakerCircuitBreakerFactory) factory;
	}

	@Configuration(proxyBeanMethods = false)
	static class Ticking {

		@Bean
		ManualTicker ticker() {
			return new ManualTicker();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class Customized {

		@Bean
		Customizer<BreakerCircuitBreakerFactory> strictPayments() {
			return (factory) -> factory.configure((builder) -> builder.tune((config) -> config.consecutiveFailures(1)),
					"payments");
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class UsersFactory {

		final BreakerCircuitBreakerFactory factory = new BreakerCircuitBreakerFactory(
				new CloudBreakers(() -> BreakerRegistry.builder().build(),
						(id) -> dev.breaker.core.BreakerConfig.defaults(), (id) -> null));

		@Bean
		CircuitBreakerFactory<?, ?> usersFactory() {
			return this.factory;
		}

	}

}
