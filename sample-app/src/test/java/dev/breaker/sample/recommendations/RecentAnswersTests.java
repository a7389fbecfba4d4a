package dev.breaker.sample.recommendations;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class RecentAnswersTests {

	private final MutableClock clock = new MutableClock();

	private final RecentAnswers answers = new RecentAnswers(Duration.ofMinutes(5), 2, this.clock);

	@Test
	void servesTheLastGoodAnswerForFiveMinutes() {
		this.answers.remember(answer("user-1"));
		this.clock.advance(Duration.ofMinutes(5));
		assertThat(this.answers.find("user-1")).contains(answer("user-1"));
	}

	@Test
	void forgetsAnAnswerOlderThanFiveMinutes() {
		this.answers.remember(answer("user-1"));
		this.clock.advance(Duration.ofMinutes(5).plusMillis(1));
		assertThat(this.answers.find("user-1")).isEmpty();
	}

	@Test
	void keepsNoMoreUsersThanItsMaximum() {
		this.answers.remember(answer("user-1"));
		this.answers.remember(answer("user-2"));
		this.answers.remember(answer("user-3"));
		assertThat(this.answers.find("user-3")).isEmpty();
		this.clock.advance(Duration.ofMinutes(6));
		this.answers.remember(answer("user-3"));
		assertThat(this.answers.find("user-3")).isPresent();
	}

	private static Recommendations answer(String userId) {
		return new Recommendations(userId, List.of(), Recommendations.LIVE);
	}

	private static final class MutableClock extends Clock {

		private Instant now = Instant.parse("2026-11-29T21:00:00Z");

		void advance(Duration duration) {
			this.now = this.now.plus(duration);
		}

		@Override
		public ZoneId getZone() {
			return ZoneOffset.UTC;
		}

		@Override
		public Clock withZone(ZoneId zone) {
			return this;
		}

		@Override
		public Instant instant() {
			return this.now;
		}

	}

}
