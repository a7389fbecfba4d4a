package dev.breaker.core.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The ring of buckets: counts land in the bucket of their time, old buckets leave the
 * window.
 */
class BucketWindowTests {

	private static final long SECOND = TimeUnit.SECONDS.toNanos(1);

	@Test
	void countsInTheBucketOfTheirTime() {
		BucketWindow w = new BucketWindow(SECOND, 10, BucketWindow.FINISHED_KINDS);
		w.record(BucketWindow.SUCCESS, 0);
		w.record(BucketWindow.SUCCESS, SECOND - 1);
		w.record(BucketWindow.FAILURE, SECOND);
		assertThat(w.count(BucketWindow.SUCCESS, 0)).isEqualTo(2);
		assertThat(w.count(BucketWindow.FAILURE, 1)).isEqualTo(1);
		assertThat(w.sum(BucketWindow.SUCCESS, SECOND)).isEqualTo(2);
	}

	@Test
	void aBucketLeavesTheWindowWhenItsSlotComesRoundAgain() {
		BucketWindow w = new BucketWindow(SECOND, 10, BucketWindow.FINISHED_KINDS);
		w.record(BucketWindow.FAILURE, 0);
		assertThat(w.sum(BucketWindow.FAILURE, 9 * SECOND)).isEqualTo(1);
		assertThat(w.sum(BucketWindow.FAILURE, 10 * SECOND)).isZero();
		w.record(BucketWindow.FAILURE, 10 * SECOND);
		assertThat(w.sum(BucketWindow.FAILURE, 10 * SECOND)).isEqualTo(1);
	}

	@Test
	void worksWithNegativeTickerValues() {
		BucketWindow w = new BucketWindow(SECOND, 10, BucketWindow.FINISHED_KINDS);
		w.record(BucketWindow.SUCCESS, -1);
		w.record(BucketWindow.SUCCESS, 0);
		assertThat(w.count(BucketWindow.SUCCESS, -1)).isEqualTo(1);
		assertThat(w.sum(BucketWindow.SUCCESS, 0)).isEqualTo(2);
	}

	@Test
	void aCountInFlightLongerThanTheWindowStillCountsAsEndedLongAgo() {
		BucketWindow w = new BucketWindow(SECOND, 10, 1);
		w.add(0, 0, 1);
		w.add(0, 25, 1); // displaces nothing: another slot
		w.add(0, 30, 1); // slot 0 again: folds the first count
		assertThat(w.total(0)).isEqualTo(3);
		assertThat(w.sumEndedBy(0, 29 * SECOND, 30 * SECOND)).isEqualTo(2);
		w.add(0, 0, -1); // the first count's bucket has left: the decrement is folded
		w.add(0, 25, -1);
		assertThat(w.total(0)).isEqualTo(1);
		assertThat(w.sumEndedBy(0, 31 * SECOND, 31 * SECOND)).isEqualTo(1);
	}

	@Test
	void sumEndedByCountsOnlyBucketsThatEndedByTheCutoff() {
		BucketWindow w = new BucketWindow(SECOND, 10, 1);
		w.add(0, 0, 1);
		w.add(0, 3, 1);
		assertThat(w.sumEndedBy(0, 3 * SECOND, 8 * SECOND)).isEqualTo(1);
		assertThat(w.sumEndedBy(0, 4 * SECOND, 8 * SECOND)).isEqualTo(2);
		assertThat(w.sumEndedBy(0, 4 * SECOND - 1, 8 * SECOND)).isEqualTo(1);
	}

	@Test
	void aLateWriterNeverErasesANewerBucket() {
		BucketWindow w = new BucketWindow(SECOND, 10, BucketWindow.FINISHED_KINDS, 1);
		w.record(BucketWindow.FAILURE, 10 * SECOND);
		w.record(BucketWindow.FAILURE, 0); // same slot, a ring earlier: written too late
		assertThat(w.sum(BucketWindow.FAILURE, 10 * SECOND)).isEqualTo(1);
		assertThat(w.total(BucketWindow.FAILURE)).isEqualTo(2);
	}

	@Test
	void anEraSeesOnlyItsOwnCounts() {
		BucketWindow w = new BucketWindow(SECOND, 10, BucketWindow.FINISHED_KINDS);
		w.record(BucketWindow.FAILURE, SECOND, 0);
		assertThat(w.sum(BucketWindow.FAILURE, 2 * SECOND, 0)).isEqualTo(1);
		assertThat(w.sum(BucketWindow.FAILURE, 2 * SECOND, 20)).isZero();
		w.record(BucketWindow.FAILURE, SECOND, 20);
		w.record(BucketWindow.FAILURE, SECOND, 0); // a late writer of the earlier era
		assertThat(w.sum(BucketWindow.FAILURE, 2 * SECOND, 20)).isEqualTo(1);
		assertThat(w.total(BucketWindow.FAILURE)).isEqualTo(3);
	}

