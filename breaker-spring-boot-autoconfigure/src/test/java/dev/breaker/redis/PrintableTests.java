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

}
