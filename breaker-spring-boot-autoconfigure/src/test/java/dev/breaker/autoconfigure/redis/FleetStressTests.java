package dev.breaker.autoconfigure.redis;

import static dev.breaker.autoconfigure.redis.FleetModeIntegrationTests.failTimes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import dev.breaker.core.BreakerConfig;
import dev.breaker.core.State;
import dev.breaker.core.Ticker;
import dev.breaker.core.Transition;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Trips and resets in quick succession, as fast as Redis answers: every open and every
 * close reaches the other replica, round after round. A replica's replies and its own
 * announcements then arrive on their two connections far apart, which is what once let a
 * late announcement make a close end the wrong episode. {@code -Dbreaker.stress=long}
 * runs 5,000 rounds instead of 200.
 */
class FleetStressTests {

	private static final int ROUNDS = "long".equals(System.getProperty("breaker.stress")) ? 5_000 : 200;

	private static final BreakerConfig CONFIG = BreakerConfig.builder()
		.consecutiveFailures(1)
		.openWait(Duration.ofSeconds(30))
		.openWaitJitter(0)
		.ticker(Ticker.system())
		.build();

	@RegisterExtension
	final Replicas replicas = Replicas.onLocalRedis().defaults(CONFIG);

	private Replica a;

	private Replica b;

	@BeforeEach
	void startFleet() {
		a = replicas.start("a", "breaker.shared.redis.quorum=1");
		b = replicas.start("b", "breaker.shared.redis.quorum=1");
	}

	@Test
	void withAQuorumOfTwoEveryOpenAndEveryCloseReachTheThirdReplica() throws Exception {
		try (Replica first = replicas.start("q1");
				Replica second = replicas.start("q2");
				Replica third = replicas.start("q3")) {
			BlockingQueue<Transition> seenByThird = new LinkedBlockingQueue<>();
			third.breaker("quorum").onTransition(seenByThird::add);
			for (int round = 0; round < ROUNDS / 2; round++) {
				failTimes(first.breaker("quorum"), 1);
				// so that the second trip completes the quorum
				await().pollDelay(Duration.ofMillis(5)).until(() -> true);
				failTimes(second.breaker("quorum"), 1);
				assertNextTransitionIsTo(seenByThird, State.OPEN, "round %d: open", round);
				await().pollDelay(Duration.ZERO)
					.pollInterval(Duration.ofMillis(1))
					.atMost(Duration.ofSeconds(5))
					.until(() -> !first.sync().view("quorum").episode().isEmpty());
				// at once: the first replica's close may reach the second before the
				// reply of the script that opened it
				first.breaker("quorum").reset();
				assertNextTransitionIsTo(seenByThird, State.CLOSED, "round %d: close", round);
				await("round " + round + ": the second replica closes").pollDelay(Duration.ZERO)
					.pollInterval(Duration.ofMillis(1))
					.atMost(Duration.ofSeconds(5))
					.until(() -> second.breaker("quorum").state() == State.CLOSED);
			}
		}
	}

	@Test
	void everyTripAndEveryResetReachTheOtherReplica() throws Exception {
		BlockingQueue<Transition> seenByB = new LinkedBlockingQueue<>();
		b.breaker("payments").onTransition(seenByB::add);

		for (int round = 0; round < ROUNDS; round++) {
			failTimes(a.breaker("payments"), 1);
			assertNextTransitionIsTo(seenByB, State.OPEN, "round %d: open", round);
			a.breaker("payments").reset();
			assertNextTransitionIsTo(seenByB, State.CLOSED, "round %d: close", round);
		}
		assertThat(seenByB).isEmpty();
	}

	/** The next transition {@code seen} within 5 s is one to {@code state}. */
	private static void assertNextTransitionIsTo(BlockingQueue<Transition> seen, State state, String description,
			int round) throws InterruptedException {
		Transition next = seen.poll(5, TimeUnit.SECONDS);
		assertThat(next).as(description, round).isNotNull().extracting(Transition::to).isEqualTo(state);
	}

}
