package dev.breaker.observation;

import dev.breaker.autoconfigure.observation.BreakerObservationAutoConfiguration;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistry;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import dev.breaker.annotation.CircuitGuarded;
import dev.breaker.autoconfigure.BreakerAutoConfiguration;
import dev.breaker.core.BreakerRegistry;
import dev.breaker.core.ManualTicker;

import static io.micrometer.observation.tck.TestObservationRegistryAssert.assertThat;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * A guarded call inside an observation: the observation says which breaker guarded it and
 * in which state, and gets an event when the breaker rejects the call, when a fallback
 * answers, and for every transition that happens on its thread. No observation of its
 * own.
 */
class BreakerObservationsTests {

	private final TestObservationRegistry observations = TestObservationRegistry.create();

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, BreakerAutoConfiguration.class,
				BreakerObservationAutoConfiguration.class))
		.withUserConfiguration(Services.class)
		.withBean(ObservationRegistry.class, () -> this.observations)
		.withPropertyValues("breaker.defaults.consecutive-failures=2", "breaker.defaults.failure-rate-threshold=0");

	private static <T> T inCheckout(ObservationRegistry registry, java.util.function.Supplier<T> call) {
		return Observation.createNotStarted("checkout", registry).observe(call);
	}

	@Test
	void aGuardedCallInsideAnObservationNamesItsBreakerAndState() {
		this.runner.run((context) -> {
			Payments payments = context.getBean(Payments.class);
			assertThat(inCheckout(this.observations, () -> payments.charge("ok"))).isEqualTo("charged");

			assertThat(this.observations).hasObservationWithNameEqualTo("checkout")
				.that()
				.hasHighCardinalityKeyValue("circuitbreaker.name", "payments")
				.hasHighCardinalityKeyValue("circuitbreaker.state", "CLOSED")
				.doesNotHaveEvent("breaker.rejected")
				.doesNotHaveEvent("breaker.fallback");
			assertThat(this.observations).hasNumberOfObservationsEqualTo(1);
		});
	}

	@Test
	void aRejectedCallIsAnEventOnTheObservation() {
		this.runner.run((context) -> {
			Payments payments = context.getBean(Payments.class);
			context.getBean(BreakerRegistry.class).breaker("payments").forceOpen();
			this.observations.clear();

			assertThat(inCheckout(this.observations, () -> payments.charge("ok"))).isEqualTo("queued");

			assertThat(this.observations).hasObservationWithNameEqualTo("checkout")
				.that()
				.hasHighCardinalityKeyValue("circuitbreaker.state", "FORCED_OPEN")
				.hasEvent("breaker.rejected", "breaker.rejected payments")
				.hasEvent("breaker.fallback", "breaker.fallback payments queueForLater");
		});
	}

	@Test
	void aRejectionWithoutFallbackIsAnEventToo() {
		this.runner.run((context) -> {
			Ledger ledger = context.getBean(Ledger.class);
			context.getBean(BreakerRegistry.class).breaker("ledger").forceOpen();
			this.observations.clear();

			assertThatExceptionOfType(RuntimeException.class)
				.isThrownBy(() -> inCheckout(this.observations, () -> ledger.post("x")));

			assertThat(this.observations).hasObservationWithNameEqualTo("checkout")
				.that()
				.hasEvent("breaker.rejected", "breaker.rejected ledger")
				.doesNotHaveEvent("breaker.fallback");
		});
	}

	@Test
	void aFallbackAnsweringAFailureIsAnEvent() {
		this.runner.run((context) -> {
			Payments payments = context.getBean(Payments.class);

			assertThat(inCheckout(this.observations, () -> payments.charge("fail"))).isEqualTo("queued");

			assertThat(this.observations).hasObservationWithNameEqualTo("checkout")
				.that()
				.hasEvent("breaker.fallback", "breaker.fallback payments queueForLater")
				.doesNotHaveEvent("breaker.rejected");
		});
	}

	@Test
	void aTransitionIsAnEventOnTheObservationOfTheCallThatCausedIt() {
		this.runner.run((context) -> {
			Payments payments = context.getBean(Payments.class);
			payments.charge("fail");

			inCheckout(this.observations, () -> payments.charge("fail"));

			assertThat(this.observations).hasObservationWithNameEqualTo("checkout")
				.that()
				.hasEvent("breaker.transition", "breaker.transition payments CLOSED -> OPEN");
		});
	}

	@Test
	void anOperatorsTransitionIsAnEventOnWhateverObservationIsCurrent() {
		this.runner.run((context) -> {
			BreakerRegistry registry = context.getBean(BreakerRegistry.class);
			registry.breaker("inventory");
			Observation.createNotStarted("operator", this.observations)
				.observe(() -> registry.breaker("inventory").forceOpen());

			assertThat(this.observations).hasObservationWithNameEqualTo("operator")
				.that()
				.hasEvent("breaker.transition", "breaker.transition inventory CLOSED -> FORCED_OPEN");
		});
	}

	@Test
	void aCallOutsideAnyObservationCreatesNone() {
		this.runner.run((context) -> {
			Payments payments = context.getBean(Payments.class);
			payments.charge("ok");
			context.getBean(BreakerRegistry.class).breaker("payments").forceOpen();
			payments.charge("ok");

			assertThat(this.observations).doesNotHaveAnyObservation();
		});
	}

	@Test
	void anAsynchronousCallNamesItsBreakerOnTheObservationItStartedIn() {
		this.runner.run((context) -> {
			Payments payments = context.getBean(Payments.class);
			inCheckout(this.observations, () -> payments.refund("ok").toCompletableFuture().join());

			assertThat(this.observations).hasObservationWithNameEqualTo("checkout")
				.that()
				.hasHighCardinalityKeyValue("circuitbreaker.name", "refunds");
		});
	}

	@Test
	void noObservationsWithoutAnObservationRegistryBean() {
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, BreakerAutoConfiguration.class,
					BreakerObservationAutoConfiguration.class))
			.withUserConfiguration(Services.class)
			.run((context) -> {
				assertThat(context).doesNotHaveBean(BreakerObservations.class);
				assertThat(context.getBean(Payments.class).charge("ok")).isEqualTo("charged");
			});
	}

	@Test
	void noObservationsWithoutMicrometerObservation() {
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, BreakerAutoConfiguration.class,
					BreakerObservationAutoConfiguration.class))
			.withClassLoader(new FilteredClassLoader(ObservationRegistry.class))
			.withUserConfiguration(Services.class)
			.run((context) -> {
				assertThat(context).hasNotFailed().doesNotHaveBean(BreakerObservations.class);
				assertThat(context.getBean(Payments.class).charge("ok")).isEqualTo("charged");
			});
	}

	@Test
	void theUsersOwnBeanWins() {
		this.runner
			.withBean("myObservations", BreakerObservations.class, () -> new BreakerObservations(this.observations))
			.run((context) -> assertThat(context).getBean(BreakerObservations.class)
				.isSameAs(context.getBean("myObservations")));
	}

	@Configuration(proxyBeanMethods = false)
	static class Services {

		@Bean
		ManualTicker breakerTicker() {
			return new ManualTicker();
		}

		@Bean
		Payments payments() {
			return new Payments();
		}

		@Bean
		Ledger ledger() {
			return new Ledger();
		}

	}

	public static class Payments {

		@CircuitGuarded(name = "payments", fallbackMethod = "queueForLater")
		public String charge(String how) {
			if (how.equals("fail")) {
				throw new UncheckedIOException(new IOException("gateway down"));
			}
			return "charged";
		}

		public String queueForLater(String how, Throwable cause) {
			return "queued";
		}

		@CircuitGuarded(name = "refunds")
		public CompletionStage<String> refund(String how) {
			return CompletableFuture.completedFuture("refunded");
		}

	}

	public static class Ledger {

		@CircuitGuarded(name = "ledger")
		public String post(String entry) {
			return "posted";
		}

	}

}
