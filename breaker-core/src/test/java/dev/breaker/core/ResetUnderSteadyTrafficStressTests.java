package dev.breaker.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Two listeners that reset each other's breaker, while other threads keep calling both:
 * each operator's reset ends after one turn (each breaker told once), however many calls
 * finish between the turns. Before, the loop went on as long as a call finished between
 * two resets, so steady traffic kept the operator's thread in it.
 */
@Tag("stress")
class ResetUnderSteadyTrafficStressTests {

	private static final int CALLERS = 3;

	@Test
	void twoListenersResettingEachOthersBreakerEndAfterOneTurnUnderSteadyTraffic() throws Exception {
		Fixture fixture = new Fixture();
		Breaker payments = Breaker.of("payments", fixture.config().consecutiveFailures(0).build());
		Breaker shipping = Breaker.of("shipping", fixture.config().consecutiveFailures(0).build());
		AtomicInteger told = new AtomicInteger();
		payments.onTransition(t -> {
			if (told.incrementAndGet() < 1_000_000) {
				shipping.reset();
			}
		});
		shipping.onTransition(t -> {
			if (told.incrementAndGet() < 1_000_000) {
				payments.reset();
			}
		});
		AtomicBoolean done = new AtomicBoolean();
		AtomicInteger calls = new AtomicInteger();
		Thread[] callers = new Thread[CALLERS];
		for (int i = 0; i < CALLERS; i++) {
			Breaker breaker = i % 2 == 0 ? payments : shipping;
			callers[i] = new Thread(() -> {
				while (!done.get()) {
					Fixture.succeed(breaker, 1);
					calls.incrementAndGet();
				}
			}, "caller-" + i);
			callers[i].start();
		}
		int rounds = Rounds.count(2_000);
		int most = 0;
		try {
			for (int round = 0; round < rounds; round++) {
				int before = told.get();
				int seenCalls = calls.get();
				while (calls.get() - seenCalls < 2) {
					Thread.onSpinWait(); // traffic has finished calls since the last
											// round
				}
				payments.reset();
				most = Math.max(most, told.get() - before);
			}
		}
		finally {
			done.set(true);
			for (Thread t : callers) {
				t.join();
			}
		}
		assertThat(most).as("transitions told for one operator's reset, over %d rounds", rounds).isLessThanOrEqualTo(2);
	}

}
