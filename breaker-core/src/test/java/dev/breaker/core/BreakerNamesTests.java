package dev.breaker.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import org.junit.jupiter.api.Test;

/** A name, or any text a user sent, printed with its control characters escaped. */
class BreakerNamesTests {

	@Test
	void escapesLineBreaksTabsAndEscapeCharacters() {
		assertThat(BreakerNames.printable("a\r\nb\tc\u001b[31m")).isEqualTo("a\\r\\nb\\tc\\u001b[31m");
	}

	@Test
	void escapesDeleteC1ControlsLineSeparatorsAndBidiOverrides() {
		assertThat(BreakerNames.printable("\u007f\u009b\u2028\u2029\u202e\u2066\u200f\ufeff"))
			.isEqualTo("\\u007f\\u009b\\u2028\\u2029\\u202e\\u2066\\u200f\\ufeff");
	}

	@Test
	void keepsLettersOfEveryScriptAndPairedSurrogates() {
		String text = "Zürich-東京-\uD83D\uDE00";
		assertThat(BreakerNames.printable(text)).isSameAs(text);
	}

	@Test
	void escapesALoneSurrogate() {
		assertThat(BreakerNames.printable("a\uD83Db")).isEqualTo("a\\ud83db");
		assertThat(BreakerNames.printable("a\uDE00")).isEqualTo("a\\ude00");
	}

	@Test
	void escapesAFormatCharacterOutsideTheBasicPlane() {
		assertThat(BreakerNames.printable("tag\uDB40\uDC01")).isEqualTo("tag\\udb40\\udc01");
	}

	@Test
	void printingAPrintableNameAgainChangesNothing() {
		String once = BreakerNames.printable("crlf\r\nx\\y");
		assertThat(once).isEqualTo("crlf\\r\\nx\\y");
		assertThat(BreakerNames.printable(once)).isSameAs(once);
	}

	@Test
	void aBoundedPrintableTextIsWholeWhenItFits() {
		assertThat(BreakerNames.printable("a\nb", 4)).isEqualTo("a\\nb");
		assertThat(BreakerNames.printable("x".repeat(200), 200)).isEqualTo("x".repeat(200));
	}

	@Test
	void aBoundedPrintableTextIsCutBetweenCharactersAndEscapesWithAnEllipsis() {
		assertThat(BreakerNames.printable("x".repeat(1_000_000), 200)).isEqualTo("x".repeat(199) + "…");
		assertThat(BreakerNames.printable("x".repeat(197) + "\u001b" + "tail", 200)).isEqualTo("x".repeat(197) + "…");
		assertThat(BreakerNames.printable("x".repeat(198) + "\uD83D\uDE00" + "tail", 200))
			.isEqualTo("x".repeat(198) + "…");
		assertThat(BreakerNames.printable("\n".repeat(150), 200)).isEqualTo("\\n".repeat(99) + "…");
		assertThat(BreakerNames.printable("x".repeat(190) + "\uD83Dy".repeat(3), 200))
			.isEqualTo("x".repeat(190) + "\\ud83dy" + "…");
	}

	@Test
	void aBoundOfLessThanTwoIsRefused() {
		assertThatIllegalArgumentException().isThrownBy(() -> BreakerNames.printable("abc", 1));
	}

}
