package dev.breaker.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Never happens: the stall rule trips on calls that are not stalled. Two threads make a
 * million short calls each on the real cached ticker, crossing a bucket boundary every
 * millisecond (so the ticker moves in the middle of many calls); most calls are timed
 * with the caller's own clock, as a user of acquire/release may do. A trip is never
 * legitimate here, however long the machine pauses a thread: the stall check runs in
 * acquire, when the checking thread has no call of its own in flight, so at most one call
 * (the other thread's) can be in flight at all, and the rule needs two.
 */
@Tag("stress")
class StallStressTests {

	@Test
	void aMillionShortCallsOnTwoThreadsNeverTripTheStallRule() {
		int perThread = Rounds.count(1_000_000);
		Breaker breaker = Breaker.of("stall",
				BreakerConfig.builder()
					.stallCalls(2)
					.slowCallDuration(Duration.ofMillis(50))
					.bucket(Duration.ofMillis(1))
					.window(Duration.ofMillis(100))
					.consecutiveFailures(0)
					.failureRateThreshold(0)
					.build());
		AtomicInteger trips = new AtomicInteger();
		AtomicLong longest = new AtomicLong();
		breaker.onTransition(t -> trips.incrementAndGet());
		Concurrently.run(2, i -> {
			for (int n = 0; n < perThread; n++) {
				long wallStart = System.nanoTime();
				if ((n & 3) != 0) {
					Permit p = breaker.acquire();
					long start = System.nanoTime();
					spin(n);
					breaker.release(p, Outcome.SUCCESS, System.nanoTime() - start);
				}
				else {
					breaker.call(() -> spin(0));
				}
				long took = System.nanoTime() - wallStart;
				if (took > longest.get()) {
					longest.accumulateAndGet(took, Math::max);
				}
			}
		});
		System.out.println("StallStressTests: longest call " + longest.get() / 1000 + " us, trips " + trips.get());
		assertThat(trips.get()).as("stall trips (longest call %d us)", longest.get() / 1000).isZero();
		assertThat(breaker.snapshot().inFlight()).isZero();
	}

	private static int spin(int n) {
		int x = n;
		for (int i = 0; i < 50; i++) {
			x = x * 31 + i;
		}
		return x;
	}

}
