package dev.breaker.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Whatever a listener does, the caller's call stays the caller's call. */
class ListenerIsolationTests {

	private final Fixture fixture = new Fixture();

	static final class ListenerBug extends Error {

		ListenerBug() {
			super("a listener's own error");
		}

	}

	@SuppressWarnings("unchecked")
	private static <E extends Throwable> void sneakyThrow(Throwable e) throws E {
		throw (E) e;
	}

	/**
	 * A call through {@code breaker} that throws an {@code IOException}: the caller gets
	 * that very exception, whatever the listeners do.
	 */
	private static void failedCallPassesItsExceptionOn(Breaker breaker, String message) {
		IOException down = new IOException(message);
		assertThatThrownBy(() -> breaker.call(() -> {
			throw down;
		})).isSameAs(down);
	}

	@Test
	void aListenerThrowingAnErrorNeverReplacesTheDependencysException() {
		Breaker breaker = fixture.breaker(c -> c.consecutiveFailures(1));
		breaker.onTransition(t -> {
			throw new ListenerBug();
		});
		failedCallPassesItsExceptionOn(breaker, "connection refused");
		assertThat(breaker.state()).isEqualTo(State.OPEN);
	}

	@Test
	void aListenerThrowingASneakyCheckedExceptionNeverReachesTheCaller() throws Exception {
		Breaker breaker = fixture.breaker(c -> c.consecutiveFailures(1).halfOpenSuccessesToClose(1));
		breaker.onTransition(t -> sneakyThrow(new IOException("listener")));
		Fixture.fail(breaker, 1);
		fixture.advance(Duration.ofSeconds(30));
		assertThat(breaker.call(() -> "probe")).isEqualTo("probe");
		assertThat(breaker.state()).isEqualTo(State.CLOSED);
	}

	@Test
	void aListenerThatThrowsOnAnOverrideNeverReachesTheOperator() {
		Breaker breaker = fixture.breaker(c -> c);
		breaker.onTransition(t -> {
			throw new ListenerBug();
		});
		breaker.forceOpen();
		breaker.reset();
		assertThat(breaker.state()).isEqualTo(State.CLOSED);
	}

	@Test
	void aListenerResettingOnEveryTransitionTerminatesAndTheCallKeepsItsOwnResult() {
		Breaker breaker = fixture.breaker(c -> c.consecutiveFailures(1));
		List<Transition> seen = new ArrayList<>();
		breaker.onTransition(t -> {
			seen.add(t);
			breaker.reset();
		});
		failedCallPassesItsExceptionOn(breaker, "down");
		assertThat(breaker.state()).isEqualTo(State.CLOSED);
		assertThat(seen).extracting(Transition::to).containsExactly(State.OPEN, State.CLOSED);
	}

	/**
	 * Two listeners that reset each other's breaker on every transition: a reset asked
	 * from inside a listener of a breaker already CLOSED is no transition, so they end;
	 * the resets that close a breaker still happen, one event each, in order.
	 */
	@Test
	void twoListenersResettingEachOthersBreakerTerminate() {
		Breaker payments = Breaker.of("payments", fixture.config().consecutiveFailures(1).build());
		Breaker shipping = Breaker.of("shipping", fixture.config().consecutiveFailures(1).build());
		List<String> seen = new ArrayList<>();
		payments.onTransition(t -> {
			seen.add(t.breaker() + " " + t.from() + "->" + t.to());
			if (seen.size() < 100) {
				shipping.reset();
			}
		});
		shipping.onTransition(t -> {
			seen.add(t.breaker() + " " + t.from() + "->" + t.to());
			if (seen.size() < 100) {
				payments.reset();
			}
		});
		Fixture.fail(shipping, 1);
		Fixture.fail(payments, 1);
		payments.reset();

		assertThat(seen).containsExactly("shipping CLOSED->OPEN", "payments CLOSED->OPEN", "shipping OPEN->CLOSED",
				"payments OPEN->CLOSED", "payments CLOSED->CLOSED");
		assertThat(payments.state()).isEqualTo(State.CLOSED);
		assertThat(shipping.state()).isEqualTo(State.CLOSED);
	}

