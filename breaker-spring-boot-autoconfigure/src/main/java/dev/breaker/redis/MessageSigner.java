package dev.breaker.redis;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Base64;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * HMAC-SHA256 over what a replica writes (messages, hashes, votes, probe claims, window
 * counts), with the secret the replicas share ({@code breaker.shared.redis.signing-key}).
 * Without a secret, signing is off: signatures are empty and everything verifies.
 *
 * <p>
 * Fields are signed length-prefixed, so no two different field lists share a signature
 * ({@code "ab","c"} and {@code "a","bc"} differ). The first field names what is signed
 * ({@code OPEN}, {@code VOTE}...), so a signature of one kind never passes for another.
 */
final class MessageSigner {

	private static final String ALGORITHM = "HmacSHA256";

	private final SecretKeySpec key;

	private final ThreadLocal<Mac> macs;

	private MessageSigner(SecretKeySpec key) {
		this.key = key;
		this.macs = key == null ? null : ThreadLocal.withInitial(this::newMac);
	}

	/** Signing with this secret; off when it is null or empty. */
	static MessageSigner of(String secret) {
		return secret == null || secret.isEmpty() ? new MessageSigner(null)
				: new MessageSigner(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), ALGORITHM));
	}

	boolean on() {
		return key != null;
	}

	/**
	 * The signature of these fields (URL-safe Base64, 43 characters), or "" when signing
	 * is off.
	 */
	String sign(String... fields) {
		if (key == null) {
			return "";
		}
		return Base64.getUrlEncoder().withoutPadding().encodeToString(mac(fields));
	}

	/**
	 * Whether {@code signature} is these fields' signature; always true when signing is
	 * off.
	 */
	boolean verify(String signature, String... fields) {
		if (key == null) {
			return true;
		}
		byte[] given;
		try {
			given = Base64.getUrlDecoder().decode(signature == null ? "" : signature);
		}
		catch (IllegalArgumentException notBase64) {
			return false;
		}
		return MessageDigest.isEqual(given, mac(fields));
	}

	private byte[] mac(String... fields) {
		Mac mac = macs.get();
		for (String field : fields) {
			byte[] bytes = (field == null ? "" : field).getBytes(StandardCharsets.UTF_8);
			mac.update(new byte[] { (byte) (bytes.length >>> 24), (byte) (bytes.length >>> 16),
					(byte) (bytes.length >>> 8), (byte) bytes.length });
			mac.update(bytes);
		}
		return mac.doFinal();
	}

	private Mac newMac() {
		try {
			Mac mac = Mac.getInstance(ALGORITHM);
			mac.init(key);
			return mac;
		}
		catch (GeneralSecurityException e) {
			throw new IllegalStateException("HMAC-SHA256 is not available in this JVM", e);
		}
	}

}
