package dev.breaker.benchmarks.aspect;

import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;
import org.springframework.aop.support.DefaultPointcutAdvisor;
import org.springframework.aop.support.annotation.AnnotationMatchingPointcut;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;

/**
 * The Boot application the aspect benchmark starts: auto-configuration of both libraries,
 * and the five clients.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
public class AspectBenchmarkApplication {

	@Bean
	PassthroughAspect passthroughAspect() {
		return new PassthroughAspect();
	}

	/**
	 * An advisor whose interceptor only proceeds: the floor of any Spring AOP advisor,
	 * {@code @CircuitGuarded}'s included.
	 */
	@Bean
	static DefaultPointcutAdvisor noopInterceptorAdvisor() {
		MethodInterceptor proceed = MethodInvocation::proceed;
		return new DefaultPointcutAdvisor(new AnnotationMatchingPointcut(null, Intercepted.class), proceed);
	}

	@Bean
	Clients.Intercepted interceptedClient() {
		return new Clients.Intercepted();
	}

	@Bean
	Clients.Plain plainClient() {
		return new Clients.Plain();
	}

	@Bean
	Clients.Passthrough passthroughClient() {
		return new Clients.Passthrough();
	}

	@Bean
	Clients.Guarded guardedClient() {
		return new Clients.Guarded();
	}

	@Bean
	Clients.Resilience4j resilience4jClient() {
		return new Clients.Resilience4j();
	}

}
