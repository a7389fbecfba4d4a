package dev.breaker.autoconfigure;

import java.time.Duration;

import dev.breaker.core.BreakerNames;
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
	 * {@code 'com.acme.Nope'}; text escaped and bounded ({@link #printed}), so a hostile
	 * value can neither forge lines in the log nor flood it.
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
		return "'" + printed(String.valueOf(value)) + "'";
	}

	/** The longest text a report prints whole; a longer one is cut. */
	static final int MAX_PRINTED = 120;

	/**
	 * Text a user wrote, as a report prints it: escaped, and if longer than
	 * {@link #MAX_PRINTED} characters, its start and its length.
	 * @param text a value or a property name as written
	 * @return the printable text
	 */
	static String printed(String text) {
		if (text.length() <= MAX_PRINTED) {
			return BreakerNames.printable(text);
		}
		int end = Character.isHighSurrogate(text.charAt(MAX_PRINTED - 1)) ? MAX_PRINTED - 1 : MAX_PRINTED;
		return BreakerNames.printable(text.substring(0, end)) + "... (" + text.length() + " characters)";
	}

}
