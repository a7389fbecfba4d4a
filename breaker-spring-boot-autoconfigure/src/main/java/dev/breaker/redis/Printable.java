package dev.breaker.redis;

/**
 * Text that came from Redis or a peer, made safe to keep and to print: control characters
 * escaped ({@code \n}, {@code \u001b}...), so nothing can forge a log line or a terminal
 * escape, and cut to a bounded length.
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
	 * At most {@code max} characters; a text that had to be cut ends with an ellipsis.
	 */
	static String of(String text, int max) {
		if (text == null) {
			return "";
		}
		StringBuilder out = new StringBuilder(Math.min(text.length(), max) + 8);
		int i = 0;
		for (; i < text.length() && out.length() < max; i++) {
			char c = text.charAt(i);
			switch (c) {
				case '\n' -> out.append("\\n");
				case '\r' -> out.append("\\r");
				case '\t' -> out.append("\\t");
				default -> {
					if (c < 0x20 || (c >= 0x7f && c < 0xa0) || c == '\u2028' || c == '\u2029') {
						out.append(String.format("\\u%04x", (int) c));
					}
					else {
						out.append(c);
					}
				}
			}
		}
		if (i == text.length() && out.length() <= max) {
			return out.toString();
		}
		out.setLength(max - 1);
		if (Character.isHighSurrogate(out.charAt(out.length() - 1))) {
			out.setLength(out.length() - 1);
		}
		return out.append('…').toString();
	}

}
