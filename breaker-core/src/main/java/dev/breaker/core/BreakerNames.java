package dev.breaker.core;

/**
 * How a breaker's name (or any text that came from a user) is printed: with every control
 * character escaped.
 */
public final class BreakerNames {

	/*
	 * A name ends up in log lines, exception messages, JSON and metric tags. A tenant key
	 * taken from a request path could carry CR/LF (a forged log line), ESC (terminal
	 * colours and cursor moves), a C1 control (0x9B is CSI on some terminals) or a bidi
	 * override (text that reads otherwise than it is). Each is written as a Java-style
	 * escape (\r, \n, \t, \u001b), so the printed form is plain printable text. A
	 * backslash is left alone here, so printing an already printable name changes
	 * nothing; child keys escape it too (ChildKeys), so that two keys never print alike.
	 */

	private BreakerNames() {
	}

	/**
	 * {@code text} with every control, format and line-separator character escaped; the
	 * same instance when there is none.
	 */
	public static String printable(String text) {
		return escape(text, false);
	}

	/**
	 * {@link #printable(String)} of {@code text}, at most {@code max} characters long:
	 * what does not fit is cut, never inside a character (a surrogate pair) or an escape,
	 * and the cut is marked by an ellipsis ({@code …}, counted in {@code max}). Only the
	 * first {@code max} characters of {@code text} are looked at.
	 * @param text text a client, a peer or Redis sent
	 * @param max the longest result, at least 2
	 * @return the printable, bounded text
	 */
	public static String printable(String text, int max) {
		if (max < 2) {
			throw new IllegalArgumentException("max must be at least 2, was " + max);
		}
		if (text.length() <= max) {
			String whole = printable(text);
			if (whole.length() <= max) {
				return whole;
			}
		}
		StringBuilder out = new StringBuilder(max);
		int room = max - 1;
		for (int i = 0; i < text.length() && out.length() < room;) {
			int end = (Character.isHighSurrogate(text.charAt(i)) && pairedAt(text, i)) ? i + 2 : i + 1;
			String shown = printable(text.substring(i, end));
			if (out.length() + shown.length() > room) {
				break;
			}
			out.append(shown);
			i = end;
		}
		return out.append('…').toString();
	}

	/**
	 * As {@link #printable}, and with {@code backslash} a backslash written as two: then
	 * no two texts escape alike.
	 */
	static String escape(String text, boolean backslash) {
		int length = text.length();
		for (int i = 0; i < length; i++) {
			char c = text.charAt(i);
			if (needsEscape(c, backslash) || Character.isSurrogate(c) && !pairedAt(text, i)) {
				return escape(text, i, backslash);
			}
			if (Character.isHighSurrogate(c)) {
				if (needsEscape(text.codePointAt(i), backslash)) {
					return escape(text, i, backslash);
				}
				i++;
			}
		}
		return text;
	}

	private static String escape(String text, int from, boolean backslash) {
		StringBuilder out = new StringBuilder(text.length() + 16).append(text, 0, from);
		int length = text.length();
		for (int i = from; i < length; i++) {
			char c = text.charAt(i);
			if (Character.isHighSurrogate(c) && pairedAt(text, i)) {
				int codePoint = text.codePointAt(i);
				if (needsEscape(codePoint, backslash)) {
					unicode(out, c);
					unicode(out, text.charAt(i + 1));
				}
				else {
					out.append(c).append(text.charAt(i + 1));
				}
				i++;
			}
			else if (c == '\\' && backslash) {
				out.append("\\\\");
			}
			else if (c == '\n') {
				out.append("\\n");
			}
			else if (c == '\r') {
				out.append("\\r");
			}
			else if (c == '\t') {
				out.append("\\t");
			}
			else if (needsEscape(c, backslash) || Character.isSurrogate(c)) {
				unicode(out, c);
			}
			else {
				out.append(c);
			}
		}
		return out.toString();
	}

	private static boolean pairedAt(String text, int i) {
		char c = text.charAt(i);
		if (Character.isHighSurrogate(c)) {
			return i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1));
		}
		return Character.isLowSurrogate(c) && i > 0 && Character.isHighSurrogate(text.charAt(i - 1));
	}

	private static boolean needsEscape(int codePoint, boolean backslash) {
		if (codePoint == '\\' && backslash || codePoint < 0x20 || codePoint >= 0x7F && codePoint <= 0x9F) {
			return true;
		}
		if (codePoint < 0xA0) {
			return false;
		}
		int type = Character.getType(codePoint);
		return type == Character.FORMAT || type == Character.LINE_SEPARATOR || type == Character.PARAGRAPH_SEPARATOR
				|| type == Character.CONTROL;
	}

	private static void unicode(StringBuilder out, char c) {
		out.append("\\u");
		String hex = Integer.toHexString(c);
		for (int pad = hex.length(); pad < 4; pad++) {
			out.append('0');
		}
		out.append(hex);
	}

}
