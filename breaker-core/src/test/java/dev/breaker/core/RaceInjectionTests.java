package dev.breaker.core;

import dev.breaker.core.spi.SharedStateHooks;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import java.time.Clock;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.ObjLongConsumer;
import org.junit.jupiter.api.Test;

/**
 * Races made deterministic: the wall clock is read between the moment the engine reads
 * the state and the moment it acts on it, so a clock that runs one action right then
 * plays "another thread got there first" exactly, every time.
 */
class RaceInjectionTests {

	private final ManualTicker ticker = new ManualTicker();

	private final AtomicReference<Runnable> next = new AtomicReference<>();

	/** The ticker's wall clock, running the next action first at each read. */
	private final Clock clock = ManualTicker.clock(() -> {
		Runnable action = next.getAndSet(null);
		if (action != null) {
			action.run();
		}
		return ticker.nanos();
	}, Fixture.EPOCH);

	private Breaker breaker() {
		return Breaker.of("race",
				BreakerConfig.builder().ticker(ticker).clock(clock).openWaitJitter(0).consecutiveFailures(1).build());
	}

	/** A breaker a peer opens while {@code racer} acts on it first. */
	private Breaker openedFromPeerLosingTo(Consumer<Breaker> racer) {
		Breaker breaker = breaker();
		next.set(() -> racer.accept(breaker));
		SharedStateHooks.openFromPeer(breaker, java.time.Duration.ofSeconds(5), "peer");
		return breaker;
	}

	@Test
	void anOverrideThatLosesItsRaceTriesAgainFromTheStateThatWon() {
		Breaker breaker = breaker();
		next.set(breaker::disable);
		breaker.forceOpen();
		assertThat(breaker.state()).isEqualTo(State.FORCED_OPEN);
		assertThat(breaker.snapshot().transitions()).extracting(Transition::to)
			.containsExactly(State.DISABLED, State.FORCED_OPEN);
	}

	@Test
	void aPeerOpenThatLosesItsRaceToAnOperatorLeavesTheOperatorsState() {
		Breaker breaker = openedFromPeerLosingTo(Breaker::forceOpen);
		assertThat(breaker.state()).isEqualTo(State.FORCED_OPEN);
	}

	@Test
	void aPeerCloseThatLosesItsRaceTriesAgain() {
		Breaker breaker = breaker();
		Fixture.fail(breaker, 1);
		next.set(breaker::halfOpen);
		SharedStateHooks.closeFromPeer(breaker, "peer");
		assertThat(breaker.state()).isEqualTo(State.CLOSED);
		assertThat(breaker.snapshot().transitions()).extracting(Transition::to)
			.containsExactly(State.OPEN, State.HALF_OPEN, State.CLOSED);
	}

	/**
	 * A breaker a peer opened, whose open ran out: the close for that open comes as the
	 * breaker's own probe fails and it reopens.
	 */
	private Breaker reopeningOnItsOwnAsAPeerCloses(ObjLongConsumer<Breaker> close) {
		Breaker breaker = Breaker.of("race", breaker().config().toBuilder().halfOpenFailuresToReopen(1).build());
		SharedStateHooks.openFromPeer(breaker, java.time.Duration.ofSeconds(5), "peer");
		long peerOpen = breaker.snapshot().transitions().get(0).generation();
		ticker.advance(java.time.Duration.ofSeconds(5));
		next.set(() -> Fixture.fail(breaker, 1));
		close.accept(breaker, peerOpen);
		return breaker;
	}

	@Test
	void aPeerCloseOfTheOpenItAppliedLeavesABreakerThatReopenedOnItsOwnOpen() {
		Breaker breaker = reopeningOnItsOwnAsAPeerCloses(
				(b, peerOpen) -> SharedStateHooks.closeFromPeer(b, "peer closed", peerOpen));
		assertThat(breaker.state()).isEqualTo(State.OPEN);
		assertThat(breaker.snapshot().transitions()).extracting(Transition::to, Transition::remote)
			.containsExactly(tuple(State.OPEN, true), tuple(State.HALF_OPEN, false), tuple(State.OPEN, false));
	}

