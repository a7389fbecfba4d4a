package dev.breaker.core.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The highest value of the last hour, in five-minute steps. */
class HourlyPeakTests {

	private static final long MINUTE = Duration.ofMinutes(1).toNanos();

	private final HourlyPeak peak = new HourlyPeak();

	@Test
	void isZeroBeforeAnythingIsRecorded() {
		assertThat(peak.max(0)).isZero();
		assertThat(peak.max(Long.MAX_VALUE)).isZero();
		assertThat(peak.max(Long.MIN_VALUE)).isZero();
	}

	@Test
	void keepsTheHighestValueRecorded() {
		peak.record(0, 5);
		peak.record(MINUTE, 9);
		peak.record(2 * MINUTE, 7);
		assertThat(peak.max(3 * MINUTE)).isEqualTo(9);
	}

	@Test
	void keepsTheHighestValueOfEachStep() {
		peak.record(0, 9);
		peak.record(10 * MINUTE, 4);
		assertThat(peak.max(10 * MINUTE)).isEqualTo(9);
		assertThat(peak.max(60 * MINUTE)).isEqualTo(4);
	}

	@Test
	void forgetsAValue55To60MinutesAfterItWasRecorded() {
		peak.record(0, 9);
		peak.record(5 * MINUTE - 1, 8);
		assertThat(peak.max(60 * MINUTE - 1)).isEqualTo(9);
		assertThat(peak.max(60 * MINUTE)).isZero();
	}

	@Test
	void aStepReusingASlotReplacesTheOldValueEvenIfLower() {
		peak.record(0, 100);
		peak.record(60 * MINUTE, 3);
		assertThat(peak.max(60 * MINUTE)).isEqualTo(3);
	}

	@Test
	void aLateRecordOfAnOlderStepNeverOverwritesANewerOne() {
		peak.record(60 * MINUTE, 3);
		peak.record(0, 100);
		assertThat(peak.max(60 * MINUTE)).isEqualTo(3);
	}

	@Test
	void aValueRecordedInTheFutureOfTheReaderIsNotCounted() {
		peak.record(10 * MINUTE, 7);
		assertThat(peak.max(5 * MINUTE)).isZero();
	}

	@Test
	void valuesSaturateAndNegativeOnesCountAsZero() {
		peak.record(0, Long.MAX_VALUE);
		assertThat(peak.max(0)).isEqualTo(HourlyPeak.MAX_VALUE);
		HourlyPeak other = new HourlyPeak();
		other.record(0, -5);
		assertThat(other.max(0)).isZero();
	}

	@Test
	void worksAtTheEndsOfTheTickerRangeWithoutWrapping() {
		peak.record(Long.MIN_VALUE, 11);
		assertThat(peak.max(Long.MIN_VALUE)).isEqualTo(11);
		assertThat(peak.max(Long.MAX_VALUE)).isZero();
		HourlyPeak late = new HourlyPeak();
		late.record(Long.MAX_VALUE, 12);
		assertThat(late.max(Long.MAX_VALUE)).isEqualTo(12);
		assertThat(late.max(Long.MIN_VALUE)).isZero();
		assertThat(late.max(0)).isZero();
	}

	@Test
	void negativeTickerValuesWork() {
		peak.record(-MINUTE, 6);
		assertThat(peak.max(-MINUTE)).isEqualTo(6);
		assertThat(peak.max(4 * MINUTE)).isEqualTo(6);
		assertThat(peak.max(55 * MINUTE)).isZero();
	}

	@Test
	void aValueIsNeverLostToAConcurrentSmallerOne() throws InterruptedException {
		Thread[] threads = new Thread[4];
		java.util.concurrent.atomic.AtomicReference<String> lost = new java.util.concurrent.atomic.AtomicReference<>();
		for (int t = 0; t < threads.length; t++) {
			int offset = t;
			threads[t] = new Thread(() -> {
				for (int i = 0; i < 50_000 && lost.get() == null; i++) {
					long value = i * 4L + offset;
					peak.record(0, value);
					long max = peak.max(0);
					if (max < value) {
						lost.compareAndSet(null, "recorded " + value + ", then read " + max);
					}
				}
			});
			threads[t].start();
		}
		for (Thread thread : threads) {
			thread.join();
		}
		assertThat(lost.get()).isNull();
		assertThat(peak.max(0)).isEqualTo(49_999 * 4L + 3);
	}

}
