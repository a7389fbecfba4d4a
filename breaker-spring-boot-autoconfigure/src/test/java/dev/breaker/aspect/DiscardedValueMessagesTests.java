package dev.breaker.aspect;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The message of an error freeing a discarded value, as the warning prints it: escaped
 * and bounded, never cut inside a character or an escape.
 */
class DiscardedValueMessagesTests {

	@Test
	void aCutMessageNeverEndsInsideAnEscapeOrACharacter() {
		int room = DiscardedValues.MESSAGE - 1;
		assertThat(DiscardedValues.bounded("x".repeat(room - 3) + "\u001b[31m")).isEqualTo("x".repeat(room - 3) + "…");
		assertThat(DiscardedValues.bounded("x".repeat(room) + "\uD83D\uDE00")).isEqualTo("x".repeat(room) + "…");
	}

	@Test
	void aShortMessageIsEscapedWhole() {
		assertThat(DiscardedValues.bounded("pool gone\nWARN forged")).isEqualTo("pool gone\\nWARN forged");
		assertThat(DiscardedValues.bounded(null)).isEmpty();
	}

}
