package dev.breaker.redis;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** HMAC-SHA256 over length-prefixed fields, with the fleet's secret. */
class MessageSignerTests {

	private final MessageSigner signer = MessageSigner.of("signing-key-of-the-checkout-fleet");

	@Test
	void aSignatureVerifiesOnlyForTheSameFieldsAndKey() {
		String signature = signer.sign("OPEN", "payments", "e1");

		assertThat(signature).hasSize(43);
		assertThat(signer.verify(signature, "OPEN", "payments", "e1")).isTrue();
		assertThat(signer.verify(signature, "OPEN", "payments", "e2")).isFalse();
		assertThat(MessageSigner.of("another-key-of-16-chars").verify(signature, "OPEN", "payments", "e1")).isFalse();
		assertThat(signer.verify("", "OPEN", "payments", "e1")).isFalse();
		assertThat(signer.verify("not base64 !", "OPEN", "payments", "e1")).isFalse();
	}

	@Test
	void fieldBoundariesAreSigned() {
		assertThat(signer.sign("ab", "c")).isNotEqualTo(signer.sign("a", "bc"));
	}

	@Test
	void withoutAKeyNothingIsSignedAndEverythingVerifies() {
		MessageSigner off = MessageSigner.of("");

		assertThat(off.on()).isFalse();
		assertThat(off.sign("OPEN")).isEmpty();
		assertThat(off.verify("", "OPEN")).isTrue();
	}

}
