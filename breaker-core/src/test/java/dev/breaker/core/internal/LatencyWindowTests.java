package dev.breaker.core.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

/**
 * The latency window: log-scale bins, one histogram per bucket, rolling over like the
 * count window.
 */
class LatencyWindowTests {

	private static final long MS = 1_000_000;

	private static final long S = 1_000 * MS;

	/** The bin of a 20 ms call, the duration most of these tests record. */
	private static final int BIN_20MS = LatencyWindow.bin(20 * MS);

	/**
	 * A window of ten 1 s buckets, era 0, with a 20 ms call finished at each of
	 * {@code times}, recorded in that order.
	 */
	private static LatencyWindow twentyMsCallsAt(long... times) {
		LatencyWindow window = new LatencyWindow(S, 10);
		for (long time : times) {
			window.record(20 * MS, time, 0);
		}
		return window;
	}

	/** The calls in the 20 ms bin of the window of {@code era} ending at {@code now}. */
	private static long twentyMsCalls(LatencyWindow window, long now, long era) {
		long[] bins = new long[LatencyWindow.BINS];
		window.read(now, era, bins);
		return bins[BIN_20MS];
	}

	@Test
	void everyDurationFromTenMicrosecondsToAnHourReadsBackWithinTenPercent() {
		for (double v = 10_000; v <= 3_600 * 1e9; v *= 1.0123) {
			long nanos = (long) v;
			int bin = LatencyWindow.bin(nanos);
			assertThat(nanos).isBetween(LatencyWindow.lower(bin), LatencyWindow.upper(bin) - 1);
			double typical = LatencyWindow.typical(bin);
			assertThat(Math.abs(typical - nanos) / nanos).as("%d ns in bin %d reads %s", nanos, bin, typical)
				.isLessThan(0.10);
		}
	}

	@Test
	void binsAreFourPerOctaveAndContiguous() {
		assertThat(LatencyWindow.lower(0)).isEqualTo(LatencyWindow.MIN_NANOS);
		for (int b = 0; b < LatencyWindow.BINS - 1; b++) {
			assertThat(LatencyWindow.upper(b)).isEqualTo(LatencyWindow.lower(b + 1));
			assertThat((double) LatencyWindow.upper(b) / LatencyWindow.lower(b)).isCloseTo(Math.pow(2, 0.25),
					within(0.001));
		}
		assertThat(LatencyWindow.lower(4)).isEqualTo(2 * LatencyWindow.MIN_NANOS);
	}

	@Test
	void durationsShorterThanTheFirstBinAreNotBinned() {
		assertThat(LatencyWindow.bin(0)).isEqualTo(-1);
		assertThat(LatencyWindow.bin(-5)).isEqualTo(-1);
		assertThat(LatencyWindow.bin(LatencyWindow.MIN_NANOS - 1)).isEqualTo(-1);
		assertThat(LatencyWindow.bin(LatencyWindow.MIN_NANOS)).isZero();
		LatencyWindow window = new LatencyWindow(S, 10);
		window.record(0, 0, 0);
		window.record(LatencyWindow.MIN_NANOS - 1, 0, 0);
		long[] bins = new long[LatencyWindow.BINS];
		assertThat(window.read(0, 0, bins)).isZero();
		assertThat(bins).containsOnly(0);
	}

	@Test
	void durationsLongerThanTheLastBinGoInTheLastBin() {
		assertThat(LatencyWindow.bin(Long.MAX_VALUE)).isEqualTo(LatencyWindow.BINS - 1);
		assertThat(LatencyWindow.bin(LatencyWindow.upper(LatencyWindow.BINS - 1) * 10))
			.isEqualTo(LatencyWindow.BINS - 1);
	}

	@Test
	void aCallCountsInItsBucketUntilThatBucketLeavesTheWindow() {
		LatencyWindow window = twentyMsCallsAt(0);
		assertThat(twentyMsCalls(window, 9 * S + S - 1, 0)).isEqualTo(1);
		assertThat(twentyMsCalls(window, 10 * S, 0)).isZero();
		assertThat(window.total(BIN_20MS)).isEqualTo(1);
	}

