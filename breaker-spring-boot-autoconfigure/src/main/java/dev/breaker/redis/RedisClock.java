package dev.breaker.redis;

/**
 * This replica's estimate of Redis's clock, from the {@code TIME} replies of its periodic
 * ping. Signed values carry the time they were issued on this clock, so freshness is
 * judged against Redis's one clock: replica clocks are never compared with each other.
 */
final class RedisClock {

	private record Sample(long redisMillis, long localNanos) {
	}

	private volatile Sample sample;

	/**
	 * A {@code TIME} reply ({@code redisMillis}), asked at {@code sentNanos} and answered
	 * at {@code receivedNanos}.
	 */
	void sample(long redisMillis, long sentNanos, long receivedNanos) {
		sample = new Sample(redisMillis, sentNanos + (receivedNanos - sentNanos) / 2);
	}

	/** Whether a sample has been taken yet. */
	boolean known() {
		return sample != null;
	}

	/**
	 * Redis's time, by this replica's estimate, at the local {@code System.nanoTime()}
	 * {@code localNanos} (which may be from before the first sample); -1 before the first
	 * sample.
	 */
	long at(long localNanos) {
		Sample s = sample;
		return s == null ? -1 : s.redisMillis + (localNanos - s.localNanos) / 1_000_000L;
	}

	/**
	 * Redis's time now by this replica's estimate, in milliseconds since the epoch; -1
	 * before the first sample.
	 */
	long now() {
		Sample s = sample;
		return s == null ? -1 : s.redisMillis + (System.nanoTime() - s.localNanos) / 1_000_000L;
	}

}
