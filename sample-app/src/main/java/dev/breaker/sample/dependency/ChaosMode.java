package dev.breaker.sample.dependency;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * How a dependency behaves: the failure modes the live page and the demo switch between.
 */
public enum ChaosMode {

	/** Answers after its usual latency. */
	HEALTHY,

	/** Answers, but only after the slow latency (below the client's read timeout). */
	SLOW,

	/**
	 * Accepts the request and never answers until the mode changes: the caller's read
	 * timeout fires.
	 */
	WEDGED,

	/** Answers 503 at once. */
	DOWN,

	/** Answers 500 to a percentage of requests, normally to the rest. */
	FLAKY;

	/** The name used in the chaos API and on the page, e.g. {@code "wedged"}. */
	public String label() {
		return name().toLowerCase(Locale.ROOT);
	}

	/**
	 * The mode named by a label of the chaos API.
	 * @throws IllegalArgumentException naming the allowed labels
	 */
	public static ChaosMode fromLabel(String label) {
		for (ChaosMode mode : values()) {
			if (mode.label().equalsIgnoreCase(label == null ? "" : label.trim())) {
				return mode;
			}
		}
		throw new IllegalArgumentException("unknown chaos mode '" + label + "': use one of "
				+ Arrays.stream(values()).map(ChaosMode::label).collect(Collectors.joining(", ")));
	}

}