	@Test
	void theWindowReadsTheLongestCallOfItsBucketsAsItsMax() {
		LatencyWindow window = new LatencyWindow(S, 10);
		window.record(30 * MS, 0, 0);
		window.record(987 * MS, S, 0);
		window.record(40 * MS, 2 * S, 0);
		assertThat(window.read(2 * S, 0, new long[LatencyWindow.BINS])).isEqualTo(987 * MS);
		assertThat(window.read(11 * S, 0, new long[LatencyWindow.BINS])).isEqualTo(40 * MS);
		assertThat(window.read(12 * S, 0, new long[LatencyWindow.BINS])).isZero();
	}

	@Test
	void aBucketReusedForALaterEpochStartsEmptyAndKeepsTheEarlierCountsInTheTotal() {
		LatencyWindow window = twentyMsCallsAt(3 * S, 3 * S, 3 * S, 3 * S, 3 * S, 13 * S);
		assertThat(twentyMsCalls(window, 13 * S, 0)).isEqualTo(1);
		assertThat(window.total(BIN_20MS)).isEqualTo(6);
	}

	@Test
	void aLateWriterOfABucketAlreadyReusedCountsInTheTotalOnly() {
		// the call that finished at 3s reports after 13s began
		LatencyWindow window = twentyMsCallsAt(13 * S, 3 * S);
		assertThat(twentyMsCalls(window, 13 * S, 0)).isEqualTo(1);
		assertThat(window.total(BIN_20MS)).isEqualTo(2);
	}

	@Test
	void anEraSeesOnlyItsOwnCalls() {
		LatencyWindow window = new LatencyWindow(S, 10);
		window.record(20 * MS, 5 * S, 0);
		window.record(20 * MS, 5 * S, 20);
		window.record(20 * MS, 5 * S, 20);
		assertThat(twentyMsCalls(window, 5 * S, 20)).isEqualTo(2);
		assertThat(window.total(BIN_20MS)).isEqualTo(3);
	}

	@Test
	void foldedDurationsCountInTheTotalOnly() {
		LatencyWindow window = new LatencyWindow(S, 10);
		int bin = LatencyWindow.bin(2 * S);
		window.fold(2 * S);
		long[] bins = new long[LatencyWindow.BINS];
		assertThat(window.read(0, 0, bins)).isZero();
		assertThat(bins[bin]).isZero();
		assertThat(window.total(bin)).isEqualTo(1);
	}

	@Test
	void aWindowOfManyBucketsGroupsThemIntoAtMostTwentySlotsAndStillCoversTheWholeWindow() {
		// 10 s of 100 ms buckets
		LatencyWindow window = new LatencyWindow(100 * MS, 100);
		assertThat(window.slots()).isEqualTo(LatencyWindow.MAX_SLOTS);
		assertThat(window.slotNanos()).isEqualTo(500 * MS);
		window.record(20 * MS, 0, 0);
		assertThat(twentyMsCalls(window, 10 * S - 1, 0)).isEqualTo(1);
		LatencyWindow odd = new LatencyWindow(S, 37);
		assertThat(odd.slots()).isEqualTo(19);
		assertThat(odd.slots() * odd.slotNanos()).isGreaterThanOrEqualTo(37 * S);
		assertThat(new LatencyWindow(S, 3600).slots()).isEqualTo(20);
	}

	@Test
	void aWindowOfFewBucketsKeepsOneSlotPerBucket() {
		LatencyWindow window = new LatencyWindow(S, 10);
		assertThat(window.slots()).isEqualTo(10);
		assertThat(window.slotNanos()).isEqualTo(S);
	}

	@Test
	void negativeTickerTimesAreBucketedLikeAnyOther() {
		LatencyWindow window = twentyMsCallsAt(-S / 2);
		assertThat(twentyMsCalls(window, -1, 0)).isEqualTo(1);
	}

}
