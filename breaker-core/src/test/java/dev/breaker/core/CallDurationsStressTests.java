package dev.breaker.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Never happens: a histogram bucket that Prometheus sees go down (rate() would read it as
 * a restart), or a lower bucket above a higher one, while calls of every duration finish
 * on other threads.
 */
@Tag("stress")
class CallDurationsStressTests {

	private static final long MS = 1_000_000;

	private static final int CALLS = "long".equals(System.getProperty("breaker.stress")) ? 2_000_000 : 200_000;

	private static final long[] DURATIONS = { 0, 3 * MS, 20 * MS, 400 * MS, 3_000 * MS, 90_000 * MS };

	@Test
	void countsNeverDecreaseAndStayOrderedByBoundWhileCallsFinish() throws Exception {
		Breaker breaker = Breaker.of("payments",
				BreakerConfig.builder().consecutiveFailures(0).failureRateThreshold(0).build());
		CallDurations durations = breaker.durations();
		int bounds = durations.bounds().size();
		AtomicBoolean done = new AtomicBoolean();
		AtomicReference<String> violation = new AtomicReference<>();
		Thread reader = new Thread(() -> {
			long[][] last = new long[Outcome.values().length][bounds + 1];
			while (!done.get() && violation.get() == null) {
				for (Outcome outcome : List.of(Outcome.SUCCESS, Outcome.FAILURE)) {
					long previous = 0;
					for (int i = 0; i <= bounds; i++) {
						long c = durations.count(outcome, i);
						if (c < last[outcome.ordinal()][i]) {
							violation.set(outcome + " bound " + i + " went down from " + last[outcome.ordinal()][i]
									+ " to " + c);
						}
						if (c < previous) {
							violation.set(
									outcome + " bound " + i + " read " + c + " below the bound before it, " + previous);
						}
						last[outcome.ordinal()][i] = c;
						previous = c;
					}
				}
			}
		});
		List<Thread> writers = new ArrayList<>();
		for (int w = 0; w < 2; w++) {
			writers.add(new Thread(() -> {
				for (int i = 0; i < CALLS; i++) {
					Permit permit = breaker.acquire();
					breaker.release(permit, i % 3 == 0 ? Outcome.FAILURE : Outcome.SUCCESS,
							DURATIONS[i % DURATIONS.length]);
				}
			}));
		}
		reader.start();
		writers.forEach(Thread::start);
		for (Thread t : writers) {
			t.join();
		}
		done.set(true);
		reader.join();
		assertThat(violation.get()).isNull();
		assertThat(durations.count(Outcome.SUCCESS, bounds) + durations.count(Outcome.FAILURE, bounds))
			.isEqualTo(2L * CALLS);
		int tenMs = durations.bounds().indexOf(java.time.Duration.ofMillis(10));
		long under = 0;
		for (int i = 0; i < CALLS; i++) {
			under += DURATIONS[i % DURATIONS.length] <= 10 * MS && i % 3 != 0 ? 1 : 0;
		}
		assertThat(durations.count(Outcome.SUCCESS, tenMs)).isEqualTo(2 * under);
	}

}
