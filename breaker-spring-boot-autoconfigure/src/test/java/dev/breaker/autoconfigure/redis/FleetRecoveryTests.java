package dev.breaker.autoconfigure.redis;

import static dev.breaker.autoconfigure.redis.FleetModeIntegrationTests.failTimes;
import static dev.breaker.autoconfigure.redis.Replicas.threeFailures;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import dev.breaker.core.BreakerConfig;
import dev.breaker.core.State;
import dev.breaker.redis.SteadyTraffic;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * As long as one replica has traffic, the fleet closes soon after the dependency
 * recovers, whoever holds the probe slots.
 */
class FleetRecoveryTests {

	private static final Duration OPEN_WAIT = Duration.ofSeconds(2);

	private static final BreakerConfig CONFIG = threeFailures(OPEN_WAIT).toBuilder()
		.maxOpenWait(OPEN_WAIT.multipliedBy(30))
		.halfOpenSuccessesToClose(2)
		.build();

	@RegisterExtension
	final Replicas replicas = Replicas.onLocalRedis().defaults(CONFIG).properties("breaker.shared.redis.quorum=1");

	@Test
	void theFleetClosesWithinOpenWaitPlusThreeSecondsWhenTheSlotHolderGetsNoTraffic() throws Exception {
		Replica r1 = replicas.start("r1");
		Replica r2 = replicas.start("r2");
		Replica r3 = replicas.start("r3");
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
			traffic.execute(() -> SteadyTraffic.callEvery(r2.breaker("payments"), 100, running));
			traffic.execute(() -> SteadyTraffic.callEvery(r3.breaker("payments"), 100, running));

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

}
