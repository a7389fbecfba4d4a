package dev.breaker.http;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;

/**
 * Reads an HTTP {@code Retry-After} value: delta-seconds ({@code 120}) or an HTTP-date
 * ({@code Wed, 21 Oct 2026 07:28:00 GMT}), as RFC 9110 section 10.2.3 allows.
 */
final class RetryAfter {

	/**
	 * Longer values are no hint: an HTTP-date is 29 characters, delta-seconds far fewer.
	 */
	static final int MAX_LENGTH = 64;

	private RetryAfter() {
	}

	/**
	 * The wait the server asked for, or {@code null} when the value is missing,
	 * unreadable, zero or already in the past: a hint that cannot be read, or asks for no
	 * wait, is no hint at all (and a 503 that carries one is the server down, not
	 * throttling).
	 */
	static Duration parse(String value, Clock clock) {
		if (value == null || value.length() > MAX_LENGTH) {
			return null;
		}
		String trimmed = value.trim();
		if (trimmed.isEmpty()) {
			return null;
		}
		if (isAsciiDigit(trimmed.charAt(0))) {
			long seconds = seconds(trimmed);
			return (seconds > 0) ? Duration.ofSeconds(seconds) : null;
		}
		Instant at = date(trimmed);
		if (at == null) {
			return null;
		}
		Duration wait = Duration.between(clock.instant(), at);
		return (wait.isNegative() || wait.isZero()) ? null : wait;
	}

	/** Delta-seconds, or -1 when {@code value} is not one a long holds. */
	private static long seconds(String value) {
		for (int i = 0; i < value.length(); i++) {
			if (!isAsciiDigit(value.charAt(i))) {
				return -1;
			}
		}
		try {
			return Long.parseLong(value);
		}
		catch (NumberFormatException ex) {
			return -1; // more digits than a long holds: nonsense, not a wait
		}
	}

	// Character.isDigit and Long.parseLong take any script's digits; RFC 9110 means 0-9.
	private static boolean isAsciiDigit(char c) {
		return c >= '0' && c <= '9';
	}

	private static Instant date(String value) {
		try {
			return ZonedDateTime.parse(value, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
		}
		catch (DateTimeParseException ex) {
			return null;
		}
	}

}
