package dev.breaker.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Child keys come from users (tenant ids, host names): every child is named printably,
 * and a key longer than the group's limit is shortened to a prefix and a hash that every
 * JVM computes alike.
 */
class ChildKeysTests {

	private final Fixture fixture = new Fixture();

	private final BreakerRegistry registry = BreakerRegistry.builder()
		.defaults(fixture.config().build())
		.children("recommendations", new BreakerRegistry.Children(100, Duration.ofMinutes(5), true))
		.build();

	@Test
	void aKeyWithALineBreakNamesItsChildWithTheBreakEscaped() {
		Breaker child = registry.breaker("recommendations", "crlf\r\nERROR FAKE-LINE");
		assertThat(child.name()).isEqualTo("recommendations:crlf\\r\\nERROR FAKE-LINE");
		assertThat(child.key()).isEqualTo("crlf\\r\\nERROR FAKE-LINE");
	}

	@Test
	void everyControlCharacterOfAKeyIsEscaped() {
		String key = "a\u001b[31mred\u0000\u0007\u007f\u0085\u2028\u202e\tz";
		assertThat(registry.breaker("recommendations", key).key())
			.isEqualTo("a\\u001b[31mred\\u0000\\u0007\\u007f\\u0085\\u2028\\u202e\\tz")
			.matches("\\p{Print}+");
	}

	@Test
	void aBackslashIsEscapedSoThatTwoKeysNeverShareAChild() {
		Breaker lineBreak = registry.breaker("recommendations", "a\nb");
		Breaker backslashN = registry.breaker("recommendations", "a\\nb");
		assertThat(backslashN.key()).isEqualTo("a\\\\nb");
		assertThat(backslashN).isNotSameAs(lineBreak);
	}

	@Test
	void aPrintableKeyIsKeptAsItIs() {
		String key = "user-42@acme.com:Zürich";
		assertThat(registry.breaker("recommendations", key).key()).isSameAs(key);
	}

	@Test
	void aKeyLongerThan128CharactersIsShortenedToAPrefixAndAHash() {
		String key = "u".repeat(7000);
		Breaker child = registry.breaker("recommendations", key);
		assertThat(child.key()).hasSize(128).startsWith("u".repeat(111) + "~");
		assertThat(child.key().substring(112)).matches("[0-9a-f]{16}");
	}

	@Test
	void theShortenedKeyIsTheSameInEveryJvm() {
		// The first 16 hex digits of SHA-256 over the key's UTF-8 bytes: fleet mode
		// matches children by name.
		assertThat(registry.breaker("recommendations", "u".repeat(7000)).key())
			.isEqualTo("u".repeat(111) + "~" + "5fa7131ee255f746");
	}

	@Test
	void longKeysWithTheSamePrefixGetDifferentChildren() {
		Breaker a = registry.breaker("recommendations", "u".repeat(7000) + "a");
		Breaker b = registry.breaker("recommendations", "u".repeat(7000) + "b");
		assertThat(a).isNotSameAs(b);
		assertThat(a.key()).isNotEqualTo(b.key());
		assertThat(registry.breaker("recommendations", "u".repeat(7000) + "a")).isSameAs(a);
	}

	@Test
	void aLongKeyIsNotCutInsideASurrogatePair() {
		String key = "u".repeat(110) + "\uD83D\uDE00" + "x".repeat(100);
		String shortened = registry.breaker("recommendations", key).key();
		assertThat(shortened).startsWith("u".repeat(110) + "~").hasSize(127);
	}

	@Test
	void aChildIsFoundByTheKeyAsTheUserSentIt() {
		Breaker shortened = registry.breaker("recommendations", "u".repeat(7000));
		Breaker escaped = registry.breaker("recommendations", "crlf\r\nFAKE");
		assertThat(registry.find("recommendations:" + "u".repeat(7000))).containsSame(shortened);
		assertThat(registry.find("recommendations:crlf\r\nFAKE")).containsSame(escaped);
		assertThat(registry.find(escaped.name())).containsSame(escaped);
	}

	@Test
	void theLimitIsSetPerGroup() {
		BreakerRegistry registry = BreakerRegistry.builder()
			.defaults(fixture.config().build())
			.children("tenants", new BreakerRegistry.Children(100, Duration.ofMinutes(5), true, 1, 40))
			.build();
		assertThat(registry.breaker("tenants", "t".repeat(41)).key()).hasSize(40).startsWith("t".repeat(23) + "~");
		assertThat(registry.breaker("tenants", "t".repeat(40)).key()).isEqualTo("t".repeat(40));
	}

	@Test
	void tenThousandKeysOfSevenThousandCharactersKeepOnlyTheirShortenedNames() {
		BreakerRegistry registry = BreakerRegistry.builder()
			.defaults(fixture.config().build())
			.children("recommendations", new BreakerRegistry.Children(10_000, Duration.ofMinutes(5), true, 3, 128))
			.build();
		String id = "x".repeat(7000);
		for (int i = 0; i < 10_000; i++) {
			registry.breaker("recommendations", id + i);
		}
		assertThat(registry.children("recommendations")).hasSize(10_000).allSatisfy(child -> {
			assertThat(child.key()).hasSize(128);
			assertThat(child.name()).hasSize("recommendations:".length() + 128);
		});
		assertThat(registry.children("recommendations").stream().map(Breaker::key).distinct()).hasSize(10_000);
	}

}
