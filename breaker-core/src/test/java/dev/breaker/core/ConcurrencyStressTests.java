package dev.breaker.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Outcomes that must never happen under many threads. */
@Tag("stress")
class ConcurrencyStressTests {

	private static final int THREADS = 4;

	private final Fixture fixture = new Fixture();

	@Test
	void neverMoreConcurrentHalfOpenProbesThanAllowed() {
		int maxProbes = 4;
		Breaker breaker = fixture.breaker(c -> c.consecutiveFailures(1)
			.halfOpenMaxProbes(maxProbes)
			.halfOpenSuccessesToClose(1_000_000)
			.halfOpenFailuresToReopen(1_000_000));
		breaker.halfOpen();
		AtomicInteger running = new AtomicInteger();
		AtomicInteger mostRunning = new AtomicInteger();
		AtomicLong probes = new AtomicLong();
		Concurrently.run(THREADS, i -> {
			for (int n = 0; n < 200_000; n++) {
				Permit p = breaker.acquire();
				if (!p.granted()) {
					continue;
				}
				int now = running.incrementAndGet();
				mostRunning.accumulateAndGet(now, Math::max);
				probes.incrementAndGet();
				running.decrementAndGet();
				breaker.release(p, n % 3 == 0 ? Outcome.FAILURE : Outcome.SUCCESS, 0);
			}
		});
		assertThat(breaker.state()).isEqualTo(State.HALF_OPEN);
		assertThat(mostRunning.get()).isBetween(1, maxProbes);
		assertThat(probes.get()).isGreaterThan(1000);
		assertThat(breaker.totals().probeSuccesses() + breaker.totals().probeFailures()).isEqualTo(probes.get());
	}

	@Test
	void exactlyOneTransitionEventPerTrip() {
		Breaker breaker = fixture.breaker(c -> c.consecutiveFailures(5).failureRateThreshold(10).minimumCalls(5));
		AtomicInteger opened = new AtomicInteger();
		breaker.onTransition(t -> {
			if (t.to() == State.OPEN) {
				opened.incrementAndGet();
			}
		});
		int rounds = 500;
		for (int round = 1; round <= rounds; round++) {
			Concurrently.run(THREADS, i -> {
				for (int n = 0; n < 20; n++) {
					Permit p = breaker.acquire();
					breaker.release(p, Outcome.FAILURE, 0);
				}
			});
			assertThat(opened.get()).as("OPEN events after round %d", round).isEqualTo(round);
			breaker.reset();
		}
		assertThat(breaker.totals().trips()).isEqualTo(rounds);
	}

	@Test
	void noFinishedCallIsLostFromTheTotalsOrTheWindow() {
		Breaker breaker = fixture.breaker(c -> c.consecutiveFailures(0).failureRateThreshold(0));
		int perThread = 250_000;
		Concurrently.run(THREADS, i -> {
			for (int n = 0; n < perThread; n++) {
				breaker.release(breaker.acquire(), n % 2 == 0 ? Outcome.SUCCESS : Outcome.FAILURE, 0);
				if (i == 0 && n % 10_000 == 0) {
					fixture.advance(Duration.ofMillis(100));
				}
			}
		});
		long all = (long) THREADS * perThread;
		assertThat(breaker.totals().calls(Outcome.SUCCESS) + breaker.totals().calls(Outcome.FAILURE)).isEqualTo(all);
		// 25 x 100ms: still inside the 10s window
		assertThat(breaker.snapshot().calls()).isEqualTo(all);
	}

}
