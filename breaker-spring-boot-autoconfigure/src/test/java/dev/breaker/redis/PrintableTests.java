package dev.breaker.redis;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Text from outside is kept short and printed without control characters. */
class PrintableTests {

	@Test
	void controlCharactersAreEscaped() {
		assertThat(Printable.of("a\nb\r\tc\u001b[31m\u0007\u0085\u2028", 200))
			.isEqualTo("a\\nb\\r\\tc\\u001b[31m\\u0007\\u0085\\u2028");
	}

	@Test
	void formatCharactersThatReorderOrHideTextAreEscaped() {
		// a bidi override makes "evil\u202etxt.exe" read as "evilexe.txt"; a zero-width
		// space and an unpaired surrogate hide what a log line really holds
		assertThat(Printable.of("evil\u202etxt.exe\u200b\uD800!", 200)).isEqualTo("evil\\u202etxt.exe\\u200b\\ud800!");
	}

	@Test
	void longTextIsCutToTheLimitWithAnEllipsis() {
		String cut = Printable.of("x".repeat(1_000_000), 200);

		assertThat(cut).hasSize(200).endsWith("x…");
		assertThat(Printable.of("\n".repeat(150), 200)).hasSizeLessThanOrEqualTo(200).endsWith("…");
		assertThat(Printable.of("x".repeat(200), 200)).isEqualTo("x".repeat(200));
	}

	@Test
	void aCutNeverSplitsASurrogatePair() {
		String cut = Printable.of("x".repeat(198) + "\uD83D\uDE00" + "tail", 200);

		assertThat(cut).isEqualTo("x".repeat(198) + "…");
	}

	@Test
	void nothingIsEmpty() {
		assertThat(Printable.of(null, 10)).isEmpty();
	}

	@Test
	void aCutNeverFallsInsideAnEscape() {
		assertThat(Printable.of("x".repeat(196) + "\u001b" + "tail", 200)).isEqualTo("x".repeat(196) + "…");
	}

}
