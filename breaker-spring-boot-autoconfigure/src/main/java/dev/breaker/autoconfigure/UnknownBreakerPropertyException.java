package dev.breaker.autoconfigure;

import java.util.List;
import java.util.stream.Collectors;

/**
 * Keys under {@code breaker.*} that breaker does not know: each would be ignored, leaving
 * the setting it was meant for at its default, so start-up stops with a report naming the
 * key as written and the closest valid key. Values are never part of the report (a key
 * may hold a secret).
 */
public class UnknownBreakerPropertyException extends RuntimeException {

	private final transient List<Unknown> unknown;

	/**
	 * Create a new exception.
	 * @param unknown the unknown keys, at least one
	 */
	public UnknownBreakerPropertyException(List<Unknown> unknown) {
		super(unknown.stream()
			.map((u) -> "'" + u.property() + "' (did you mean '" + u.closest() + "'?)")
			.collect(Collectors.joining(", ", "Unknown breaker properties: ", "")));
		this.unknown = List.copyOf(unknown);
	}

	/**
	 * The unknown keys, in name order.
	 * @return the keys
	 */
	public List<Unknown> unknown() {
		return this.unknown;
	}

	/**
	 * One unknown key.
	 *
	 * @param property the key as the user wrote it, e.g.
	 * {@code breaker.instances.payments.open-wiat}
	 * @param origin where it was written, or null when not known
	 * @param parent the key up to the element breaker did not know, e.g.
	 * {@code breaker.instances.payments}
	 * @param meant the closest valid key from {@code parent}, e.g. {@code open-wait}
	 * @param closest the closest valid key in full, e.g.
	 * {@code breaker.instances.payments.open-wait}
	 * @param keys the valid keys under {@code parent}, sorted
	 * @param hint why the key may not be what the user wrote, or null
	 */
	public record Unknown(String property, String origin, String parent, String meant, String closest,
			List<String> keys, String hint) {

	}

}
