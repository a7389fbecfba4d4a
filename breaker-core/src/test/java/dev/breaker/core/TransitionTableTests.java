package dev.breaker.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The one table of allowed moves, row by row. */
class TransitionTableTests {

	@ParameterizedTest(name = "{0} -> {1}: {2}")
	@CsvSource({ "CLOSED, OPEN, true", "CLOSED, CLOSED, true", "CLOSED, HALF_OPEN, true", "CLOSED, FORCED_OPEN, true",
			"CLOSED, DISABLED, true", "OPEN, HALF_OPEN, true", "OPEN, CLOSED, true", "OPEN, FORCED_OPEN, true",
			"OPEN, DISABLED, true", "OPEN, OPEN, false", "HALF_OPEN, CLOSED, true", "HALF_OPEN, OPEN, true",
			"HALF_OPEN, HALF_OPEN, true", "HALF_OPEN, FORCED_OPEN, true", "HALF_OPEN, DISABLED, true",
			"FORCED_OPEN, CLOSED, true", "FORCED_OPEN, HALF_OPEN, true", "FORCED_OPEN, DISABLED, true",
			"FORCED_OPEN, OPEN, false", "FORCED_OPEN, FORCED_OPEN, false", "DISABLED, CLOSED, true",
			"DISABLED, HALF_OPEN, true", "DISABLED, FORCED_OPEN, true", "DISABLED, OPEN, false",
			"DISABLED, DISABLED, false", })
	void allowsExactlyTheseMoves(State from, State to, boolean allowed) {
		assertThat(TransitionTable.allowed(from, to)).isEqualTo(allowed);
		if (!allowed) {
			assertThatThrownBy(() -> TransitionTable.check(from, to)).isInstanceOf(IllegalStateException.class)
				.hasMessage("a breaker never moves from " + from + " to " + to);
		}
	}

	@org.junit.jupiter.api.Test
	void everyMoveABreakerMakesIsCheckedAgainstTheTable() {
		Breaker breaker = Breaker.of("table", BreakerConfig.builder().ticker(new ManualTicker()).build());
		breaker.forceOpen();
		BreakerState forced = breaker.current();
		OpenState open = new OpenState(breaker, forced, 1, 0, java.time.Instant.EPOCH, 1);
		assertThatThrownBy(() -> breaker.moveTo(forced, open, "not allowed", false))
			.isInstanceOf(IllegalStateException.class)
			.hasMessage("a breaker never moves from FORCED_OPEN to OPEN");
		assertThat(breaker.current()).isSameAs(forced);
	}

}
