package dev.breaker.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.Test;

/**
 * The hot paths allocate nothing on the calling thread, after warm-up (one full run of
 * the measured loop).
 */
class AllocationTests {

	private static final int CALLS = 1_000_000;

	private static final Callable<String> CONSTANT = () -> "ok";

	private static void closedPath(Breaker breaker, int n) {
		for (int i = 0; i < n; i++) {
			Permit p = breaker.acquire();
			breaker.release(p, Outcome.SUCCESS, breaker.nanos() - breaker.nanos());
		}
	}

	/**
	 * Calls as a real dependency's: each took 20 ms on the ticker, so each writes its
	 * latency.
	 */
	private static void timedClosedPath(Breaker breaker, int n) {
		for (int i = 0; i < n; i++) {
			Permit p = breaker.acquire();
			breaker.release(p, i % 10 == 0 ? Outcome.FAILURE : Outcome.SUCCESS, 20_000_000L + i % 7_000_000);
		}
	}

	private static void rejections(Breaker breaker, int n) {
		for (int i = 0; i < n; i++) {
			if (breaker.acquire().granted()) {
				throw new AssertionError("the breaker should be open");
			}
		}
	}

	@Test
	void aMillionClosedPathAcquireReleasePairsAllocateNothing() {
		Breaker breaker = Breaker.of("alloc", BreakerConfig.defaults());
		closedPath(breaker, CALLS);
		assertThat(Allocations.steady(() -> closedPath(breaker, CALLS))).isZero();
		assertThat(breaker.totals().calls(Outcome.SUCCESS)).isGreaterThanOrEqualTo(2 * CALLS);
	}

	@Test
	void aMillionTimedCallsRecordingTheirLatencyAllocateNothing() {
		Breaker breaker = Breaker.of("alloc", BreakerConfig.builder().consecutiveFailures(0).build());
		timedClosedPath(breaker, CALLS);
		assertThat(Allocations.steady(() -> timedClosedPath(breaker, CALLS))).isZero();
		assertThat(breaker.durations().histogram().count()).isGreaterThanOrEqualTo(2 * CALLS);
	}

	@Test
	void aMillionTimedCallsWithLatencyOffAllocateNothing() {
		Breaker breaker = Breaker.of("alloc",
				BreakerConfig.builder().consecutiveFailures(0).recordLatency(false).build());
		timedClosedPath(breaker, CALLS);
		assertThat(Allocations.steady(() -> timedClosedPath(breaker, CALLS))).isZero();
	}

	@Test
	void aMillionClosedPathPairsWithTheStallRuleOnAllocateNothing() {
		Breaker breaker = Breaker.of("alloc", BreakerConfig.builder().stallCalls(5).build());
		closedPath(breaker, CALLS);
		assertThat(Allocations.steady(() -> closedPath(breaker, CALLS))).isZero();
	}

	@Test
	void aMillionClosedPathPairsTrackingCallsInFlightAllocateNothing() {
		Breaker breaker = Breaker.of("alloc", BreakerConfig.builder().trackInFlight(true).build());
		closedPath(breaker, CALLS);
		assertThat(Allocations.steady(() -> closedPath(breaker, CALLS))).isZero();
		assertThat(breaker.snapshot().inFlight()).isZero();
	}

	@Test
	void aMillionClosedPathPairsFollowingTrafficAllocateNothing() {
		// the peaks behind minimum-calls-ratio and auto probes are kept without
		// allocating, across bucket rolls too (the ticker crosses one per 1000 calls)
		ManualTicker ticker = new ManualTicker();
		Breaker breaker = Breaker.of("alloc",
				BreakerConfig.builder().ticker(ticker).minimumCallsRatio(0.5).halfOpenMaxProbesAuto().build());
		Runnable calls = () -> {
			for (int i = 0; i < CALLS; i++) {
				Permit p = breaker.acquire();
				ticker.advanceNanos(1_000_000);
				breaker.release(p, Outcome.SUCCESS, 1_000_000);
			}
		};
		calls.run();
		assertThat(Allocations.steady(calls)).isZero();
		assertThat(breaker.snapshot().traffic().peakCallsPerWindow()).isEqualTo(10_000);
	}

	@Test
	void aMillionCallsOnAClosedBreakerAllocateNothing() {
		Breaker breaker = Breaker.of("alloc", BreakerConfig.defaults());
		Runnable calls = () -> {
			for (int i = 0; i < CALLS; i++) {
				try {
					breaker.call(CONSTANT);
				}
				catch (Exception e) {
					throw new AssertionError(e);
				}
			}
		};
		calls.run();
		assertThat(Allocations.steady(calls)).isZero();
	}

