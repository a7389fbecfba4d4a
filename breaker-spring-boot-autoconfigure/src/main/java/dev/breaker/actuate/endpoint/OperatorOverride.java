package dev.breaker.actuate.endpoint;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;

import org.jspecify.annotations.Nullable;

import dev.breaker.core.Breaker;

/** A state an operator may put a breaker in through the endpoint. */
public enum OperatorOverride {

	/** Reject every call until reset. */
	FORCED_OPEN {
		@Override
		void applyTo(Breaker breaker) {
			breaker.forceOpen();
		}
	},

	/** Let every call through, still recording outcomes, until reset. */
	DISABLED {
		@Override
		void applyTo(Breaker breaker) {
			breaker.disable();
		}
	},

	/** Start probing the dependency now instead of waiting out the open wait. */
	HALF_OPEN {
		@Override
		void applyTo(Breaker breaker) {
			breaker.halfOpen();
		}
	},

	/** Back to normal operation: the same as a reset. */
	CLOSED {
		@Override
		void applyTo(Breaker breaker) {
			breaker.reset();
		}
	};

	/** The values a request may name, in declaration order. */
	public static final List<String> ALLOWED = Arrays.stream(values()).map(Enum::name).toList();

	abstract void applyTo(Breaker breaker);

	/**
	 * Reads a state as an operator would type it: case and {@code -}/{@code _} do not
	 * matter.
	 * @param text the requested state, may be null
	 * @return the override, or null when {@code text} names none of {@link #ALLOWED}
	 */
	public static @Nullable OperatorOverride parse(@Nullable String text) {
		if (text == null) {
			return null;
		}
		String normalized = text.trim().replace('-', '_').toUpperCase(Locale.ROOT);
		for (OperatorOverride candidate : values()) {
			if (candidate.name().equals(normalized)) {
				return candidate;
			}
		}
		return null;
	}

}
