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
	 * unreadable or already in the past: a hint that cannot be read is no hint at all.
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
			return seconds(trimmed);
		}
		return untilDate(trimmed, clock.instant());
	}

	private static Duration seconds(String value) {
		for (int i = 0; i < value.length(); i++) {
			if (!isAsciiDigit(value.charAt(i))) {
				return null;
			}
		}
		try {
			long seconds = Long.parseLong(value);
			return (seconds > 0) ? Duration.ofSeconds(seconds) : null;
		}
		catch (NumberFormatException ex) {
			return null; // more digits than a long holds: nonsense, not a wait
		}
	}

	// Character.isDigit and Long.parseLong take any script's digits; RFC 9110 means 0-9.
	private static boolean isAsciiDigit(char c) {
		return c >= '0' && c <= '9';
	}

	private static Duration untilDate(String value, Instant now) {
		try {
			Instant at = ZonedDateTime.parse(value, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
			Duration wait = Duration.between(now, at);
			return (wait.isNegative() || wait.isZero()) ? null : wait;
		}
		catch (DateTimeParseException ex) {
			return null;
		}
	}

}
