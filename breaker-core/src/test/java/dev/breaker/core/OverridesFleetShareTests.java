package dev.breaker.core;

import static org.assertj.core.api.Assertions.assertThat;

import dev.breaker.core.spi.SharedStateHooks;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * A halfOpen() told to nobody keeps this replica's fleet share of probes, also one the
 * fleet sets while the fresh episode replaces the old one.
 */
class OverridesFleetShareTests {

	private final Fixture fixture = new Fixture();

	/**
	 * The fleet read the breaker's state (the old episode) before a quiet halfOpen()
	 * swapped in the fresh one, and sets its share after: as if set between the
	 * override's copy of the share and its swap, the share lands on the retired state.
	 * The fresh episode takes it all the same.
	 */
	@Test
	void aShareTheFleetSetsOnTheEpisodeAQuietHalfOpenRetiredReachesTheFreshEpisode() {
		Breaker breaker = fixture.breaker(c -> c.halfOpenMaxProbes(4));
		breaker.halfOpen();
		breaker.halfOpen();
		SharedStateHooks.limitProbes(breaker, 3);
		HalfOpenState readByTheFleet = (HalfOpenState) breaker.current();
		breaker.halfOpen(); // told to nobody: a fresh episode with share 3
		assertThat(breaker.current()).isNotSameAs(readByTheFleet);

		readByTheFleet.share(0); // the fleet's limitProbes, on the state it read

		assertThat(((HalfOpenState) breaker.current()).share()).as("the fresh episode's share").isZero();
		assertThat(breaker.acquire().granted()).as("a probe beyond this replica's share of none").isFalse();
		assertThat(fixture.transitions).hasSize(2);
	}

	/**
	 * A share the fleet sets on the fresh episode itself is never overwritten by the one
	 * the retired episode had.
	 */
	@Test
	void aShareTheFleetSetsOnTheFreshEpisodeIsKeptOverTheRetiredOnes() {
		Breaker breaker = fixture.breaker(c -> c.halfOpenMaxProbes(4));
		breaker.halfOpen();
		breaker.halfOpen();
		SharedStateHooks.limitProbes(breaker, 3);
		HalfOpenState retired = (HalfOpenState) breaker.current();
		breaker.halfOpen();
		HalfOpenState fresh = (HalfOpenState) breaker.current();
		SharedStateHooks.limitProbes(breaker, 1);
		breaker.halfOpen(); // another fresh episode, from the one with share 1

		assertThat(fresh.share()).isEqualTo(1);
		assertThat(((HalfOpenState) breaker.current()).share()).isEqualTo(1);
		assertThat(retired.share()).isEqualTo(3);
	}

	/**
	 * The fleet sets shares while an operator keeps restarting the episode quietly: once
	 * both stop, the breaker's episode has the fleet's last share.
	 */
	@Test
	void theFleetsLastShareWinsWhileQuietHalfOpensRace() throws Exception {
		for (int round = 0; round < 200; round++) {
			Breaker breaker = fixture.breaker(c -> c.halfOpenMaxProbes(8));
			breaker.halfOpen();
			breaker.halfOpen();
			CountDownLatch start = new CountDownLatch(1);
			AtomicBoolean fleetDone = new AtomicBoolean();
			Thread operator = new Thread(() -> {
				await(start);
				while (!fleetDone.get()) {
					breaker.halfOpen();
				}
				breaker.halfOpen();
			});
			operator.start();
			start.countDown();
			for (int i = 0; i < 2_000; i++) {
				SharedStateHooks.limitProbes(breaker, i % 8);
			}
			SharedStateHooks.limitProbes(breaker, 5);
			fleetDone.set(true);
			operator.join();
			assertThat(((HalfOpenState) breaker.current()).share()).as("round %s", round).isEqualTo(5);
		}
	}

	private static void await(CountDownLatch latch) {
		try {
			latch.await();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

}
