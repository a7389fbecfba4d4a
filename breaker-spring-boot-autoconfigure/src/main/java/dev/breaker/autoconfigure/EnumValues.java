package dev.breaker.autoconfigure;

import java.util.Collection;
import java.util.List;
import java.util.Locale;

/**
 * Enum values the way a user writes them in {@code application.yml}
 * ({@code out-of-service}), and read the way Spring Boot reads them (case, dashes and
 * underscores do not matter).
 */
final class EnumValues {

	private EnumValues() {
	}

	/** {@code OUT_OF_SERVICE} as a user writes it: {@code out-of-service}. */
	static String typed(Enum<?> value) {
		return value.name().toLowerCase(Locale.ROOT).replace('_', '-');
	}

	/** The values as a list a message can show: {@code up, out-of-service or down}. */
	static String allowed(Collection<? extends Enum<?>> values) {
		List<String> typed = values.stream().map(EnumValues::typed).toList();
		if (typed.size() == 1) {
			return typed.get(0);
		}
		return String.join(", ", typed.subList(0, typed.size() - 1)) + " or " + typed.get(typed.size() - 1);
	}

	/**
	 * The constant of {@code type} that Spring Boot would bind {@code text} to, or null.
	 */
	static Enum<?> parse(Class<?> type, String text) {
		String canonical = KeyNode.uniform(text);
		for (Object constant : type.getEnumConstants()) {
			if (canonical.equals(KeyNode.uniform(((Enum<?>) constant).name()))) {
				return (Enum<?>) constant;
			}
		}
		return null;
	}

}
