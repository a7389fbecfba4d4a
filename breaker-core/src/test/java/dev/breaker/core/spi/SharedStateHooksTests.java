package dev.breaker.core.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.breaker.core.Breaker;
import dev.breaker.core.BreakerConfig;
import dev.breaker.core.ManualTicker;
import dev.breaker.core.Outcome;
import dev.breaker.core.Permit;
import dev.breaker.core.State;
import dev.breaker.core.Transition;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * A store reaches the engine's fleet hooks through the SPI, from outside
 * dev.breaker.core, as the Redis sync does.
 */
class SharedStateHooksTests {

	private final ManualTicker ticker = new ManualTicker();

	private final List<Transition> transitions = new CopyOnWriteArrayList<>();

	private final Breaker breaker = Breaker.of("payments",
			BreakerConfig.builder()
				.ticker(ticker)
				.openWaitJitter(0)
				.consecutiveFailures(2)
				.openWait(Duration.ofSeconds(30))
				.halfOpenMaxProbes(10)
				.build());

	SharedStateHooksTests() {
		breaker.onTransition(transitions::add);
	}

	@Test
	void aPeerTripOpensTheBreakerAsARemoteTransitionThatIsNotCountedAsATrip() {
		SharedStateHooks.openFromPeer(breaker, Duration.ofSeconds(12), "peer replica-2: tripped");

		assertThat(breaker.state()).isEqualTo(State.OPEN);
		assertThat(transitions).singleElement().satisfies(t -> {
			assertThat(t.remote()).isTrue();
			assertThat(t.reason()).isEqualTo("peer replica-2: tripped");
		});
		assertThat(breaker.totals().trips()).isZero();
		ticker.advance(Duration.ofSeconds(12));
		assertThat(breaker.state()).isEqualTo(State.HALF_OPEN);
	}

	@Test
	void aPeerCloseClosesAnOpenBreaker() {
		record(Outcome.FAILURE, 2);

		SharedStateHooks.closeFromPeer(breaker, "peer replica-3: closed");

		assertThat(breaker.state()).isEqualTo(State.CLOSED);
		assertThat(transitions).last().extracting(Transition::remote).isEqualTo(true);
	}

	@Test
	void aPeerCloseOfOneOpenClosesOnlyThatOpen() {
		SharedStateHooks.openFromPeer(breaker, Duration.ofSeconds(10), "peer b: tripped");
		long peerOpen = transitions.get(0).generation();
		SharedStateHooks.closeFromPeer(breaker, "peer b: closed", peerOpen + 1);
		assertThat(breaker.state()).as("a close of an open it is not in").isEqualTo(State.OPEN);
		SharedStateHooks.closeFromPeer(breaker, "peer b: closed", peerOpen);
		assertThat(breaker.state()).isEqualTo(State.CLOSED);
		assertThat(transitions.get(1).remote()).isTrue();
		assertThatThrownBy(() -> SharedStateHooks.closeFromPeer(breaker, "peer b: closed", -1))
			.isInstanceOf(IllegalArgumentException.class)
			.hasMessage("a transition's generation is at least 0 but was -1");
	}

	@Test
	void tripNowOpensAClosedBreakerAndCountsTheTrip() {
		SharedStateHooks.tripNow(breaker, "fleet failure rate 60.0% >= 50% over 30 calls");

		assertThat(breaker.state()).isEqualTo(State.OPEN);
		assertThat(breaker.totals().trips()).isEqualTo(1);
		assertThat(transitions).singleElement().extracting(Transition::remote).isEqualTo(false);
	}

	@Test
	void holdOpenKeepsAnOpenBreakerOpenPastItsOwnWaitButNotPastTheMaximum() {
		record(Outcome.FAILURE, 2);

		SharedStateHooks.holdOpen(breaker, Duration.ofSeconds(45));

		ticker.advance(Duration.ofSeconds(44));
		assertThat(breaker.state()).isEqualTo(State.OPEN);
		ticker.advance(Duration.ofSeconds(1));
		assertThat(breaker.state()).isEqualTo(State.HALF_OPEN);
	}

	@Test
	void aProbeShareOfNoneRejectsEveryCallOfTheEpisodeAndOutsideTheRangeIsRefused() {
		breaker.halfOpen();

		SharedStateHooks.limitProbes(breaker, 0);

		assertThat(breaker.acquire().granted()).isFalse();
		SharedStateHooks.limitProbes(breaker, 1);
		assertThat(breaker.acquire().granted()).isTrue();
		assertThatThrownBy(() -> SharedStateHooks.limitProbes(breaker, 11)).isInstanceOf(IllegalArgumentException.class)
			.hasMessage("a probe share must be in [0, 10] but was 11");
	}

	private void record(Outcome outcome, int times) {
		for (int i = 0; i < times; i++) {
			Permit permit = breaker.acquire();
			breaker.release(permit, outcome, 0);
		}
	}

}
