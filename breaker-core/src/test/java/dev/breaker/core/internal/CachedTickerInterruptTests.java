package dev.breaker.core.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The shared ticker thread, once something interrupts it (a container interrupting the
 * threads it did not start, on undeploy): it keeps parking between ticks instead of
 * spinning a core, and keeps time. Counted in loop turns, with a bound a thousand times
 * wider than a parked thread needs.
 */
class CachedTickerInterruptTests {

	/**
	 * A parked ticker turns about once a millisecond; a spinning one, millions of times a
	 * second.
	 */
	private static final long MAX_TURNS = 50_000;

	@Test
	void anInterruptedTickerThreadStillParksBetweenTicks() throws Exception {
		CachedTicker ticker = CachedTicker.INSTANCE;
		Thread thread = tickerThread();

		for (int round = 0; round < 3; round++) {
			thread.interrupt();
			awaitInterruptHandled(thread);
			long before = ticker.turns();
			long from = ticker.nanos();
			Thread.sleep(50);
			long turns = ticker.turns() - before;
			assertThat(turns).as("loop turns of the ticker thread in ~50 ms after interrupt %d", round + 1)
				.isLessThan(MAX_TURNS);
			assertThat(ticker.nanos()).as("time still advances").isGreaterThan(from);
		}
		assertThat(thread.isAlive()).isTrue();
	}

	private static Thread tickerThread() {
		CachedTicker.INSTANCE.nanos();
		return Thread.getAllStackTraces()
			.keySet()
			.stream()
			.filter((t) -> t.getName().equals("breaker-ticker"))
			.findFirst()
			.orElseThrow();
	}

	/** The thread clears the flag (an interrupted park returns at once, for ever). */
	private static void awaitInterruptHandled(Thread thread) throws InterruptedException {
		long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
		while (thread.isInterrupted() && System.nanoTime() - deadline < 0) {
			Thread.sleep(1);
		}
	}

}
