package dev.breaker.actuate.endpoint;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;

import org.jspecify.annotations.Nullable;

/**
 * How far an operator's override reaches when breakers share state with other replicas
 * (fleet mode).
 */
public enum OverrideScope {

	/** Every replica sharing state, also replicas started later: the default. */
	FLEET,

	/** This replica only. */
	REPLICA;

	/** The values a request may name, in declaration order and lower case. */
	public static final List<String> ALLOWED = Arrays.stream(values())
		.map((scope) -> scope.name().toLowerCase(Locale.ROOT))
		.toList();

	/**
	 * Reads a scope as an operator would type it; none given means {@link #FLEET}.
	 * @param text the requested scope, may be null
	 * @return the scope, or null when {@code text} names none of {@link #ALLOWED}
	 */
	public static @Nullable OverrideScope parse(@Nullable String text) {
		if (text == null || text.isBlank()) {
			return FLEET;
		}
		String normalized = text.trim().toUpperCase(Locale.ROOT);
		for (OverrideScope candidate : values()) {
			if (candidate.name().equals(normalized)) {
				return candidate;
			}
		}
		return null;
	}

}
