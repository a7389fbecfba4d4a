package dev.breaker.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * What a breaker says about itself: names, permits, messages, and what it logs when user
 * code fails.
 */
class DiagnosticsTests {

	private final Fixture fixture = new Fixture();

	@Test
	void aBreakerNeedsAName() {
		assertThatThrownBy(() -> Breaker.of(null, BreakerConfig.defaults()))
			.hasMessage("a breaker needs a name, but was null");
		assertThatThrownBy(() -> Breaker.of("  ", BreakerConfig.defaults()))
			.hasMessage("a breaker needs a name, but was blank");
	}

	@Test
	void aBreakerAndItsPermitsSayWhatTheyAre() {
		Breaker breaker = fixture.breaker(c -> c.consecutiveFailures(1));
		assertThat(breaker).hasToString("Breaker[payments CLOSED#0]");
		assertThat(breaker.acquire()).hasToString("Permit[payments CLOSED generation 0]");
		breaker.halfOpen();
		assertThat(breaker.acquire()).hasToString("Permit[payments HALF_OPEN generation 1, probe]");
		assertThat(breaker.acquire()).hasToString("Permit[rejected by payments]");
	}

	@Test
	void aRejectionWhileHalfOpenSaysNoProbeSlotIsFree() {
		Breaker breaker = fixture.breaker(c -> c);
		breaker.halfOpen();
		breaker.acquire();
		assertThat(breaker.acquire().granted()).isFalse();
		assertThat(breaker.rejection()).hasMessage("breaker 'payments' is HALF_OPEN and has no probe slot free");
	}

	@Test
	void aConfigListsEverySetting() {
		assertThat(BreakerConfig.defaults().toString()).isEqualTo("BreakerConfig[window=PT10S, bucket=PT1S, "
				+ "consecutiveFailures=5, failureRateThreshold=50.0, minimumCalls=20, slowCallDuration=PT2S, "
				+ "slowCallRateThreshold=0.0, stallCalls=0, trackInFlight=false, recordLatency=true, timeoutWeight=1.0, "
				+ "openWait=PT30S, "
				+ "openWaitMultiplier=2.0, maxOpenWait=PT5M, openWaitJitter=0.2, halfOpenMaxProbes=10, "
				+ "halfOpenSuccessesToClose=5, halfOpenFailuresToReopen=3, halfOpenMaxWait=PT1M, minimumCallsRatio=0.0, "
				+ "retryBudgetRatio=0.2, retryBudgetMinPerSecond=10.0]");
	}

	@Test
	void aThrowingListenerIsLogged() {
		Breaker breaker = fixture.breaker(c -> c.consecutiveFailures(1));
		breaker.onTransition(t -> {
			throw new IllegalStateException("listener bug");
		});
		try (Logs logs = Logs.of(Breaker.class)) {
			Fixture.fail(breaker, 1);
			assertThat(logs.warnings()).singleElement()
				.asString()
				.startsWith("a transition listener of breaker 'payments' threw on Transition[");
		}
	}

	@Test
	void aThrowingClassifierIsLoggedAndTheDefaultClassifierDecides() throws Exception {
		Breaker breaker = fixture.breaker(c -> c.classifier((result, error) -> {
			throw new IllegalStateException("classifier bug");
		}));
		try (Logs logs = Logs.of(Breaker.class)) {
			breaker.call(() -> "ok");
			assertThat(logs.warnings()).containsExactly(
					"the classifier of breaker 'payments' threw; the default classifier decides this call");
		}
		assertThat(breaker.totals().calls(Outcome.SUCCESS)).isEqualTo(1);
	}

	@Test
	void aClassifierAnsweringNullIsLoggedAndTheDefaultClassifierDecides() {
		Breaker breaker = fixture.breaker(c -> c.classifier((result, error) -> null));
		try (Logs logs = Logs.of(Breaker.class)) {
			assertThatThrownBy(() -> breaker.call(() -> {
				throw new java.io.IOException("down");
			})).isInstanceOf(java.io.IOException.class);
			assertThat(logs.warnings()).containsExactly("the classifier of breaker 'payments' returned null");
		}
		assertThat(breaker.totals().calls(Outcome.FAILURE)).isEqualTo(1);
	}

	@Test
	void throwingRegistryListenersAreLogged() {
		BreakerRegistry registry = BreakerRegistry.builder().defaults(fixture.config().build()).build();
		registry.onCreated(b -> {
			throw new IllegalStateException("created listener bug");
		});
		registry.onTransition(t -> {
			throw new IllegalStateException("transition listener bug");
		});
		try (Logs logs = Logs.of(BreakerRegistry.class)) {
			registry.breaker("payments").forceOpen();
			assertThat(logs.warnings()).hasSize(2)
				.anySatisfy(m -> assertThat(m).isEqualTo("registry listener threw for breaker 'payments'"))
				.anySatisfy(m -> assertThat(m).startsWith("registry transition listener threw on Transition["));
		}
	}

	@Test
	void theSystemTickerIsSystemNanoTimeAndTheCachedOneFollowsIt() {
		long before = System.nanoTime();
		long system = Ticker.system().nanos();
		long cached = Ticker.cached().nanos();
		assertThat(system).isBetween(before, System.nanoTime());
		assertThat(cached).isBetween(before - Duration.ofSeconds(1).toNanos(), System.nanoTime());
	}

	@Test
	void aManualTickerStandsWhereItIsSet() {
		ManualTicker ticker = new ManualTicker();
		ticker.set(123);
		ticker.advance(Duration.ofNanos(7));
		assertThat(ticker.nanos()).isEqualTo(130);
		assertThatThrownBy(() -> ticker.advanceNanos(-1))
			.hasMessage("a ticker never goes back, but was asked to advance by -1 ns");
		Breaker breaker = Breaker.of("t", BreakerConfig.builder().ticker(ticker).build());
		assertThat(breaker.nanos()).isEqualTo(130);
	}

}
