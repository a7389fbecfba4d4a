package dev.breaker.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Puts the breaker named {@link #name()} in front of a method, or of every public method
 * of a class.
 *
 * <p>
 * Fallbacks are methods of the same bean with the guarded method's parameters, optionally
 * followed by one {@link Throwable} parameter, returning a type the guarded method may
 * return. They are resolved and checked when the application starts; a missing or
 * ill-fitting fallback stops start-up. They run, in the order given, when the breaker
 * rejects the call or the call fails in a way the breaker counts (FAILURE or TIMEOUT); an
 * exception the breaker ignores (for example a validation error) reaches the caller
 * unchanged. A fallback that throws hands over to the next one; the exception of the last
 * one reaches the caller.
 *
 * <pre>{@code
 * &#64;CircuitGuarded(name = "recommendations", tenant = "#userId",
 *                 fallbackMethod = {"precomputed", "cached", "popular"})
 * List<Product> recommend(String userId) { ... }
 * }</pre>
 */
@Target({ ElementType.METHOD, ElementType.TYPE })
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface CircuitGuarded {

	/**
	 * The breaker's name: one breaker per dependency, tuned under
	 * {@code breaker.instances.<name>}.
	 * @return the breaker name
	 */
	String name();

	/**
	 * Fallback method names, tried in order (tiered fallbacks: secondary source, cache,
	 * default).
	 * @return the fallback method names, empty for none
	 */
	String[] fallbackMethod() default {};

	/**
	 * A SpEL expression over the method's arguments ({@code #userId},
	 * {@code #order.customerId}, {@code #p0}) selecting a per-tenant child breaker,
	 * checked together with the breaker itself. Empty for none. A {@code null} result
	 * uses the breaker alone.
	 * @return the tenant expression
	 */
	String tenant() default "";

}
