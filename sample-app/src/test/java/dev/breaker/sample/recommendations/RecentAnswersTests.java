package dev.breaker.sample.recommendations;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

import org.junit.jupiter.api.Test;

import dev.breaker.core.ManualTicker;

import static org.assertj.core.api.Assertions.assertThat;

class RecentAnswersTests {

	private final ManualTicker ticker = new ManualTicker();

	private final Clock clock = this.ticker.clock(Instant.parse("2026-11-29T21:00:00Z"));

	private final RecentAnswers answers = new RecentAnswers(Duration.ofMinutes(5), 2, this.clock);

	@Test
	void servesTheLastGoodAnswerForFiveMinutes() {
		this.answers.remember(answer("user-1"));
		this.ticker.advance(Duration.ofMinutes(5));
		assertThat(this.answers.find("user-1")).contains(answer("user-1"));
	}

	@Test
	void forgetsAnAnswerOlderThanFiveMinutes() {
		this.answers.remember(answer("user-1"));
		this.ticker.advance(Duration.ofMinutes(5).plusMillis(1));
		assertThat(this.answers.find("user-1")).isEmpty();
	}

	@Test
	void keepsNoMoreUsersThanItsMaximum() {
		this.answers.remember(answer("user-1"));
		this.answers.remember(answer("user-2"));
		this.answers.remember(answer("user-3"));
		assertThat(this.answers.find("user-3")).isEmpty();
		this.ticker.advance(Duration.ofMinutes(6));
		this.answers.remember(answer("user-3"));
		assertThat(this.answers.find("user-3")).isPresent();
	}

	private static Recommendations answer(String userId) {
		return new Recommendations(userId, List.of(), Recommendations.LIVE);
	}

}
