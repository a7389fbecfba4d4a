package dev.breaker.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

class NaiveBreakerTests {

	private static final long SECOND = TimeUnit.SECONDS.toNanos(1);

	private long now = 1_000 * SECOND;

	private final NaiveBreaker breaker = new NaiveBreaker(10 * SECOND, 100, 20, 50, 30 * SECOND, () -> now);

	@Test
	void staysClosedWhileCallsSucceed() {
		record(1_000, false);

		assertThat(breaker.isClosed()).isTrue();
		assertThat(breaker.tryAcquire()).isTrue();
	}

	@Test
	void opensWhenHalfOfTwentyCallsFailed() {
		record(10, false);
		record(10, true);

		assertThat(breaker.isOpen()).isTrue();
		assertThat(breaker.tryAcquire()).isFalse();
	}

	@Test
	void doesNotOpenBeforeTheMinimumNumberOfCalls() {
		record(19, true);

		assertThat(breaker.isClosed()).isTrue();
	}

	@Test
	void forgetsCallsOlderThanTheWindow() {
		record(15, true);
		now += 11 * SECOND;
		record(5, true);
		record(15, false);

		assertThat(breaker.isClosed()).isTrue();
	}

	@Test
	void neverHoldsMoreThanItsMaximumNumberOfCalls() {
		record(1_000, false);

		assertThat(breaker.callsHeld()).isEqualTo(100);
	}

	@Test
	void letsOneProbeThroughOnceTheOpenWaitIsOver() {
		record(20, true);
		now += 30 * SECOND;

		assertThat(breaker.tryAcquire()).isTrue();
		assertThat(breaker.tryAcquire()).isFalse();
	}

	@Test
	void closesWhenTheProbeSucceeds() {
		record(20, true);
		now += 30 * SECOND;
		breaker.tryAcquire();
		breaker.onSuccess();

		assertThat(breaker.isClosed()).isTrue();
		assertThat(breaker.callsHeld()).isZero();
	}

	@Test
	void reopensWhenTheProbeFails() {
		record(20, true);
		now += 30 * SECOND;
		breaker.tryAcquire();
		breaker.onFailure();

		assertThat(breaker.isOpen()).isTrue();
		now += 29 * SECOND;
		assertThat(breaker.tryAcquire()).isFalse();
	}

	@Test
	void refusesAMinimumLargerThanTheList() {
		assertThatIllegalArgumentException().isThrownBy(() -> new NaiveBreaker(SECOND, 10, 11, 50, SECOND, () -> now));
	}

	private void record(int calls, boolean failed) {
		for (int i = 0; i < calls; i++) {
			if (breaker.tryAcquire()) {
				if (failed) {
					breaker.onFailure();
				}
				else {
					breaker.onSuccess();
				}
			}
		}
	}

}
