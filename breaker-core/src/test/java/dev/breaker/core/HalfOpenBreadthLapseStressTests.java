package dev.breaker.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A half-open group that trips on breadth (min-failing 3, failures-to-reopen 3) whose
 * loud tenants' probes hang past the max wait and then fail, while many quiet tenants'
 * quick probes take the slots given back, on many threads. The breadth rule must hold:
 * fewer than three loud tenants never reopen the group (a lapsed probe's late failure
 * counts neither again nor for the tenant now holding its slot), the quiet tenants keep
 * getting probes, and three loud tenants reopen it exactly once.
 */
@Tag("stress")
class HalfOpenBreadthLapseStressTests {

	private static final int ROUNDS = Rounds.count(40);

	private static final Duration MAX_WAIT = Duration.ofSeconds(1);

	private static final int QUIET_THREADS = 4;

	private static final int QUIET_TENANTS = 200;

	/** Max-wait advances of the ticker in a round. */
	private static final int ADVANCES = 30;

	private final ManualTicker ticker = new ManualTicker();

	private final List<Transition> transitions = new CopyOnWriteArrayList<>();

	/**
	 * A group in its first half-open episode, ramped to 8 probes at once, that closes
	 * only after a million successes; the tenants' own breakers trip on nothing the test
	 * does.
	 */
	private BreakerRegistry halfOpenGroup() {
		BreakerConfig config = BreakerConfig.builder()
			.ticker(ticker)
			.consecutiveFailures(1_000_000)
			.minimumCalls(1_000_000)
			.halfOpenMaxProbes(8)
			.halfOpenSuccessesToClose(1_000_000)
			.halfOpenFailuresToReopen(3)
			.halfOpenMaxWait(MAX_WAIT)
			.build();
		BreakerRegistry registry = BreakerRegistry.builder()
			.defaults(config)
			.children("recommendations", new BreakerRegistry.Children(1_000, Duration.ofDays(1), true, 3, 128))
			.build();
		Breaker group = registry.breaker("recommendations");
		group.halfOpen();
		Fixture.succeed(registry.breaker("recommendations", "warm"), 3);
		transitions.clear();
		group.onTransition(transitions::add);
		return registry;
	}

	/**
	 * One round: {@code loud} tenants (two threads each) hang each probe until the ticker
	 * has moved a max wait past it, then fail it; quiet threads probe random quiet
	 * tenants (successes), never across a move of the ticker (a read lock the mover
	 * writes), so no quiet probe lapses; a mover advances the ticker ADVANCES times, each
	 * once every loud tenant holds a probe and a quiet probe was granted since the last
	 * move (or after 10 s, which the assertions then catch).
	 * @return quiet probes granted
	 */
	private int race(BreakerRegistry registry, int loud, AtomicBoolean stop) {
		Breaker group = registry.breaker("recommendations");
		Breaker[] loudTenants = new Breaker[loud];
		for (int i = 0; i < loud; i++) {
			loudTenants[i] = registry.breaker("recommendations", "loud-" + i);
		}
		ReadWriteLock clock = new ReentrantReadWriteLock();
		AtomicInteger quietProbes = new AtomicInteger();
		AtomicIntegerArray holding = new AtomicIntegerArray(loud);
		AtomicBoolean done = new AtomicBoolean();
		int loudThreads = 2 * loud;
		Concurrently.run(loudThreads + QUIET_THREADS + 1, i -> {
			if (i < loudThreads) {
				Breaker tenant = loudTenants[i / 2];
				while (!done.get() && !stop.get()) {
					Permit permit = tenant.acquire();
					if (!permit.granted()) {
						Thread.onSpinWait();
						continue;
					}
					holding.incrementAndGet(i / 2);
					long start = ticker.nanos();
					while (ticker.nanos() - start < MAX_WAIT.toNanos() && !done.get()) {
						Thread.yield();
					}
					holding.decrementAndGet(i / 2);
					tenant.release(permit, Outcome.FAILURE, ticker.nanos() - start);
				}
			}
			else if (i < loudThreads + QUIET_THREADS) {
				while (!done.get() && !stop.get()) {
					Breaker tenant = registry.breaker("recommendations",
							"quiet-" + ThreadLocalRandom.current().nextInt(QUIET_TENANTS));
					clock.readLock().lock();
					try {
						Permit permit = tenant.acquire();
						if (permit.granted()) {
							quietProbes.incrementAndGet();
							Thread.yield();
							tenant.release(permit, Outcome.SUCCESS, 0);
						}
					}
					finally {
						clock.readLock().unlock();
					}
				}
			}
			else {
				// until the group leaves half-open (the round is then judged)
				for (int n = 0; n < ADVANCES && !stop.get() && group.currentState() == State.HALF_OPEN; n++) {
					int quietBefore = quietProbes.get();
					long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
					while (!stop.get() && group.currentState() == State.HALF_OPEN && System.nanoTime() - deadline < 0
							&& (quietProbes.get() == quietBefore || !everyOneHolds(holding))) {
						Thread.yield();
					}
					clock.writeLock().lock();
					try {
						ticker.advance(MAX_WAIT);
					}
					finally {
						clock.writeLock().unlock();
					}
					group.state(); // someone looks: lapsed leases are judged
				}
				done.set(true);
			}
		});
		return quietProbes.get();
	}

	private static boolean everyOneHolds(AtomicIntegerArray holding) {
		for (int i = 0; i < holding.length(); i++) {
			if (holding.get(i) == 0) {
				return false;
			}
		}
		return true;
	}

	@Test
	void twoLoudTenantsWhoseProbesHangAndFailLateNeverReopenTheGroup() {
		for (int round = 0; round < ROUNDS; round++) {
			BreakerRegistry registry = halfOpenGroup();
			Breaker group = registry.breaker("recommendations");
			long failuresBefore = group.totals().probeFailures();
			int quiet = race(registry, 2, new AtomicBoolean());

			assertThat(transitions).as("round %d: transitions of the group", round).isEmpty();
			assertThat(group.state()).isEqualTo(State.HALF_OPEN);
			Snapshot.Probes probes = group.snapshot().probes();
			assertThat(probes.failures()).as("round %d: the loud tenants' lapsed probes", round).isPositive();
			assertThat(group.totals().probeFailures() - failuresBefore)
				.as("round %d: probe failures in the totals", round)
				.isEqualTo(probes.failures());
			assertThat(probes.inFlight()).as("round %d: probes in flight after every caller released", round).isZero();
			assertThat(quiet).as("round %d: quiet tenants' probes granted", round).isPositive();
		}
	}

	@Test
	void threeLoudTenantsWhoseProbesHangReopenTheGroupExactlyOnce() {
		for (int round = 0; round < ROUNDS; round++) {
			BreakerRegistry registry = halfOpenGroup();
			Breaker group = registry.breaker("recommendations");
			AtomicBoolean reopened = new AtomicBoolean();
			group.onTransition(t -> reopened.set(true));
			race(registry, 3, reopened);

			assertThat(group.currentState()).as("round %d", round).isEqualTo(State.OPEN);
			assertThat(transitions).as("round %d", round).singleElement().satisfies((t) -> {
				assertThat(t.from()).isEqualTo(State.HALF_OPEN);
				assertThat(t.reason()).contains("from at least 3 tenants");
			});
		}
	}

}
