package dev.breaker.http;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class RetryAfterTests {

	private final Clock clock = Clock.fixed(Instant.parse("2026-11-29T21:00:00Z"), ZoneOffset.UTC);

	@Test
	void readsDeltaSeconds() {
		assertThat(RetryAfter.parse("120", this.clock)).isEqualTo(Duration.ofSeconds(120));
		assertThat(RetryAfter.parse(" 7 ", this.clock)).isEqualTo(Duration.ofSeconds(7));
	}

	@Test
	void readsAnHttpDateAsTheWaitUntilThen() {
		assertThat(RetryAfter.parse("Sun, 29 Nov 2026 21:01:30 GMT", this.clock)).isEqualTo(Duration.ofSeconds(90));
	}

	@Test
	void aDateInThePastIsNoHint() {
		assertThat(RetryAfter.parse("Sun, 29 Nov 2026 20:59:00 GMT", this.clock)).isNull();
	}

	@Test
	void zeroIsNoHint() {
		assertThat(RetryAfter.parse("0", this.clock)).isNull();
	}

	@Test
	void aValueAsksForAWaitOnlyWhenItIsDeltaSecondsAboveZeroOrAnHttpDateToCome() {
		// what makes a 503 THROTTLED (HostBreakers): a value asking for no wait is
		// ignored, so it must not keep the breaker from tripping either
		assertThat(RetryAfter.parse("120", this.clock)).isPositive();
		assertThat(RetryAfter.parse("Sun, 29 Nov 2026 21:00:01 GMT", this.clock)).isPositive();
		assertThat(RetryAfter.parse("0", this.clock)).isNull();
		assertThat(RetryAfter.parse("000", this.clock)).isNull();
		assertThat(RetryAfter.parse("Sun, 29 Nov 2026 21:00:00 GMT", this.clock)).as("now").isNull();
		assertThat(RetryAfter.parse("Sun, 29 Nov 2026 20:59:00 GMT", this.clock)).as("gone by").isNull();
		assertThat(RetryAfter.parse(" ", this.clock)).isNull();
		assertThat(RetryAfter.parse("1.5e3", this.clock)).isNull();
		assertThat(RetryAfter.parse("1".repeat(RetryAfter.MAX_LENGTH + 1), this.clock)).as("too long").isNull();
	}

	@Test
	void unreadableValuesAreNoHint() {
		assertThat(RetryAfter.parse(null, this.clock)).isNull();
		assertThat(RetryAfter.parse("", this.clock)).isNull();
		assertThat(RetryAfter.parse("soon", this.clock)).isNull();
		assertThat(RetryAfter.parse("-5", this.clock)).isNull();
		assertThat(RetryAfter.parse("1.5", this.clock)).isNull();
		assertThat(RetryAfter.parse("99999999999999999999999", this.clock)).isNull();
	}

	@Test
	void hostileValuesAreBoundedOrNoHint() {
		// the longest delta-seconds a long holds is read, never overflows (users cap it)
		assertThat(RetryAfter.parse("9223372036854775807", this.clock)).isEqualTo(Duration.ofSeconds(Long.MAX_VALUE));
		assertThat(RetryAfter.parse("Fri, 31 Dec 9999 23:59:59 GMT", this.clock)).isPositive();
		assertThat(RetryAfter.parse("1".repeat(RetryAfter.MAX_LENGTH + 1), this.clock)).isNull();
		assertThat(RetryAfter.parse(" ".repeat(10_000) + "5", this.clock)).isNull();
		// Arabic-Indic 120
		assertThat(RetryAfter.parse("\u0661\u0662\u0660", this.clock)).isNull();
		assertThat(RetryAfter.parse("12\n0", this.clock)).isNull();
	}

}