	@Test
	void aPeerCloseOfAnyOpenClosesABreakerThatReopenedOnItsOwn() {
		Breaker breaker = reopeningOnItsOwnAsAPeerCloses(
				(b, peerOpen) -> SharedStateHooks.closeFromPeer(b, "peer closed"));
		assertThat(breaker.state()).isEqualTo(State.CLOSED);
	}

	@Test
	void aPeerCloseOfTheOpenItAppliedClosesABreakerStillInIt() {
		Breaker breaker = breaker();
		SharedStateHooks.openFromPeer(breaker, java.time.Duration.ofSeconds(5), "peer");
		SharedStateHooks.closeFromPeer(breaker, "peer closed", breaker.snapshot().transitions().get(0).generation());
		assertThat(breaker.state()).isEqualTo(State.CLOSED);
	}

	@Test
	void anAcquireThatFindsTheHalfOpenStateJustLeftAsksTheNewState() {
		Breaker breaker = breaker();
		breaker.halfOpen();
		// runs while the acquire is settling the HALF_OPEN state it read
		next.set(breaker::reset);
		Permit permit = breaker.acquire();
		assertThat(permit.granted()).isTrue();
		assertThat(permit.probe()).isFalse();
		assertThat(breaker.currentState()).isEqualTo(State.CLOSED);
	}

	@Test
	void anAcquireThatFindsTheBreakerClosedWhileSettlingIsAClosedCall() {
		Breaker breaker = breaker();
		Fixture.fail(breaker, 1);
		ticker.advanceNanos(java.time.Duration.ofSeconds(30).toNanos());
		breaker.onTransition(t -> {
			if (t.to() == State.HALF_OPEN) {
				breaker.reset();
			}
		});
		Permit permit = breaker.acquire();
		assertThat(permit.granted()).isTrue();
		assertThat(permit.probe()).isFalse();
	}

	@Test
	void aPeerOpenThatLosesItsRaceToAResetOpensTheNewClosedState() {
		Breaker breaker = openedFromPeerLosingTo(Breaker::reset);
		assertThat(breaker.state()).isEqualTo(State.OPEN);
		assertThat(breaker.snapshot().transitions()).extracting(Transition::to)
			.containsExactly(State.CLOSED, State.OPEN);
	}

	/**
	 * A group of tenants that trips on breadth (failures from two of them, three failures
	 * in a row), opened by two tenants' failures.
	 */
	private BreakerRegistry openedGroup() {
		BreakerRegistry registry = BreakerRegistry.builder()
			.defaults(BreakerConfig.builder()
				.ticker(ticker)
				.clock(clock)
				.openWaitJitter(0)
				.consecutiveFailures(3)
				.build())
			.children("tenants", new BreakerRegistry.Children(100, java.time.Duration.ofMinutes(10), true, 2, 128))
			.build();
		Fixture.fail(registry.breaker("tenants", "a"), 2);
		Fixture.fail(registry.breaker("tenants", "b"), 1);
		assertThat(registry.breaker("tenants").state()).isEqualTo(State.OPEN);
		return registry;
	}

	@Test
	void aPeerCloseThatLosesItsRaceKeepsTheTenantsThatFailedInTheClosedStateThatWon() {
		BreakerRegistry registry = openedGroup();
		Breaker group = registry.breaker("tenants");
		// the operator's reset wins, and tenant x fails in its CLOSED state, before the
		// peer's close (built for the OPEN state it read) loses its compare-and-set
		next.set(() -> {
			group.reset();
			Fixture.fail(registry.breaker("tenants", "x"), 1);
		});
		SharedStateHooks.closeFromPeer(group, "peer");
		assertThat(group.snapshot().transitions()).extracting(Transition::reason).endsWith("operator");
		Fixture.fail(registry.breaker("tenants", "y"), 2);
		assertThat(group.state()).as("three failures in a row from x and y, since the group closed")
			.isEqualTo(State.OPEN);
	}

}
