package dev.breaker.core.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Never happens: a duration lost from the latency totals when slots roll over under
 * writers. Every round, all writers enter a new epoch together, so each round's first
 * writers race to drain the same slot while the others add to it, fold, or arrive late.
 */
@Tag("stress")
class LatencyRolloverStressTests {

	private static final long MS = 1_000_000;

	private static final int SLOTS = 3;

	private static final int ROUNDS = "long".equals(System.getProperty("breaker.stress")) ? 20_000 : 2_000;

	private static final int WRITERS = Math.max(2, Math.min(4, Runtime.getRuntime().availableProcessors()));

	private static final int PER_ROUND = 10;

	private static final long[] DURATIONS = { 20 * MS, 21 * MS, 900 * MS };

	@Test
	void noDurationIsLostFromTheTotalsWhenWritersRollSlotsOverTogether() throws Exception {
		LatencyWindow window = new LatencyWindow(MS, SLOTS);
		AtomicLong now = new AtomicLong();
		Lockstep.run(WRITERS, ROUNDS, now, MS, (writer, t) -> {
			for (int i = 0; i < PER_ROUND; i++) {
				// every other writer also reports a late call, finished a whole ring ago
				long at = writer % 2 == 1 && i == 0 ? t - SLOTS * MS : t;
				window.record(DURATIONS[i % DURATIONS.length], at, 0);
			}
		});
		long recorded = (long) WRITERS * ROUNDS * PER_ROUND;
		long total = 0;
		for (int b = 0; b < LatencyWindow.BINS; b++) {
			total += window.total(b);
		}
		assertThat(total).isEqualTo(recorded);
		int slowBin = LatencyWindow.bin(900 * MS);
		long slow = 0;
		for (int i = 0; i < PER_ROUND; i++) {
			slow += i % DURATIONS.length == 2 ? 1 : 0;
		}
		assertThat(window.total(slowBin)).isEqualTo(slow * WRITERS * ROUNDS);
		long[] bins = new long[LatencyWindow.BINS];
		window.read(now.get() - MS, 0, bins);
		long shown = 0;
		for (long c : bins) {
			shown += c;
		}
		// the last SLOTS rounds at most, plus an older round's counts one ring late
		assertThat(shown).isBetween(0L, (long) SLOTS * WRITERS * PER_ROUND + WRITERS * PER_ROUND);
	}

	@Test
	void noDurationIsLostWhileOneThreadKeepsDrainingTheSlotTheOthersWriteTo() throws Exception {
		// One slot: every new epoch drains the very slot the writers add to, as fast as
		// the roller can, for a while (a lost count needs a writer's add between a
		// drain's read and reset of one bin).
		LatencyWindow window = new LatencyWindow(MS, 1);
		AtomicLong now = new AtomicLong();
		AtomicLong written = new AtomicLong();
		long runNanos = ("long".equals(System.getProperty("breaker.stress")) ? 10_000 : 500) * MS;
		java.util.concurrent.atomic.AtomicBoolean stop = new java.util.concurrent.atomic.AtomicBoolean();
		List<Thread> threads = new ArrayList<>();
		threads.add(new Thread(() -> {
			long n = 0;
			while (!stop.get()) {
				// drains the slot, then writes
				window.record(20 * MS, now.addAndGet(MS), 0);
				n++;
			}
			written.addAndGet(n);
		}));
		for (int w = 1; w < WRITERS; w++) {
			threads.add(new Thread(() -> {
				long n = 0;
				while (!stop.get()) {
					window.record(20 * MS, now.get(), 0);
					n++;
				}
				written.addAndGet(n);
			}));
		}
		threads.forEach(Thread::start);
		long deadline = System.nanoTime() + runNanos;
		while (System.nanoTime() < deadline) {
			Thread.sleep(10);
		}
		stop.set(true);
		for (Thread t : threads) {
			t.join();
		}
		assertThat(window.total(LatencyWindow.bin(20 * MS))).isEqualTo(written.get());
	}

}