	@Test
	void aMillionRejectionsAllocateNothing() {
		Breaker breaker = Breaker.of("alloc",
				BreakerConfig.builder().openWait(Duration.ofHours(1)).maxOpenWait(Duration.ofHours(2)).build());
		breaker.forceOpen();
		rejections(breaker, 200_000);
		breaker.reset();
		for (int i = 0; i < 5; i++) {
			breaker.release(breaker.acquire(), Outcome.FAILURE, 0);
		}
		assertThat(breaker.state()).isEqualTo(State.OPEN);
		rejections(breaker, CALLS);
		assertThat(Allocations.steady(() -> rejections(breaker, CALLS))).isZero();
		assertThat(breaker.totals().rejected()).isGreaterThanOrEqualTo(2 * CALLS + 200_000);
	}

	@Test
	void aMillionThrownRejectionsAllocateNothing() {
		Breaker breaker = Breaker.of("alloc", BreakerConfig.defaults());
		breaker.forceOpen();
		Runnable calls = () -> {
			for (int i = 0; i < CALLS; i++) {
				try {
					breaker.call(CONSTANT);
					throw new AssertionError("the breaker should be open");
				}
				catch (BreakerOpenException expected) {
					// the preallocated one
				}
				catch (Exception e) {
					throw new AssertionError(e);
				}
			}
		};
		calls.run();
		assertThat(Allocations.steady(calls)).isZero();
	}

	@Test
	void aChildThatConsultsItsParentAllocatesNothingOnItsClosedPath() {
		BreakerRegistry registry = BreakerRegistry.builder()
			.children("tenants", new BreakerRegistry.Children(10, Duration.ofMinutes(5), true))
			.build();
		Breaker child = registry.breaker("tenants", "t-1");
		closedPath(child, CALLS);
		assertThat(Allocations.steady(() -> closedPath(child, CALLS))).isZero();
	}

	@Test
	void lookingUpAnExistingChildAllocatesNothing() {
		// A manual ticker keeps the once-a-second idle sweep out of the measurement.
		BreakerRegistry registry = BreakerRegistry.builder()
			.defaults(BreakerConfig.builder().ticker(new ManualTicker()).build())
			.children("tenants", new BreakerRegistry.Children(10, Duration.ofHours(1), true))
			.build();
		String[] keys = { "t-1", "t-2", "t-3" };
		Runnable lookups = () -> {
			for (int i = 0; i < CALLS; i++) {
				if (registry.breaker("tenants", keys[i % 3]).key() == null) {
					throw new AssertionError("a child has a key");
				}
			}
		};
		lookups.run();
		assertThat(Allocations.steady(lookups)).isZero();
	}

	@Test
	void aLoudTenantsFailuresHeldBackByTheGroupsBreadthRuleAllocateNothing() {
		// The loud tenant's own rules are off, so each of its failures reaches the group:
		// its consecutive-failures rule fires each time and is held back (one tenant is
		// not breadth), which must allocate nothing.
		BreakerConfig defaults = BreakerConfig.builder().ticker(new ManualTicker()).build();
		BreakerRegistry registry = BreakerRegistry.builder()
			.defaults(defaults)
			.config("tenants:loud", defaults.toBuilder().consecutiveFailures(0).failureRateThreshold(0).build())
			.children("tenants", new BreakerRegistry.Children(10, Duration.ofHours(1), true, 3, 128))
			.build();
		Breaker loud = registry.breaker("tenants", "loud");
		Runnable failures = () -> {
			for (int i = 0; i < CALLS; i++) {
				Permit p = loud.acquire();
				loud.release(p, Outcome.FAILURE, 0);
			}
		};
		failures.run();
		assertThat(Allocations.steady(failures)).isZero();
		assertThat(registry.breaker("tenants").state()).isEqualTo(State.CLOSED);
		assertThat(registry.breaker("tenants").snapshot().consecutiveFailures()).isGreaterThan(CALLS);
	}

	@Test
	void lookingUpAChildByAKeyWithinTheLimitAllocatesNothing() {
		BreakerRegistry registry = BreakerRegistry.builder()
			.defaults(BreakerConfig.builder().ticker(new ManualTicker()).build())
			.children("tenants", new BreakerRegistry.Children(10, Duration.ofHours(1), true, 3, 128))
			.build();
		String key = "u".repeat(128);
		Runnable lookups = () -> {
			for (int i = 0; i < CALLS; i++) {
				if (registry.breaker("tenants", key).key() != key) {
					throw new AssertionError("a key within the limit is kept as it is");
				}
			}
		};
		lookups.run();
		assertThat(Allocations.steady(lookups)).isZero();
	}

}
