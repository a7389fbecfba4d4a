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

	private RetryAfter() {
	}

	/**
	 * The wait the server asked for, or {@code null} when the value is missing, unreadable or
	 * already in the past: a hint that cannot be read is no hint at all.
	 */
	static Duration parse(String value, Clock clock) {
		if (value == null) {
			return null;
		}
		String trimmed = value.trim();
		if (trimmed.isEmpty()) {
			return null;
		}
		if (Character.isDigit(trimmed.charAt(0))) {
			return seconds(trimmed);
		}
		return untilDate(trimmed, clock.instant());
	}

	private static Duration seconds(String value) {
		for (int i = 0; i < value.length(); i++) {
			if (!Character.isDigit(value.charAt(i))) {
				return null;
			}
		}
		try {
			long seconds = Long.parseLong(value);
			return (seconds > 0) ? Duration.ofSeconds(seconds) : null;
		}
		catch (NumberFormatException ex) {
			return null;   // more digits than a long holds: nonsense, not a wait
		}
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