	private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);

	/** The epoch tag must not wrap round into the window, however long the idle time. */
	@ParameterizedTest(name = "idle for {0} buckets")
	@ValueSource(longs = { 1L << 31, (1L << 31) + 1023, 1L << 32, 1L << 40, (1L << 40) + 7 })
	void aWindowIdleForAnyNumberOfBucketsStartsEmpty(long idleBuckets) {
		BucketWindow w = new BucketWindow(MS, 1024, BucketWindow.FINISHED_KINDS);
		BucketWindow inFlight = new BucketWindow(MS, 1024, 1);
		for (int i = 0; i < 19; i++) {
			w.record(BucketWindow.FAILURE, 0);
		}
		inFlight.add(0, 0, 1);
		assertThat(w.sum(BucketWindow.FAILURE, 5_000 * MS)).isZero();
		long later = idleBuckets * MS;
		assertThat(w.sum(BucketWindow.FAILURE, later)).isZero();
		w.record(BucketWindow.FAILURE, later);
		assertThat(w.sum(BucketWindow.FAILURE, later)).isEqualTo(1);
		assertThat(w.total(BucketWindow.FAILURE)).isEqualTo(20);
		// still in flight, and long
		assertThat(inFlight.sumEndedBy(0, later - 100 * MS, later)).isEqualTo(1);
		assertThat(inFlight.total(0)).isEqualTo(1);
	}

	@Test
	void aWindowThatKeepsWorkingPastTheTagRangeStillCountsOnlyItsOwnBuckets() {
		BucketWindow w = new BucketWindow(MS, 1024, BucketWindow.FINISHED_KINDS);
		w.record(BucketWindow.FAILURE, 0);
		// one call a bucket in another slot, all the way past 2^31 buckets: slot 0 is
		// never written again
		for (long e = 1; e <= (1L << 31) + 2048; e += 1024 * 1024 + 1) {
			w.record(BucketWindow.SUCCESS, e * MS);
		}
		long atAlias = (1L << 31) * MS;
		assertThat(w.sum(BucketWindow.FAILURE, atAlias)).isZero();
		assertThat(w.count(BucketWindow.FAILURE, 1L << 31)).isZero();
	}

	private static final long REGION = 1L << BucketWindow.REGION_BITS;

	@Test
	void holdsAtMost4095BucketsOfAtLeastOneKindOnAPowerOfTwoStripes() {
		assertThat(new BucketWindow(SECOND, 4095, 1).buckets()).isEqualTo(4095);
		org.assertj.core.api.Assertions.assertThatThrownBy(() -> new BucketWindow(SECOND, 4096, 1))
			.hasMessage("buckets must be in [1, 4095] but was 4096");
		org.assertj.core.api.Assertions.assertThatThrownBy(() -> new BucketWindow(SECOND, 0, 1))
			.hasMessage("buckets must be in [1, 4095] but was 0");
		org.assertj.core.api.Assertions.assertThatThrownBy(() -> new BucketWindow(SECOND, 10, 0))
			.hasMessage("kinds must be at least 1 but was 0");
		org.assertj.core.api.Assertions.assertThatThrownBy(() -> new BucketWindow(SECOND, 10, 1, 3))
			.hasMessage("stripes must be a power of two <= 4 but was 3");
	}

	@Test
	void aBucketThatJustLeftTheWindowCountsAsEndedOnlyOnceItHasEndedByTheCutoff() {
		BucketWindow w = new BucketWindow(SECOND, 10, 1, 1);
		w.add(0, 0, 1);
		w.add(0, 1, 1);
		// at 9.5s bucket 0 is the window's oldest; it ended at 1s, after the cutoff -0.5s
		assertThat(w.sumEndedBy(0, -SECOND / 2, 9 * SECOND + SECOND / 2)).isZero();
		assertThat(w.sumEndedBy(0, SECOND, 9 * SECOND + SECOND / 2)).isEqualTo(1);
		assertThat(w.sumEndedBy(0, 2 * SECOND, 9 * SECOND + SECOND / 2)).isEqualTo(2);
	}

	@Test
	void aCountFromALaterBucketThanTheReadersIsNotEndedYet() {
		BucketWindow w = new BucketWindow(SECOND, 10, 1, 1);
		w.add(0, 5, 1); // a writer whose clock is ahead of the reader's
		assertThat(w.sumEndedBy(0, 3 * SECOND, 3 * SECOND)).isZero();
		assertThat(w.total(0)).isEqualTo(1);
	}

	@Test
	void enteringANewRegionScrubsWhatLeftTheWindowAndKeepsWhatIsStillInIt() {
		BucketWindow w = new BucketWindow(1, 10, 1, 1);
		w.add(0, 5, 1);
		w.add(0, REGION - 1, 1); // the last bucket of region 0
		w.add(0, REGION, 1); // region 1: scrubs
		assertThat(w.count(0, 5)).isZero();
		assertThat(w.count(0, REGION - 1)).isEqualTo(1);
		assertThat(w.sum(0, REGION)).isEqualTo(2);
		assertThat(w.total(0)).isEqualTo(3);
	}

	@Test
	void aWriteFromTwoRegionsBackIsFoldedAndOneFromTheRegionBeforeIsKept() {
		BucketWindow w = new BucketWindow(1, 10, 1, 1);
		w.add(0, 3 * REGION, 1);
		// the region before: still decodes, kept (out of the window)
		w.add(0, 3 * REGION - 21, 1);
		w.add(0, REGION + 3, 1); // two regions back: folded at once
		assertThat(w.count(0, 3 * REGION - 21)).isEqualTo(1);
		assertThat(w.count(0, REGION + 3)).isZero();
		assertThat(w.sum(0, 3 * REGION)).isEqualTo(1);
		assertThat(w.total(0)).isEqualTo(3);
	}

	@Test
	void aRecordExactlyOnABucketBoundaryLandsInTheNewBucket() {
		BucketWindow w = new BucketWindow(SECOND, 10, 1, 1);
		w.record(0, 5 * SECOND - 1);
		w.record(0, 5 * SECOND);
		assertThat(w.count(0, 4)).isEqualTo(1);
		assertThat(w.count(0, 5)).isEqualTo(1);
	}

}