	@Test
	void aListenerStartingProbesOnEveryTransitionTerminates() {
		Breaker breaker = fixture.breaker(c -> c.consecutiveFailures(1));
		breaker.onTransition(t -> breaker.halfOpen());
		Fixture.fail(breaker, 1);
		assertThat(breaker.state()).isEqualTo(State.HALF_OPEN);
		assertThat(fixture.transitions).extracting(Transition::to).containsExactly(State.OPEN, State.HALF_OPEN);
	}

	@Test
	void aTransitionCausedInsideAListenerIsDeliveredAfterThatListenerReturns() {
		Breaker breaker = fixture.breaker(c -> c.consecutiveFailures(1));
		List<String> order = new ArrayList<>();
		breaker.onTransition(t -> {
			order.add("first listener begins " + t.to());
			if (t.to() == State.OPEN) {
				breaker.forceOpen();
			}
			order.add("first listener ends " + t.to());
		});
		breaker.onTransition(t -> order.add("second listener " + t.to()));
		Fixture.fail(breaker, 1);
		assertThat(order).containsExactly("first listener begins OPEN", "first listener ends OPEN",
				"second listener OPEN", "first listener begins FORCED_OPEN", "first listener ends FORCED_OPEN",
				"second listener FORCED_OPEN");
		assertThat(breaker.state()).isEqualTo(State.FORCED_OPEN);
	}

	/**
	 * A registry whose "recommendations" breaker (one failure trips) has tenant children
	 * that consult it.
	 */
	private BreakerRegistry recommendationsWithTenants() {
		return BreakerRegistry.builder()
			.defaults(fixture.config().consecutiveFailures(1).build())
			.children("recommendations", new BreakerRegistry.Children(10, Duration.ofMinutes(5), true))
			.build();
	}

	@Test
	void aChildWhoseListenerThrowsStillReleasesItsParentsProbe() throws Exception {
		BreakerRegistry registry = recommendationsWithTenants();
		Breaker parent = registry.breaker("recommendations");
		Breaker child = registry.breaker("recommendations", "user-1");
		child.onTransition(t -> {
			throw new ListenerBug();
		});
		parent.halfOpen();
		failedCallPassesItsExceptionOn(child, "down");
		assertThat(child.state()).isEqualTo(State.OPEN);
		assertThat(parent.snapshot().probes().inFlight()).isZero();
		assertThat(parent.totals().probeFailures()).isEqualTo(1);
	}

	@Test
	void aVirtualMachineErrorFromAListenerIsNotSwallowedButTheParentIsStillReleased() {
		BreakerRegistry registry = recommendationsWithTenants();
		Breaker parent = registry.breaker("recommendations");
		Breaker child = registry.breaker("recommendations", "user-1");
		child.onTransition(t -> {
			throw new OutOfMemoryError("simulated");
		});
		parent.halfOpen();
		Permit p = child.acquire();
		assertThatThrownBy(() -> child.release(p, Outcome.FAILURE, 0)).isInstanceOf(OutOfMemoryError.class);
		assertThat(parent.snapshot().probes().inFlight()).isZero();
	}

	@Test
	void aRegistryListenerThatThrowsAnErrorNeverBreaksALookup() {
		BreakerRegistry registry = BreakerRegistry.builder().defaults(fixture.config().build()).build();
		registry.onCreated(b -> {
			throw new ListenerBug();
		});
		registry.onTransition(t -> {
			throw new ListenerBug();
		});
		Breaker breaker = registry.breaker("payments");
		breaker.forceOpen();
		assertThat(registry.breaker("tenants", "a").name()).isEqualTo("tenants:a");
		assertThat(breaker.state()).isEqualTo(State.FORCED_OPEN);
	}

	@Test
	void aThrowingClassifierNeverReplacesTheCallsResultAndStillReleasesThePermit() throws Exception {
		Breaker breaker = fixture.breaker(c -> c.consecutiveFailures(1).classifier((result, error) -> {
			throw new IllegalStateException("classifier bug");
		}));
		breaker.halfOpen();
		assertThat(breaker.call(() -> "ok")).isEqualTo("ok");
		assertThat(breaker.snapshot().probes().inFlight()).isZero();
	}

}
