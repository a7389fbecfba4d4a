package dev.breaker.core;

import static org.assertj.core.api.Assertions.assertThat;

import dev.breaker.core.internal.BucketWindow;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * The order of {@link Outcome} is the window's count index and puts the outcomes that
 * count toward the rates first.
 */
class OutcomeOrderTests {

	@Test
	void eachOutcomesOrdinalIsItsCountIndexInTheWindow() {
		assertThat(Outcome.SUCCESS.ordinal()).isEqualTo(BucketWindow.SUCCESS);
		assertThat(Outcome.FAILURE.ordinal()).isEqualTo(BucketWindow.FAILURE);
		assertThat(Outcome.TIMEOUT.ordinal()).isEqualTo(BucketWindow.TIMEOUT);
		assertThat(Outcome.IGNORED.ordinal()).isEqualTo(BucketWindow.IGNORED);
		assertThat(Outcome.THROTTLED.ordinal()).isEqualTo(BucketWindow.THROTTLED);
		assertThat(Outcome.values()).hasSize(BucketWindow.SLOW);
	}

	@Test
	void successesFailuresAndTimeoutsComeFirstAndAreTheOutcomesThatCountTowardTheRates() {
		assertThat(Arrays.stream(Outcome.values()).filter(TripRules::counts)).containsExactly(Outcome.SUCCESS,
				Outcome.FAILURE, Outcome.TIMEOUT);
	}

}
