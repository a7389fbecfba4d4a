package dev.breaker.aspect;

import java.util.concurrent.CompletableFuture;

import dev.breaker.annotation.CircuitGuarded;
import dev.breaker.autoconfigure.BreakerAutoConfiguration;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.diagnostics.FailureAnalyzer;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.io.support.SpringFactoriesLoader;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A {@code @CircuitGuarded} method that cannot work stops start-up, naming the bean, the
 * method and what was expected: never a surprise at the first failure.
 */
class GuardedMethodStartupTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, BreakerAutoConfiguration.class));

	@Test
	void failsWhenAFallbackDoesNotExist() {
		this.runner.withUserConfiguration(MissingFallbackConfig.class)
			.run((context) -> assertThat(context).getFailure()
				.isInstanceOf(InvalidGuardedMethodException.class)
				.hasMessage("@CircuitGuarded method String MissingFallback.charge(String) of bean 'payments': "
						+ "fallbackMethod 'queueForLater' does not exist; expected String queueForLater(String) or "
						+ "String queueForLater(String, Throwable) on " + MissingFallback.class.getName()));
	}

	@Test
	void failsWhenAFallbackReturnsTheWrongType() {
		this.runner.withUserConfiguration(WrongReturnConfig.class)
			.run((context) -> assertThat(context).getFailure()
				.isInstanceOf(InvalidGuardedMethodException.class)
				.hasMessage("@CircuitGuarded method String WrongReturn.charge(String) of bean 'payments': "
						+ "fallbackMethod 'queueForLater' does not fit: found Integer WrongReturn.queueForLater(String); "
						+ "expected String queueForLater(String) or String queueForLater(String, Throwable) on "
						+ WrongReturn.class.getName()));
	}

	@Test
	void failsWhenAFallbackTakesOtherParameters() {
		this.runner.withUserConfiguration(WrongParametersConfig.class)
			.run((context) -> assertThat(context).getFailure()
				.isInstanceOf(InvalidGuardedMethodException.class)
				.hasMessageContaining("fallbackMethod 'queueForLater' does not fit: found "
						+ "String WrongParameters.queueForLater(String, int)"));
	}

	@Test
	void failsWhenALaterTierIsMissing() {
		this.runner.withUserConfiguration(MissingTierConfig.class)
			.run((context) -> assertThat(context).getFailure()
				.isInstanceOf(InvalidGuardedMethodException.class)
				.hasMessageContaining("fallbackMethod 'popular' does not exist"));
	}

	@Test
	void failsWhenTheTenantExpressionDoesNotParse() {
		this.runner.withUserConfiguration(BadTenantConfig.class)
			.run((context) -> assertThat(context).getFailure()
				.isInstanceOf(InvalidGuardedMethodException.class)
				.hasMessageStartingWith("@CircuitGuarded method String BadTenant.recommend(String) of bean "
						+ "'recommendations': tenant expression '#userId.' does not parse (")
				.hasMessageEndingWith("); use a SpEL expression over the method's arguments, "
						+ "e.g. tenant = \"#userId\" or \"#p0\""));
	}

	@Test
	void failsWhenTheGuardedMethodIsPrivate() {
		this.runner.withUserConfiguration(PrivateMethodConfig.class)
			.run((context) -> assertThat(context).getFailure()
				.isInstanceOf(InvalidGuardedMethodException.class)
				.hasMessage("@CircuitGuarded method String PrivateMethod.charge(String) of bean 'payments': "
						+ "the method is private, so Spring AOP cannot intercept it and it would run unguarded; "
						+ "make it a public, non-final instance method called through the bean"));
	}

	@Test
	void acceptsAnAsyncFallbackReturningAnyStage() {
		this.runner.withUserConfiguration(AsyncFallbackConfig.class)
			.run((context) -> assertThat(context).hasNotFailed());
	}

	@Test
	void reportsTheBeanTheMethodAndTheExpectedSignature() {
		this.runner.withUserConfiguration(MissingFallbackConfig.class).run((context) -> {
			FailureAnalysis analysis = analyze(context.getStartupFailure());
			assertThat(analysis.getDescription()).isEqualTo("""
					A @CircuitGuarded method cannot be guarded:

					    Bean:    payments
					    Method:  String MissingFallback.charge(String)
					    Problem: fallbackMethod 'queueForLater' does not exist
					""");
			assertThat(analysis.getAction()).isEqualTo("Fix the annotation or the bean: expected String "
					+ "queueForLater(String) or String queueForLater(String, Throwable) on "
					+ MissingFallback.class.getName() + ".");
		});
	}

	/**
	 * Goes through spring.factories, as Spring Boot does when an application fails to
	 * start.
	 */
	private static FailureAnalysis analyze(Throwable failure) {
		SpringFactoriesLoader.FailureHandler skipAnalyzersNeedingArguments = (type, name, ex) -> {
		};
		for (FailureAnalyzer analyzer : SpringFactoriesLoader.forDefaultResourceLocation()
			.load(FailureAnalyzer.class, null, skipAnalyzersNeedingArguments)) {
			FailureAnalysis analysis = analyzer.analyze(failure);
			if (analysis != null && analysis.getDescription().contains("@CircuitGuarded")) {
				return analysis;
			}
		}
		throw new AssertionError("no failure analyzer reported " + failure);
	}

	static class MissingFallback {

		@CircuitGuarded(name = "payments", fallbackMethod = "queueForLater")
		public String charge(String order) {
			return "charged";
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class MissingFallbackConfig {

		@Bean
		MissingFallback payments() {
			return new MissingFallback();
		}

	}

	static class WrongReturn {

		@CircuitGuarded(name = "payments", fallbackMethod = "queueForLater")
		public String charge(String order) {
			return "charged";
		}

		Integer queueForLater(String order) {
			return 0;
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class WrongReturnConfig {

		@Bean
		WrongReturn payments() {
			return new WrongReturn();
		}

	}

	static class WrongParameters {

		@CircuitGuarded(name = "payments", fallbackMethod = "queueForLater")
		public String charge(String order) {
			return "charged";
		}

		String queueForLater(String order, int attempt) {
			return "queued";
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class WrongParametersConfig {

		@Bean
		WrongParameters payments() {
			return new WrongParameters();
		}

	}

	static class MissingTier {

		@CircuitGuarded(name = "recommendations", fallbackMethod = { "cached", "popular" })
		public String recommend(String user) {
			return "live";
		}

		String cached(String user) {
			return "cached";
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class MissingTierConfig {

		@Bean
		MissingTier recommendations() {
			return new MissingTier();
		}

	}

	static class BadTenant {

		@CircuitGuarded(name = "recommendations", tenant = "#userId.")
		public String recommend(String userId) {
			return "live";
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class BadTenantConfig {

		@Bean
		BadTenant recommendations() {
			return new BadTenant();
		}

	}

	static class PrivateMethod {

		@CircuitGuarded(name = "payments")
		private String charge(String order) {
			return "charged";
		}

		String pay(String order) {
			return charge(order);
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class PrivateMethodConfig {

		@Bean
		PrivateMethod payments() {
			return new PrivateMethod();
		}

	}

	static class AsyncFallback {

		@CircuitGuarded(name = "search", fallbackMethod = "cached")
		public CompletableFuture<String> search(String query) {
			return CompletableFuture.completedFuture("live");
		}

		java.util.concurrent.CompletionStage<String> cached(String query, Throwable cause) {
			return CompletableFuture.completedFuture("cached");
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class AsyncFallbackConfig {

		@Bean
		AsyncFallback search() {
			return new AsyncFallback();
		}

	}

}
