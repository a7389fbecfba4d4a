package dev.breaker.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** A breaker idle for any length of time starts from an empty window. */
class WindowIdleTests {

	private final Fixture fixture = new Fixture();

	@ParameterizedTest(name = "idle for {0} buckets")
	@ValueSource(longs = { 1L << 31, 1L << 40 })
	void nineteenOldFailuresDoNotComeBackAfterALongIdleTime(long idleBuckets) {
		Breaker breaker = fixture.breaker(c -> c.bucket(Duration.ofMillis(1))
			.window(Duration.ofMillis(1024))
			.consecutiveFailures(0)
			.failureRateThreshold(100)
			.minimumCalls(20));
		Fixture.fail(breaker, 19);
		fixture.advance(Duration.ofSeconds(5));
		assertThat(breaker.snapshot().failures()).isZero();
		fixture.ticker.set(idleBuckets * 1_000_000L);
		assertThat(breaker.snapshot().failures()).isZero();
		Fixture.fail(breaker, 1);
		assertThat(breaker.state()).isEqualTo(State.CLOSED);
		assertThat(breaker.snapshot().calls()).isEqualTo(1);
	}

}
