package dev.breaker.aspect;

import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

import dev.breaker.actuate.endpoint.BreakersDescriptor;
import dev.breaker.actuate.endpoint.HistoryDescriptor;
import dev.breaker.actuate.endpoint.SnapshotDescriptor;
import dev.breaker.actuate.history.Second;
import dev.breaker.annotation.CircuitGuarded;
import dev.breaker.autoconfigure.BreakerAutoConfiguration;
import dev.breaker.autoconfigure.BreakerProperties;
import dev.breaker.autoconfigure.http.HttpBreakerProperties;
import org.junit.jupiter.api.Test;

import org.springframework.aot.generate.ClassNameGenerator;
import org.springframework.aot.generate.DefaultGenerationContext;
import org.springframework.aot.generate.InMemoryGeneratedFiles;
import org.springframework.aot.hint.MemberCategory;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.test.util.TestPropertyValues;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.aot.ApplicationContextAotGenerator;
import org.springframework.javapoet.ClassName;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Ahead-of-time processing of an application with breaker registers everything breaker
 * reaches reflectively at run time, so a native image keeps it: checked on the hints of a
 * real AOT run of the application context, as {@code spring-boot:process-aot} does it.
 */
class RuntimeHintsTests {

	@Test
	void registersEveryFallbackOfAGuardedBeanForInvocation() throws Exception {
		RuntimeHints hints = process(Application.class);
		assertThat(RuntimeHintsPredicates.reflection()
			.onMethodInvocation(Recommendations.class.getDeclaredMethod("precomputed", String.class))).accepts(hints);
		assertThat(RuntimeHintsPredicates.reflection()
			.onMethodInvocation(Recommendations.class.getDeclaredMethod("cached", String.class, IOException.class)))
			.accepts(hints);
		assertThat(RuntimeHintsPredicates.reflection()
			.onMethodInvocation(Recommendations.class.getDeclaredMethod("popular", String.class, Throwable.class)))
			.accepts(hints);
		assertThat(RuntimeHintsPredicates.reflection()
			.onMethodInvocation(Recommendations.class.getDeclaredMethod("later", Order.class))).accepts(hints);
	}

	@Test
	void registersTheFallbacksBehindAnInterfaceBasedProxy() throws Exception {
		RuntimeHints hints = process(InterfaceApplication.class, "spring.aop.proxy-target-class=false");
		assertThat(RuntimeHintsPredicates.reflection()
			.onMethodInvocation(QuoteService.Remote.class.getDeclaredMethod("cached", String.class))).accepts(hints);
	}

	@Test
	void registersTheGuardedMethodsForTheScanAndTheirAnnotation() throws Exception {
		RuntimeHints hints = process(Application.class);
		assertThat(RuntimeHintsPredicates.reflection()
			.onType(Recommendations.class)
			.withMemberCategory(MemberCategory.INTROSPECT_DECLARED_METHODS)).accepts(hints);
		assertThat(RuntimeHintsPredicates.reflection()
			.onMethod(Recommendations.class.getDeclaredMethod("recommend", String.class))
			.introspect()).accepts(hints);
	}

	@Test
	void registersWhatATenantExpressionReads() {
		RuntimeHints hints = process(Application.class);
		assertThat(RuntimeHintsPredicates.reflection()
			.onType(Order.class)
			.withMemberCategory(MemberCategory.INVOKE_PUBLIC_METHODS)).accepts(hints);
		assertThat(RuntimeHintsPredicates.reflection()
			.onType(Recommendations.class)
			.withMemberCategory(MemberCategory.INVOKE_PUBLIC_METHODS)).accepts(hints);
	}

	@Test
	void registersTheConfigurationPropertiesForBinding() throws Exception {
		RuntimeHints hints = process(Application.class);
		assertThat(RuntimeHintsPredicates.reflection()
			.onMethodInvocation(BreakerProperties.class.getMethod("setAdvisorOrder", int.class))).accepts(hints);
		assertThat(RuntimeHintsPredicates.reflection()
			.onMethodInvocation(
					BreakerProperties.Instance.class.getMethod("setIgnoreExceptions", java.util.List.class)))
			.accepts(hints);
		assertThat(RuntimeHintsPredicates.reflection().onType(HttpBreakerProperties.class)).accepts(hints);
	}

