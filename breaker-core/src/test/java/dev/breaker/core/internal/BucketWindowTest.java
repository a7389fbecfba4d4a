package dev.breaker.core.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The ring of buckets: counts land in the bucket of their time, old buckets leave the window. */
class BucketWindowTest {

    private static final long SECOND = TimeUnit.SECONDS.toNanos(1);

    @Test
    void countsInTheBucketOfTheirTime() {
        BucketWindow w = new BucketWindow(SECOND, 10, false);
        w.record(BucketWindow.SUCCESS, 0);
        w.record(BucketWindow.SUCCESS, SECOND - 1);
        w.record(BucketWindow.FAILURE, SECOND);
        assertThat(w.count(BucketWindow.SUCCESS, 0)).isEqualTo(2);
        assertThat(w.count(BucketWindow.FAILURE, 1)).isEqualTo(1);
        assertThat(w.sum(BucketWindow.SUCCESS, SECOND)).isEqualTo(2);
    }

    @Test
    void aBucketLeavesTheWindowWhenItsSlotComesRoundAgain() {
        BucketWindow w = new BucketWindow(SECOND, 10, false);
        w.record(BucketWindow.FAILURE, 0);
        assertThat(w.sum(BucketWindow.FAILURE, 9 * SECOND)).isEqualTo(1);
        assertThat(w.sum(BucketWindow.FAILURE, 10 * SECOND)).isZero();
        w.record(BucketWindow.FAILURE, 10 * SECOND);
        assertThat(w.sum(BucketWindow.FAILURE, 10 * SECOND)).isEqualTo(1);
    }

    @Test
    void worksWithNegativeTickerValues() {
        BucketWindow w = new BucketWindow(SECOND, 10, false);
        w.record(BucketWindow.SUCCESS, -1);
        w.record(BucketWindow.SUCCESS, 0);
        assertThat(w.count(BucketWindow.SUCCESS, -1)).isEqualTo(1);
        assertThat(w.sum(BucketWindow.SUCCESS, 0)).isEqualTo(2);
    }

    @Test
    void clearForgetsFinishedCallsButNotCallsInFlight() {
        BucketWindow w = new BucketWindow(SECOND, 10, true);
        w.record(BucketWindow.SUCCESS, 0);
        w.start(0);
        w.clear();
        assertThat(w.sum(BucketWindow.SUCCESS, 0)).isZero();
        assertThat(w.inFlight()).isEqualTo(1);
    }

    @Test
    void aCallInFlightLongerThanTheWindowIsStillInFlight() {
        BucketWindow w = new BucketWindow(SECOND, 10, true);
        w.start(0);
        w.start(25 * SECOND); // displaces nothing: another slot
        w.start(30 * SECOND); // slot 0 again: folds the first call into the older-than-window count
        assertThat(w.inFlight()).isEqualTo(3);
        assertThat(w.inFlightStartedBefore(29 * SECOND, 0, 30 * SECOND)).isEqualTo(2);
        w.finish(0, 31 * SECOND);
        w.finish(25 * SECOND, 31 * SECOND);
        assertThat(w.inFlight()).isEqualTo(1);
        assertThat(w.inFlightStartedBefore(31 * SECOND, 0, 31 * SECOND)).isEqualTo(1);
    }

    @Test
    void inFlightCountsOnlyCallsOfTheCurrentStateWhenAsked() {
        BucketWindow w = new BucketWindow(SECOND, 10, true);
        w.start(0);
        w.start(3 * SECOND);
        assertThat(w.inFlightStartedBefore(8 * SECOND, 3 * SECOND, 8 * SECOND)).isEqualTo(1);
        assertThat(w.inFlightStartedBefore(8 * SECOND, 0, 8 * SECOND)).isEqualTo(2);
    }
}
