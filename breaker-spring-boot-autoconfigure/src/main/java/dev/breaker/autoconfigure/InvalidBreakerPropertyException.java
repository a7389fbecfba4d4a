package dev.breaker.autoconfigure;

import java.time.Duration;

import dev.breaker.core.Numbers;

/**
 * A {@code breaker.*} property holds a value that is not allowed; stops start-up with a
 * report naming the property, the value and what is allowed.
 */
public class InvalidBreakerPropertyException extends RuntimeException {

	private final String property;

	private final transient Object value;

	private final String allowed;

	/**
	 * Create a new exception.
	 * @param property the full property path, e.g.
	 * {@code breaker.instances.payments.failure-rate-threshold}
	 * @param value the bad value
	 * @param allowed what is allowed, e.g. {@code (0, 100], or 0 to turn the rule off}
	 */
	public InvalidBreakerPropertyException(String property, Object value, String allowed) {
		this(property, value, allowed, null);
	}

	/**
	 * Create a new exception with a cause.
	 * @param property the full property path
	 * @param value the bad value
	 * @param allowed what is allowed
	 * @param cause the engine's validation error, or {@code null}
	 */
	public InvalidBreakerPropertyException(String property, Object value, String allowed, Throwable cause) {
		super("Invalid value " + describe(value) + " for property '" + property + "'; allowed: " + allowed, cause);
		this.property = property;
		this.value = value;
		this.allowed = allowed;
	}

	/**
	 * The full property path.
	 * @return e.g. {@code breaker.instances.payments.failure-rate-threshold}
	 */
	public String property() {
		return this.property;
	}

	/**
	 * The bad value, as bound.
	 * @return the value
	 */
	public Object value() {
		return this.value;
	}

	/**
	 * What is allowed.
	 * @return e.g. {@code (0, 100], or 0 to turn the rule off}
	 */
	public String allowed() {
		return this.allowed;
	}

	/**
	 * The value as a user would write it in YAML: {@code 120}, {@code -1s},
	 * {@code 'com.acme.Nope'}.
	 * @param value a bound value
	 * @return its description
	 */
	static String describe(Object value) {
		if (value instanceof Duration duration) {
			return "'" + Numbers.asProperty(duration) + "'";
		}
		if (value instanceof Double number) {
			return "'" + Numbers.exact(number) + "'";
		}
		return "'" + value + "'";
	}

}
