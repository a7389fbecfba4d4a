package dev.breaker.core.internal;

/**
 * The format of one cell of a {@link BucketWindow}: a long holding a 31-bit tag (the
 * epoch's low 31 bits, high bit set so a live tag is never 0) above a 32-bit signed
 * count, so the epoch and the count change together in one CAS.
 */
final class CellWords {

	/** The tag half of a word. */
	static final long TAG_MASK = 0xFFFF_FFFF_0000_0000L;

	/** The count half of a word. */
	static final long COUNT_MASK = 0xFFFF_FFFFL;

	private static final long EPOCH_BITS = 0x7FFF_FFFFL;

	private CellWords() {
	}

	/** The tag of {@code epoch}, in the word's upper half. */
	static long tag(long epoch) {
		return ((epoch & EPOCH_BITS) | 0x8000_0000L) << 32;
	}

	/**
	 * Whether word {@code w} holds a later epoch than tag {@code tag} (live tags are
	 * within 2^30 of each other).
	 */
	static boolean newer(long w, long tag) {
		long d = ((w >>> 32) - (tag >>> 32)) & EPOCH_BITS;
		return d != 0 && d < 1L << 30;
	}

	/** The epoch of word {@code w}, a live tag near {@code reference} (within 2^30). */
	static long decode(long w, long reference) {
		long d = ((reference & EPOCH_BITS) - ((w >>> 32) & EPOCH_BITS)) & EPOCH_BITS;
		return d < 1L << 30 ? reference - d : reference + ((1L << 31) - d);
	}

}
