package dev.breaker.redis;

import dev.breaker.core.BreakerNames;

/**
 * Text that came from Redis or a peer, made safe to keep and to print: control and format
 * characters escaped ({@code \n}, {@code \u001b}, {@code \u202e}...), so nothing can
 * forge a log line or a terminal escape or reorder what it shows, and cut to a bounded
 * length.
 */
final class Printable {

	/** Longest reason kept or shown, escapes included. */
	static final int REASON = 200;

	/** Longest replica id kept or shown. */
	static final int REPLICA = 64;

	/** Longest key or breaker name printed in a log line. */
	static final int NAME = 200;

	private Printable() {
	}

	/**
	 * At most {@code max} characters, escaped and cut as
	 * {@link BreakerNames#printable(String, int)} does; {@code null} is the empty text.
	 */
	static String of(String text, int max) {
		return (text != null) ? BreakerNames.printable(text, max) : "";
	}

}