	@Test
	void registersTheEndpointsDescriptorsForJson() throws Exception {
		RuntimeHints hints = process(Application.class);
		assertThat(RuntimeHintsPredicates.reflection()
			.onMethodInvocation(BreakersDescriptor.BreakerSummary.class.getMethod("state"))).accepts(hints);
		assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(SnapshotDescriptor.class.getMethod("calls")))
			.accepts(hints);
		assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(HistoryDescriptor.class.getMethod("seconds")))
			.accepts(hints);
		assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(Second.class.getMethod("p99")))
			.accepts(hints);
	}

	@Test
	void registersTheExceptionClassesNamedInTheProperties() {
		RuntimeHints hints = process(Application.class,
				"breaker.instances.recommendations.ignore-exceptions=java.lang.IllegalArgumentException",
				"breaker.defaults.record-exceptions=java.io.UncheckedIOException");
		assertThat(RuntimeHintsPredicates.reflection().onType(IllegalArgumentException.class)).accepts(hints);
		assertThat(RuntimeHintsPredicates.reflection().onType(java.io.UncheckedIOException.class)).accepts(hints);
	}

	@Test
	void stopsTheProcessingForAFallbackThatDoesNotExist() {
		assertThatThrownBy(() -> process(Broken.class)).rootCause()
			.isInstanceOf(InvalidGuardedMethodException.class)
			.hasMessageContaining("of bean 'broken': fallbackMethod 'missing' does not exist");
	}

	private static RuntimeHints process(Class<?> configuration, String... properties) {
		try (AnnotationConfigApplicationContext context = new AnnotationConfigApplicationContext()) {
			TestPropertyValues.of(properties).applyTo(context);
			context.register(configuration);
			DefaultGenerationContext generation = new DefaultGenerationContext(
					new ClassNameGenerator(ClassName.get(RuntimeHintsTests.class)), new InMemoryGeneratedFiles());
			new ApplicationContextAotGenerator().processAheadOfTime(context, generation);
			return generation.getRuntimeHints();
		}
	}

	public static class Order {

		public String customerId() {
			return "c-1";
		}

	}

	static class Recommendations {

		@CircuitGuarded(name = "recommendations", tenant = "#userId",
				fallbackMethod = { "precomputed", "cached", "popular" })
		public String recommend(String userId) {
			return "live";
		}

		String precomputed(String userId) {
			return "precomputed";
		}

		private String cached(String userId, IOException cause) {
			return "cached";
		}

		static String popular(String userId, Throwable cause) {
			return "popular";
		}

		@CircuitGuarded(name = "orders", tenant = "#order.customerId()", fallbackMethod = "later")
		public CompletionStage<String> place(Order order) {
			return CompletableFuture.completedFuture("placed");
		}

		CompletableFuture<String> later(Order order) {
			return CompletableFuture.completedFuture("later");
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration({ AopAutoConfiguration.class, BreakerAutoConfiguration.class })
	static class InterfaceApplication {

		/**
		 * Declared as the class, not the interface: ahead of time, the declared type is
		 * all there is.
		 */
		@Bean
		QuoteService.Remote quotes() {
			return new QuoteService.Remote();
		}

	}

	static class Missing {

		@CircuitGuarded(name = "broken", fallbackMethod = "missing")
		public String call() {
			return "live";
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration({ AopAutoConfiguration.class, BreakerAutoConfiguration.class })
	static class Application {

		@Bean
		Recommendations recommendations() {
			return new Recommendations();
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration({ AopAutoConfiguration.class, BreakerAutoConfiguration.class })
	static class Broken {

		@Bean
		Missing broken() {
			return new Missing();
		}

	}

}
