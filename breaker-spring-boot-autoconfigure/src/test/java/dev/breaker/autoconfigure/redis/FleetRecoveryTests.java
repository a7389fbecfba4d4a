package dev.breaker.autoconfigure.redis;

import static dev.breaker.autoconfigure.redis.FleetModeIntegrationTests.failTimes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import dev.breaker.core.Breaker;
import dev.breaker.core.BreakerConfig;
import dev.breaker.core.BreakerOpenException;
import dev.breaker.core.State;
import dev.breaker.core.Ticker;
import dev.breaker.redis.RedisServerHarness;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * As long as one replica has traffic, the fleet closes soon after the dependency
 * recovers, whoever holds the probe slots.
 */
class FleetRecoveryTests {

	private static final Duration OPEN_WAIT = Duration.ofSeconds(2);

	private final List<Replica> replicas = new ArrayList<>();

	private RedisServerHarness redis;

	@BeforeEach
	void startRedis() {
		redis = RedisServerHarness.start();
	}

	@AfterEach
	void stopAll() {
		replicas.forEach(Replica::close);
		redis.close();
	}

	@Test
	void theFleetClosesWithinOpenWaitPlusThreeSecondsWhenTheSlotHolderGetsNoTraffic() throws Exception {
		Replica r1 = replica("r1");
		Replica r2 = replica("r2");
		Replica r3 = replica("r3");
		failTimes(r1.breaker("payments"), 3);
		long recoveredAt = System.nanoTime(); // the dependency is healthy from here on
		// r1 holds the fleet's probe slot: r2 and r3 take part only from now on (their
		// breakers are created now)
		await().atMost(Duration.ofSeconds(3)).until(() -> r1.sync().view("payments").probeSlots() == 1);
		assertThat(r2.breaker("payments").state()).isEqualTo(State.OPEN);
		assertThat(r3.breaker("payments").state()).isEqualTo(State.OPEN);
		AtomicBoolean running = new AtomicBoolean(true);
		ExecutorService traffic = Executors.newFixedThreadPool(2);
		try {
			// r1 gets no traffic at all (the load balancer moved it elsewhere); r2 and r3
			// get 10 requests a second
			traffic.execute(() -> tenPerSecond(r2.breaker("payments"), running));
			traffic.execute(() -> tenPerSecond(r3.breaker("payments"), running));

			await().atMost(OPEN_WAIT.plusSeconds(3))
				.until(() -> r2.breaker("payments").state() == State.CLOSED
						&& r3.breaker("payments").state() == State.CLOSED
						&& r1.breaker("payments").state() == State.CLOSED);

			assertThat(Duration.ofNanos(System.nanoTime() - recoveredAt)).isLessThanOrEqualTo(OPEN_WAIT.plusSeconds(3));
		}
		finally {
			running.set(false);
			traffic.shutdown();
			traffic.awaitTermination(5, TimeUnit.SECONDS);
		}
	}

	private static void tenPerSecond(Breaker breaker, AtomicBoolean running) {
		while (running.get()) {
			try {
				breaker.call(() -> "healthy");
			}
			catch (BreakerOpenException rejected) {
				// the checkout is queued for later
			}
			catch (Exception unexpected) {
				throw new AssertionError(unexpected);
			}
			try {
				TimeUnit.MILLISECONDS.sleep(100);
			}
			catch (InterruptedException e) {
				Thread.currentThread().interrupt();
				return;
			}
		}
	}

	private Replica replica(String id) {
		BreakerConfig config = BreakerConfig.builder()
			.consecutiveFailures(3)
			.failureRateThreshold(0)
			.openWait(OPEN_WAIT)
			.openWaitJitter(0)
			.maxOpenWait(OPEN_WAIT.multipliedBy(30))
			.halfOpenMaxProbes(1)
			.halfOpenSuccessesToClose(2)
			.ticker(Ticker.system())
			.build();
		Replica replica = Replica.start(redis, id, config, "breaker.shared.redis.quorum=1");
		replicas.add(replica);
		return replica;
	}

}
