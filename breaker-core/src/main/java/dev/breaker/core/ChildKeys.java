package dev.breaker.core;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * The key a child breaker is named by, from the key a user sent: printable
 * ({@link BreakerNames#printable}, a backslash doubled too, so two keys never share a
 * child), and no longer than the group's limit, a longer key being cut to a prefix,
 * {@code ~} and a hash.
 */
public final class ChildKeys {

	/*
	 * The hash is the first 16 hex digits (64 bits) of SHA-256 over the printable key's
	 * UTF-8 bytes: the same on every replica and JVM, so fleet mode matches a shortened
	 * child by name. 64 bits put a collision of two honest keys out of reach (2^32 long
	 * keys with one prefix before even odds); a user who wants another tenant's child
	 * must know that tenant's whole key, and could then send it. Keys within the limit
	 * (nearly all of them) cost a scan and no allocation.
	 */

	/** The longest key kept as it is unless a group says otherwise. */
	public static final int DEFAULT_MAX_LENGTH = 128;

	/**
	 * The shortest limit a group may set: room for a prefix besides the separator and the
	 * hash.
	 */
	public static final int MIN_MAX_LENGTH = 32;

	/** The longest limit a group may set. */
	public static final int MAX_MAX_LENGTH = 1024;

	private static final int HASH_DIGITS = 16;

	private static final char SEPARATOR = '~';

	private static final char[] HEX = "0123456789abcdef".toCharArray();

	private ChildKeys() {
	}

	/**
	 * The child key for {@code key}: {@code key} itself when it is printable and at most
	 * {@code maxLength} characters long (no allocation), else its printable form,
	 * shortened when still too long.
	 * @param maxLength in [{@value #MIN_MAX_LENGTH}, {@value #MAX_MAX_LENGTH}]
	 */
	public static String of(String key, int maxLength) {
		String printable = BreakerNames.escape(key, true);
		return printable.length() <= maxLength ? printable : shorten(printable, maxLength);
	}

	private static String shorten(String key, int maxLength) {
		int prefix = maxLength - 1 - HASH_DIGITS;
		if (Character.isHighSurrogate(key.charAt(prefix - 1))) {
			prefix--;
		}
		byte[] digest = sha256(key.getBytes(StandardCharsets.UTF_8));
		StringBuilder out = new StringBuilder(prefix + 1 + HASH_DIGITS).append(key, 0, prefix).append(SEPARATOR);
		for (int i = 0; i < HASH_DIGITS / 2; i++) {
			out.append(HEX[(digest[i] >> 4) & 0xF]).append(HEX[digest[i] & 0xF]);
		}
		return out.toString();
	}

	private static byte[] sha256(byte[] bytes) {
		try {
			return MessageDigest.getInstance("SHA-256").digest(bytes);
		}
		catch (NoSuchAlgorithmException e) {
			throw new IllegalStateException("every Java platform has SHA-256", e);
		}
	}

}
