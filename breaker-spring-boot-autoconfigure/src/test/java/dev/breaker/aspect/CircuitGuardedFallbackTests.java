package dev.breaker.aspect;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.net.SocketException;
import java.util.List;

import dev.breaker.annotation.CircuitGuarded;
import dev.breaker.autoconfigure.BreakerAutoConfiguration;
import dev.breaker.core.BreakerOpenException;
import dev.breaker.core.BreakerRegistry;
import dev.breaker.core.Outcome;
import dev.breaker.core.OutcomeClassifier;
import dev.breaker.core.State;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.ContextConsumer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

import static dev.breaker.aspect.ManualTime.calls;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.catchThrowable;

class CircuitGuardedFallbackTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, BreakerAutoConfiguration.class))
		.withUserConfiguration(Services.class)
		.withPropertyValues("breaker.defaults.consecutive-failures=2", "breaker.defaults.failure-rate-threshold=0",
				"breaker.instances.validated.ignore-exceptions=java.lang.IllegalArgumentException");

	@Test
	void returnsTheValueWhenTheCallSucceeds() {
		run((context) -> {
			assertThat(context.getBean(Quotes.class).quote("AAPL")).isEqualTo("live");
			assertThat(calls(context, "quotes", Outcome.SUCCESS)).isEqualTo(1);
		});
	}

	@Test
	void runsTheFallbackForACountedFailure() {
		run((context) -> {
			Quotes quotes = context.getBean(Quotes.class);
			quotes.script().then(new IOException("connection reset"));
			assertThat(quotes.quote("AAPL")).isEqualTo("cached AAPL (IOException)");
			assertThat(calls(context, "quotes", Outcome.FAILURE)).isEqualTo(1);
		});
	}

	@Test
	void aClassifierThatThrowsNeitherReachesTheCallerNorKeepsTheCallInFlight() {
		this.runner.withBean("throwingClassifier", OutcomeClassifier.class, () -> (result, error) -> {
			throw new IllegalArgumentException("bug in the application's classifier");
		}).withPropertyValues("breaker.instances.catalog.track-in-flight=true").run((context) -> {
			Catalog catalog = context.getBean(Catalog.class);
			IllegalStateException down = new IllegalStateException("catalog is down");
			catalog.script().then(down);
			assertThat(catchThrowable(() -> catalog.item("42"))).as("what the caller got").isSameAs(down);
			assertThat(catalog.item("43")).isEqualTo("live");
			BreakerRegistry registry = context.getBean(BreakerRegistry.class);
			assertThat(registry.breaker("catalog").snapshot().inFlight()).isZero();
			assertThat(calls(context, "catalog", Outcome.FAILURE)).isEqualTo(1);
			assertThat(calls(context, "catalog", Outcome.SUCCESS)).isEqualTo(1);
		});
	}

	@Test
	void runsTheFallbackWhenTheBreakerRejects() {
		run((context) -> {
			Quotes quotes = context.getBean(Quotes.class);
			context.getBean(BreakerRegistry.class).breaker("quotes").forceOpen();
			assertThat(quotes.quote("AAPL")).isEqualTo("cached AAPL (BreakerOpenException)");
			assertThat(quotes.script().calls()).isZero();
		});
	}

	@Test
	void opensAfterConsecutiveFailuresAndStopsCallingTheDependency() {
		run((context) -> {
			Quotes quotes = context.getBean(Quotes.class);
			quotes.script().then(new IOException("1"), new IOException("2"));
			quotes.quote("AAPL");
			quotes.quote("AAPL");
			assertThat(context.getBean(BreakerRegistry.class).breaker("quotes").state()).isEqualTo(State.OPEN);
			assertThat(quotes.quote("AAPL")).isEqualTo("cached AAPL (BreakerOpenException)");
			assertThat(quotes.script().calls()).isEqualTo(2);
		});
	}

	@Test
	void letsAnIgnoredExceptionThroughUnchangedWithoutFallback() {
		run((context) -> {
			Validated validated = context.getBean(Validated.class);
			IllegalArgumentException invalid = new IllegalArgumentException("quantity must be positive");
			validated.script().then(invalid);
			assertThat(catchThrowable(() -> validated.check("-1"))).isSameAs(invalid);
			assertThat(context.getBean(RecordingObserver.class).runs).isEmpty();
			assertThat(calls(context, "validated", Outcome.IGNORED)).isEqualTo(1);
			assertThat(calls(context, "validated", Outcome.FAILURE)).isZero();
		});
	}

	@Test
	void rethrowsTheFailureWhenThereIsNoFallback() {
		run((context) -> {
			Catalog catalog = context.getBean(Catalog.class);
			IOException down = new IOException("catalog down");
			catalog.script().then(down);
			assertThat(catchThrowable(() -> catalog.item("42"))).isSameAs(down);
			assertThat(calls(context, "catalog", Outcome.FAILURE)).isEqualTo(1);
		});
	}

	@Test
	void guardsEveryPublicMethodOfAnAnnotatedClass() {
		run((context) -> {
			context.getBean(BreakerRegistry.class).breaker("catalog").forceOpen();
			Catalog catalog = context.getBean(Catalog.class);
			assertThatExceptionOfType(BreakerOpenException.class).isThrownBy(() -> catalog.item("42"));
			assertThatExceptionOfType(BreakerOpenException.class).isThrownBy(() -> catalog.price("42"));
			assertThat(catalog.script().calls()).isZero();
			assertThat(catalog.toString()).startsWith("catalog with");
		});
	}

	@Test
	void picksTheFallbackWithTheMostSpecificExceptionType() {
		run((context) -> {
			Orders orders = context.getBean(Orders.class);
			orders.script().then(new FileNotFoundException(), new SocketException(), new IllegalStateException());
			assertThat(orders.place("o-1")).isEqualTo("file");
			assertThat(orders.place("o-1")).isEqualTo("io");
			context.getBean(BreakerRegistry.class).breaker("orders").reset();
			assertThat(orders.place("o-1")).isEqualTo("plain");
			context.getBean(BreakerRegistry.class).breaker("orders").forceOpen();
			assertThat(orders.place("o-1")).isEqualTo("open");
		});
	}

	@Test
	void usesTheFirstTierThatReturns() {
		run((context) -> {
			Recommendations recommendations = context.getBean(Recommendations.class);
			recommendations.script().then(new IOException("down"));
			recommendations.secondaryUp(true);
			assertThat(recommendations.recommend("u1")).containsExactly("secondary for u1");
		});
	}

	@Test
	void movesToTheNextTierWhenOneThrows() {
		run((context) -> {
			Recommendations recommendations = context.getBean(Recommendations.class);
			recommendations.script().then(new IOException("down"));
			recommendations.cacheUp(true);
			assertThat(recommendations.recommend("u1")).containsExactly("cached for u1 after IOException");
			recommendations.script().then(new IOException("down"));
			recommendations.cacheUp(false);
			assertThat(recommendations.recommend("u1")).containsExactly("popular");
		});
	}

	@Test
	void propagatesTheLastTiersExceptionWhenEveryTierThrows() {
		run((context) -> {
			Recommendations recommendations = context.getBean(Recommendations.class);
			recommendations.script().then(new IOException("down"));
			recommendations.popularUp(false);
			assertThatExceptionOfType(IllegalStateException.class).isThrownBy(() -> recommendations.recommend("u1"))
				.withMessage("popular list not loaded");
		});
	}

	@Test
	void tellsObserversOfEveryFallbackRun() {
		run((context) -> {
			Recommendations recommendations = context.getBean(Recommendations.class);
			recommendations.script().then(new IOException("down"));
			recommendations.recommend("u1");
			assertThat(context.getBean(RecordingObserver.class).runs).containsExactly("recs:secondary:false",
					"recs:cache:false", "recs:popular:true");
		});
	}

	private void run(ContextConsumer<AssertableApplicationContext> test) {
		this.runner.run((context) -> {
			assertThat(context).hasNotFailed();
			test.accept(context);
		});
	}

	@Configuration(proxyBeanMethods = false)
	@Import(ManualTime.class)
	static class Services {

		@Bean
		RecordingObserver observer() {
			return new RecordingObserver();
		}

		@Bean
		Quotes quotes() {
			return new Quotes();
		}

		@Bean
		Orders orders() {
			return new Orders();
		}

		@Bean
		Recommendations recommendations() {
			return new Recommendations();
		}

		@Bean
		Catalog catalog() {
			return new Catalog();
		}

		@Bean
		Validated validated() {
			return new Validated();
		}

	}

	static class Orders {

		private final Script script = new Script();

		Script script() {
			return this.script;
		}

		@CircuitGuarded(name = "orders", fallbackMethod = "saved")
		public String place(String id) throws Exception {
			return (String) this.script.next();
		}

		String saved(String id) {
			return "plain";
		}

		String saved(String id, IOException ex) {
			return "io";
		}

		String saved(String id, FileNotFoundException ex) {
			return "file";
		}

		String saved(String id, BreakerOpenException ex) {
			return "open";
		}

	}

	static class Recommendations {

		private final Script script = new Script();

		Script script() {
			return this.script;
		}

		volatile boolean secondaryUp;

		volatile boolean cacheUp;

		volatile boolean popularUp = true;

		void secondaryUp(boolean up) {
			this.secondaryUp = up;
		}

		void cacheUp(boolean up) {
			this.cacheUp = up;
		}

		void popularUp(boolean up) {
			this.popularUp = up;
		}

		@CircuitGuarded(name = "recs", fallbackMethod = { "secondary", "cache", "popular" })
		@SuppressWarnings("unchecked")
		public List<String> recommend(String user) throws Exception {
			return (List<String>) this.script.next();
		}

		List<String> secondary(String user) {
			if (!this.secondaryUp) {
				throw new IllegalStateException("secondary down");
			}
			return List.of("secondary for " + user);
		}

		List<String> cache(String user, Throwable cause) {
			if (!this.cacheUp) {
				throw new IllegalStateException("cache empty");
			}
			return List.of("cached for " + user + " after " + cause.getClass().getSimpleName());
		}

		List<String> popular(String user) {
			if (!this.popularUp) {
				throw new IllegalStateException("popular list not loaded");
			}
			return List.of("popular");
		}

	}

	@CircuitGuarded(name = "catalog")
	static class Catalog {

		private final Script script = new Script();

		Script script() {
			return this.script;
		}

		public String item(String id) throws Exception {
			return (String) this.script.next();
		}

		public String price(String id) throws Exception {
			return (String) this.script.next();
		}

		@Override
		public String toString() {
			return "catalog with " + this.script.calls() + " calls";
		}

	}

	static class Validated {

		private final Script script = new Script();

		Script script() {
			return this.script;
		}

		@CircuitGuarded(name = "validated", fallbackMethod = "never")
		public String check(String quantity) throws Exception {
			return (String) this.script.next();
		}

		String never(String quantity, Throwable cause) {
			return "fallback";
		}

	}

}
