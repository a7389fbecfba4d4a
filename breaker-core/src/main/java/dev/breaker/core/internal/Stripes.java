package dev.breaker.core.internal;

/** Picks the stripe a thread writes to, so two threads rarely contend on one counter. */
public final class Stripes {

	/**
	 * Stripes per striped structure: enough for a few cores, small enough for a 4 KiB
	 * breaker.
	 */
	public static final int COUNT = 4;

	private Stripes() {
	}

	/**
	 * The calling thread's stripe in [0, COUNT): a field read and a multiply, no
	 * allocation.
	 */
	@SuppressWarnings("deprecation") // Thread.threadId() exists only from Java 19
	public static int current() {
		long id = Thread.currentThread().getId();
		return (int) ((id * 0x9E3779B97F4A7C15L) >>> 62);
	}

}
