package dev.breaker.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A breadth group's overdue probes are judged oldest first (by when each started), so the
 * half-open verdict is the same whenever the first look after the max wait happens.
 */
class HalfOpenLapseOrderTests {

	private final Fixture fixture = new Fixture();

	private final BreakerRegistry registry = registry();

	private final Breaker group = this.registry.breaker("recommendations");

	private final Breaker loud = this.registry.breaker("recommendations", "loud");

	private BreakerRegistry registry() {
		BreakerRegistry registry = BreakerRegistry.builder()
			.defaults(this.fixture.config()
				.halfOpenMaxProbes(4)
				.halfOpenSuccessesToClose(5)
				.halfOpenFailuresToReopen(3)
				.halfOpenMaxWait(Duration.ofSeconds(30))
				.build())
			.children("recommendations", new BreakerRegistry.Children(100, Duration.ofMinutes(10), true, 3, 128))
			.build();
		Breaker group = registry.breaker("recommendations");
		group.halfOpen();
		Fixture.succeed(registry.breaker("recommendations", "warm"), 2); // ramp to 4
		group.onTransition(this.fixture.transitions::add);
		return registry;
	}

	/**
	 * The group's own probe (slot 1, started at t=0) is overdue from t=30s, a loud
	 * tenant's (slot 0, started at t=10s) from t=40s: the group's own lapses first, while
	 * no tenant's probe failed, and reopens the group, whenever the first look is.
	 */
	@ParameterizedTest(name = "first looked at {0}s")
	@ValueSource(ints = { 30, 31, 39, 40, 41, 45, 60, 600 })
	void theGroupsOwnProbeOverdueFirstReopensTheGroupWheneverTheFirstLookIs(int lookAtSeconds) {
		Permit loudProbe = ownProbeInSlot1ThenLoudInSlot0();

		this.fixture.advance(Duration.ofSeconds(lookAtSeconds - 10));
		assertThat(group.state()).as("the group first looked at at t=%ss", lookAtSeconds).isEqualTo(State.OPEN);
		assertThat(this.fixture.transitions).singleElement()
			.extracting(Transition::reason)
			.isEqualTo("no probe verdict within 30s");
		this.loud.release(loudProbe, Outcome.FAILURE, 0);
		assertThat(group.totals().probeFailures()).as("the loud tenant's late release counts nowhere").isZero();
	}

	/** As above, the first look being the loud tenant's release of its failed probe. */
	@ParameterizedTest(name = "released at {0}s")
	@ValueSource(ints = { 30, 39, 40, 45, 600 })
	void theGroupsOwnProbeOverdueFirstReopensTheGroupWhenATenantsReleaseLooksFirst(int lookAtSeconds) {
		Permit loudProbe = ownProbeInSlot1ThenLoudInSlot0();

		this.fixture.advance(Duration.ofSeconds(lookAtSeconds - 10));
		this.loud.release(loudProbe, Outcome.FAILURE, 0);
		assertThat(group.state()).as("released at t=%ss", lookAtSeconds).isEqualTo(State.OPEN);
		assertThat(this.fixture.transitions).singleElement()
			.extracting(Transition::reason)
			.isEqualTo("no probe verdict within 30s");
	}

	/**
	 * The mirror: a hung tenant's probe (slot 1, started at t=0) is overdue before the
	 * group's own (slot 0, started at t=10s). It lapses first, as the tenant's failed
	 * probe; the group's own then lapses as a failed probe too (a tenant's probe failed
	 * already): two failed probes, three needed, so the group stays half-open whenever
	 * the first look is.
	 */
	@ParameterizedTest(name = "first looked at {0}s")
	@ValueSource(ints = { 30, 39, 40, 45, 600 })
	void aTenantsProbeOverdueBeforeTheGroupsOwnLapsesFirstWheneverTheFirstLookIs(int lookAtSeconds) {

		Breaker filler = this.registry.breaker("recommendations", "filler");
		Breaker hung = this.registry.breaker("recommendations", "hung");
		Permit f = filler.acquire();
		Permit h = hung.acquire();
		assertThat(f.granted()).isTrue();
		assertThat(h.granted()).isTrue();
		filler.release(f, Outcome.IGNORED, 0); // slot 0 free again, no verdict
		this.fixture.advance(Duration.ofSeconds(10));
		Permit own = group.acquire(); // slot 0, from t=10s
		assertThat(own.granted()).isTrue();

		this.fixture.advance(Duration.ofSeconds(lookAtSeconds - 10));
		assertThat(group.state()).as("the group first looked at at t=%ss", lookAtSeconds).isEqualTo(State.HALF_OPEN);
		this.fixture.advance(Duration.ofSeconds(Math.max(0, 40 - lookAtSeconds)));
		assertThat(group.state()).isEqualTo(State.HALF_OPEN);
		assertThat(this.fixture.transitions).isEmpty();
		assertThat(group.totals().probeFailures()).as("both lapsed, each once").isEqualTo(2);
		assertThat(group.snapshot().probes().inFlight()).isZero();
	}

	/**
	 * t=0: a tenant takes slot 0, the group's own call slot 1; t=10s: loud takes slot 0.
	 */
	private Permit ownProbeInSlot1ThenLoudInSlot0() {
		Breaker quiet = this.registry.breaker("recommendations", "quiet");
		Permit q = quiet.acquire();
		Permit own = this.group.acquire();
		assertThat(q.granted()).isTrue();
		assertThat(own.granted()).isTrue();
		quiet.release(q, Outcome.IGNORED, 0); // slot 0 free again, no verdict
		this.fixture.advance(Duration.ofSeconds(10));
		Permit l = this.loud.acquire();
		assertThat(l.granted()).isTrue();
		return l;
	}

}
