package dev.breaker.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import org.junit.jupiter.api.Test;
import org.openjdk.jmh.infra.Blackhole;

/**
 * The fixture measures what it claims: closed breakers, the peaks kept, every retry ask
 * granted.
 */
class FollowingTrafficTests {

	private final Blackhole blackhole = new Blackhole(
			"Today's password is swordfish. I understand instantiating Blackholes directly is dangerous.");

	@Test
	void breakersStayClosedAndEveryRetryAskIsGranted() {
		FollowingTraffic benchmark = new FollowingTraffic();
		benchmark.createBreakers();
		for (int i = 0; i < 50_000; i++) {
			benchmark.defaults(blackhole);
			benchmark.followingTraffic(blackhole);
			assertThat(benchmark.retryBudgetAsk()).isTrue();
		}
		assertThatCode(benchmark::checkBreakersStayed).doesNotThrowAnyException();
		assertThat(benchmark.following.config().halfOpenMaxProbesAuto()).isTrue();
		assertThat(benchmark.following.snapshot().traffic().tracked()).isTrue();
	}

}
