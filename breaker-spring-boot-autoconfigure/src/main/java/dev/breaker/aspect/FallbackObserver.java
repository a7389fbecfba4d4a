package dev.breaker.aspect;

/**
 * Told of every fallback the {@code @CircuitGuarded} aspect ran (metrics count them by
 * level).
 */
@FunctionalInterface
public interface FallbackObserver {

	/**
	 * Called after a fallback method ran.
	 * @param breaker the breaker name from the annotation (never a tenant child's name)
	 * @param fallbackMethod the fallback method's name
	 * @param succeeded whether it returned a value (for asynchronous methods: whether its
	 * result completed normally)
	 */
	void onFallback(String breaker, String fallbackMethod, boolean succeeded);

}
