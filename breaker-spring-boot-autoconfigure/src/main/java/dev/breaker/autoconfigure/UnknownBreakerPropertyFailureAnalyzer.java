package dev.breaker.autoconfigure;

import java.util.stream.Collectors;

import dev.breaker.autoconfigure.UnknownBreakerPropertyException.Unknown;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.core.Ordered;

/**
 * Reports keys under {@code breaker.*} that breaker does not know: each key as written,
 * where it was written, the closest valid key and the keys allowed there.
 */
class UnknownBreakerPropertyFailureAnalyzer extends AbstractFailureAnalyzer<UnknownBreakerPropertyException>
		implements Ordered {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, UnknownBreakerPropertyException cause) {
		String title = (cause.unknown().size() == 1) ? "Unknown breaker property:" : "Unknown breaker properties:";
		String properties = cause.unknown()
			.stream()
			.map(UnknownBreakerPropertyFailureAnalyzer::describe)
			.collect(Collectors.joining("%n".formatted()));
		String description = "%s%n%n%s%nbreaker would ignore %s and leave the setting%s meant for at %s default.%n"
			.formatted(title, properties, (cause.unknown().size() == 1) ? "it" : "them",
					(cause.unknown().size() == 1) ? " it was" : "s they were",
					(cause.unknown().size() == 1) ? "its" : "their");
		String action = cause.unknown()
			.stream()
			.map(UnknownBreakerPropertyFailureAnalyzer::fix)
			.collect(Collectors.joining("%n%n".formatted()));
		return new FailureAnalysis(description, action, cause);
	}

	private static String describe(Unknown unknown) {
		String origin = (unknown.origin() != null) ? "    Origin:   %s%n".formatted(unknown.origin()) : "";
		return "    Property: %s%n%s".formatted(unknown.property(), origin);
	}

	private static String fix(Unknown unknown) {
		String fix = "Did you mean '%s'? Rename '%s' to '%s', or remove it.%nThe keys under '%s' are: %s.".formatted(
				unknown.meant(), unknown.property(), unknown.closest(), unknown.parent(),
				String.join(", ", unknown.keys()));
		return (unknown.hint() != null) ? fix + "%n%s".formatted(unknown.hint()) : fix;
	}

	@Override
	public int getOrder() {
		return Ordered.HIGHEST_PRECEDENCE;
	}

}
