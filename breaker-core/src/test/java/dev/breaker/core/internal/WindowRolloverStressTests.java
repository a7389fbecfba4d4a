package dev.breaker.core.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Never happens: a count lost when a bucket rolls over. A naive window checks "is this
 * bucket stale?", then zeroes it, then adds: when two writers enter a new bucket
 * together, the second one's zero wipes the first one's increment. Here the writers enter
 * every new bucket together, on purpose.
 */
@Tag("stress")
class WindowRolloverStressTests {

	private static final long MS = 1_000_000;

	private static final int BUCKETS = 4000;

	private static final int ROUNDS = BUCKETS - 100;

	private static final int WRITERS = Math.max(2, Math.min(4, Runtime.getRuntime().availableProcessors()));

	private static final int PER_ROUND = 20;

	@Test
	void noCountIsLostWhenWritersEnterANewBucketTogether() throws Exception {
		// One stripe: every writer updates the same words, the worst rollover race.
		BucketWindow window = new BucketWindow(MS, BUCKETS, BucketWindow.FINISHED_KINDS, 1);
		AtomicLong now = new AtomicLong();
		// Every slot holds an older epoch: each new bucket must displace a stale word.
		for (int i = 0; i < BUCKETS; i++) {
			window.record(BucketWindow.SUCCESS, now.getAndAdd(MS));
		}
		long start = now.get();
		Lockstep.run(WRITERS, ROUNDS, now, MS, (writer, t) -> {
			for (int i = 0; i < PER_ROUND; i++) {
				window.record(BucketWindow.SUCCESS, t);
			}
		});
		long current = window.epoch(start) + ROUNDS;
		for (int r = 0; r < ROUNDS; r++) {
			assertThat(window.count(BucketWindow.SUCCESS, current - ROUNDS + r)).as("bucket of round %d", r)
				.isEqualTo((long) WRITERS * PER_ROUND);
		}
	}

}
