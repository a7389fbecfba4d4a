package dev.breaker.core;

import java.time.Duration;

/**
 * A breaker setting with a value outside its allowed range; the message names the
 * setting, the value and the range.
 */
public final class InvalidBreakerConfigException extends IllegalArgumentException {

	private static final long serialVersionUID = 1L;

	private final String setting;

	private final transient Object value;

	private final String allowed;

	/**
	 * @param setting the builder/accessor name, e.g. {@code "failureRateThreshold"}
	 * @param value the bad value as given
	 * @param mustBe how the message says what is allowed, e.g.
	 * {@code "in (0, 100] (or 0 to turn the rule off)"}
	 * @param allowed the allowed range on its own, e.g.
	 * {@code "(0, 100], or 0 to turn the rule off"}
	 */
	public InvalidBreakerConfigException(String setting, Object value, String mustBe, String allowed) {
		super("'" + setting + "' must be " + mustBe + " but was " + render(value));
		this.setting = setting;
		this.value = value;
		this.allowed = allowed;
	}

	/** The builder/accessor name of the setting, e.g. {@code "failureRateThreshold"}. */
	public String setting() {
		return setting;
	}

	/** The bad value as given. */
	public Object value() {
		return value;
	}

	/** What is allowed, e.g. {@code "(0, 100], or 0 to turn the rule off"}. */
	public String allowed() {
		return allowed;
	}

	static String render(Object value) {
		if (value instanceof Double d) {
			return Numbers.exact(d);
		}
		if (value instanceof Duration d) {
			return Numbers.format(d);
		}
		return String.valueOf(value);
	}

}
