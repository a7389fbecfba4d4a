package dev.breaker.aspect;

import java.io.IOException;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import dev.breaker.annotation.CircuitGuarded;
import dev.breaker.autoconfigure.BreakerAutoConfiguration;
import dev.breaker.core.BreakerOpenException;
import dev.breaker.core.BreakerRegistry;
import dev.breaker.core.ManualTicker;
import dev.breaker.core.State;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

import static org.assertj.core.api.Assertions.assertThat;

class TenantTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, BreakerAutoConfiguration.class))
		.withUserConfiguration(Services.class)
		.withPropertyValues("breaker.instances.recommendations.consecutive-failures=3",
				"breaker.instances.recommendations.failure-rate-threshold=0");

	@Test
	void oneTenantTripsWhileTheOtherKeepsFlowing() {
		this.runner.run((context) -> {
			Recommendations recommendations = context.getBean(Recommendations.class);
			BreakerRegistry registry = context.getBean(BreakerRegistry.class);
			recommendations.failFor("alice");
			for (int i = 0; i < 3; i++) {
				assertThat(recommendations.recommend("alice")).isEqualTo("popular after IOException");
				assertThat(recommendations.recommend("bob")).isEqualTo("for bob");
			}
			assertThat(registry.find("recommendations:alice"))
				.hasValueSatisfying((breaker) -> assertThat(breaker.state()).isEqualTo(State.OPEN));
			assertThat(registry.breaker("recommendations").state()).isEqualTo(State.CLOSED);
			assertThat(recommendations.recommend("alice")).isEqualTo("popular after recommendations:alice rejected");
			assertThat(recommendations.recommend("bob")).isEqualTo("for bob");
			assertThat(recommendations.calls("alice")).isEqualTo(3);
			assertThat(recommendations.calls("bob")).isEqualTo(4);
		});
	}

	@Test
	void theDependencysOwnBreakerRejectsEveryTenant() {
		this.runner.run((context) -> {
			Recommendations recommendations = context.getBean(Recommendations.class);
			assertThat(recommendations.recommend("alice")).isEqualTo("for alice");
			context.getBean(BreakerRegistry.class).breaker("recommendations").forceOpen();
			assertThat(recommendations.recommend("alice")).isEqualTo("popular after recommendations rejected");
			assertThat(recommendations.recommend("bob")).isEqualTo("popular after recommendations rejected");
			assertThat(recommendations.calls("alice")).isEqualTo(1);
			assertThat(recommendations.calls("bob")).isZero();
		});
	}

	@Test
	void aHalfOpenTenantRefusedByTheDependencysBreakerIsToldTheDependencysBreakerRejected() {
		this.runner.withPropertyValues("breaker.instances.recommendations.open-wait-jitter=0").run((context) -> {
			Recommendations recommendations = context.getBean(Recommendations.class);
			BreakerRegistry registry = context.getBean(BreakerRegistry.class);
			recommendations.failFor("alice");
			for (int i = 0; i < 3; i++) {
				recommendations.recommend("alice");
			}
			context.getBean(ManualTicker.class).advance(Duration.ofSeconds(31));
			assertThat(registry.find("recommendations:alice").orElseThrow().state()).isEqualTo(State.HALF_OPEN);
			registry.breaker("recommendations").forceOpen();
			assertThat(recommendations.recommend("alice")).isEqualTo("popular after recommendations rejected");
			assertThat(recommendations.calls("alice")).isEqualTo(3);
		});
	}

	@Test
	void eachTenantGetsAChildOfTheDependencysBreaker() {
		this.runner.run((context) -> {
			Recommendations recommendations = context.getBean(Recommendations.class);
			recommendations.recommend("alice");
			recommendations.recommend("bob");
			BreakerRegistry registry = context.getBean(BreakerRegistry.class);
			assertThat(registry.children("recommendations")).extracting((breaker) -> breaker.name())
				.containsExactlyInAnyOrder("recommendations:alice", "recommendations:bob");
			assertThat(registry.find("recommendations:alice").orElseThrow().parent())
				.isSameAs(registry.breaker("recommendations"));
		});
	}

	@Test
	void keepsAtMostTenantsMaxChildren() {
		this.runner.withPropertyValues("breaker.instances.recommendations.tenants.max=2").run((context) -> {
			Recommendations recommendations = context.getBean(Recommendations.class);
			recommendations.recommend("alice");
			recommendations.recommend("bob");
			recommendations.recommend("carol");
			assertThat(context.getBean(BreakerRegistry.class).children("recommendations")).hasSize(2);
		});
	}

	@Test
	void usesTheDependencysBreakerAloneWhenTheTenantIsNull() {
		this.runner.run((context) -> {
			Recommendations recommendations = context.getBean(Recommendations.class);
			assertThat(recommendations.recommend(null)).isEqualTo("for null");
			assertThat(context.getBean(BreakerRegistry.class).children("recommendations")).isEmpty();
		});
	}

	@Configuration(proxyBeanMethods = false)
	@Import(ManualTime.class)
	static class Services {

		@Bean
		Recommendations recommendations() {
			return new Recommendations();
		}

	}

	static class Recommendations {

		private final Set<String> failing = ConcurrentHashMap.newKeySet();

		private final ConcurrentHashMap<String, AtomicInteger> calls = new ConcurrentHashMap<>();

		@CircuitGuarded(name = "recommendations", tenant = "#userId", fallbackMethod = "popular")
		public String recommend(String userId) throws IOException {
			this.calls.computeIfAbsent(String.valueOf(userId), (key) -> new AtomicInteger()).incrementAndGet();
			if (userId != null && this.failing.contains(userId)) {
				throw new IOException("shard of " + userId + " is down");
			}
			return "for " + userId;
		}

		String popular(String userId, Throwable cause) {
			if (cause instanceof BreakerOpenException rejection) {
				return "popular after " + rejection.breaker() + " rejected";
			}
			return "popular after " + cause.getClass().getSimpleName();
		}

		void failFor(String userId) {
			this.failing.add(userId);
		}

		int calls(String userId) {
			AtomicInteger count = this.calls.get(userId);
			return (count != null) ? count.get() : 0;
		}

	}

}
