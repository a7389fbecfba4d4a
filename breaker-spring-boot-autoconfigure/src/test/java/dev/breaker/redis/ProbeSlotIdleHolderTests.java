package dev.breaker.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import dev.breaker.core.Breaker;
import dev.breaker.core.BreakerConfig;
import dev.breaker.core.BreakerRegistry;
import dev.breaker.core.State;
import dev.breaker.core.Ticker;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A replica that is open for longer than the fleet's episode (a {@code Retry-After}, a
 * multiplied open wait) and wins the episode's probe slots must not hold them to the end
 * of its own open wait: the others' open wait ends with the episode's, and the holder
 * gives its slots up to a replica with traffic only if it is renewing by then. With
 * traffic of its own it cannot probe before its own wait ends either, so it gives them up
 * too.
 */
class ProbeSlotIdleHolderTests {

	private static final Duration OPEN_WAIT = Duration.ofSeconds(2);

	private static final Duration RETRY_AFTER = Duration.ofSeconds(60);

	private final RedisServerHarness redis = RedisServerHarness.start();

	private final RedisAdmin admin = new RedisAdmin(redis);

	private final FleetKeys keys = new FleetKeys("breaker:");

	private final List<FleetSync> fleet = new ArrayList<>();

	private final List<CountDownLatch> gates = new ArrayList<>();

	@AfterEach
	void close() {
		gates.forEach(CountDownLatch::countDown);
		fleet.forEach(FleetSync::close);
		admin.close();
		redis.close();
	}

	@Test
	void anIdleSlotHolderWhoseOwnOpenWaitOutlastsTheEpisodeLetsTheFleetCloseWithinOpenWaitPlusThreeSeconds()
			throws Exception {
		List<Breaker> payments = r1HoldsTheSlotOfR2sEpisode();
		// the dependency is healthy again; r1 gets no traffic at all, r2 and r3 get 10
		// requests a second
		assertTheFleetClosesWithinOpenWaitPlusThreeSeconds(payments, List.of(payments.get(1), payments.get(2)),
				"has no traffic");
	}

	@Test
	void aSlotHolderWithTrafficWhoseOwnOpenWaitOutlastsTheEpisodeLetsTheFleetCloseWithinOpenWaitPlusThreeSeconds()
			throws Exception {
		List<Breaker> payments = r1HoldsTheSlotOfR2sEpisode();
		// the dependency is healthy again; every replica gets 10 requests a second, but
		// r1 cannot probe for another minute
		assertTheFleetClosesWithinOpenWaitPlusThreeSeconds(payments, payments, "has traffic");
	}

	/**
	 * Three replicas; r2's trip opens a 2 s episode, r1 (open here for a minute) follows
	 * it and holds its one probe slot, r2 and r3 have none. Returns payments on r1, r2,
	 * r3.
	 */
	private List<Breaker> r1HoldsTheSlotOfR2sEpisode() throws Exception {
		BreakerConfig config = BreakerConfig.builder()
			.consecutiveFailures(3)
			.failureRateThreshold(0)
			.openWait(OPEN_WAIT)
			.openWaitJitter(0)
			.maxOpenWait(RETRY_AFTER)
			.halfOpenMaxProbes(1)
			.halfOpenSuccessesToClose(2)
			.ticker(Ticker.system())
			.build();
		List<FleetSync> members = new ArrayList<>();
		List<Breaker> payments = new ArrayList<>();
		for (String id : List.of("r1", "r2", "r3")) {
			BreakerRegistry replica = BreakerRegistry.builder().defaults(config).build();
			payments.add(replica.breaker("payments"));
			FleetSync member = redis.join(replica, id, 1);
			fleet.add(member);
			members.add(member);
		}
		FleetSync r1 = members.get(0);
		FleetSync r2 = members.get(1);
		FleetSync r3 = members.get(2);

		// the order in which the replicas hear of the episode is fixed by holding their
		// sync threads: r1 claims the slot first, r2 and r3 only once it holds it
		CountDownLatch r1Held = holdSyncThread(r1);
		CountDownLatch r3Held = holdSyncThread(r3);
		// r1 trips a moment before r2, and its dependency asked for a minute's rest
		// (Retry-After): it is OPEN here for 60 s
		failThreeTimes(payments.get(0));
		payments.get(0).retryAfter(RETRY_AFTER);
		assertThat(ProbeShare.openMillis(payments.get(0))).isGreaterThan(RETRY_AFTER.toMillis() - 5_000);
		// r2's trip opens the fleet's episode (2 s); its claim waits on its sync thread
		CountDownLatch r2Trips = holdSyncThread(r2);
		failThreeTimes(payments.get(1));
		CountDownLatch r2Held = holdSyncThreadLater(r2);
		r2Trips.countDown();
		await().atMost(Duration.ofSeconds(5))
			.until(() -> "r2".equals(admin.redis().hget(keys.state("payments"), "replica")));
		String episode = admin.redis().hget(keys.state("payments"), "episode");

		// r1 follows r2's episode (its own trip came second) and claims the one slot,
		// with its own open wait a minute from its end
		r1Held.countDown();
		await().atMost(Duration.ofSeconds(5))
			.until(() -> episode.equals(r1.view("payments").episode()) && r1.view("payments").probeSlots() == 1);
		r2Held.countDown();
		r3Held.countDown();
		await().atMost(Duration.ofSeconds(5))
			.until(() -> episode.equals(r2.view("payments").episode()) && r2.view("payments").probeSlots() == 0
					&& episode.equals(r3.view("payments").episode()) && r3.view("payments").probeSlots() == 0);
		return payments;
	}

	private static void assertTheFleetClosesWithinOpenWaitPlusThreeSeconds(List<Breaker> payments,
			List<Breaker> withTraffic, String holder) throws InterruptedException {
		AtomicBoolean running = new AtomicBoolean(true);
		ExecutorService traffic = Executors.newFixedThreadPool(withTraffic.size());
		try {
			long recoveredAt = System.nanoTime();
			withTraffic.forEach(breaker -> traffic.execute(() -> SteadyTraffic.callEvery(breaker, 100, running)));

			await().atMost(OPEN_WAIT.plusSeconds(3))
				.untilAsserted(() -> assertThat(payments)
					.as("payments on r1, r2, r3 (r1 holds the slot of a %d ms episode, %s, and is open here for %d ms)",
							OPEN_WAIT.toMillis(), holder, RETRY_AFTER.toMillis())
					.extracting(Breaker::state)
					.containsOnly(State.CLOSED));
			assertThat(Duration.ofNanos(System.nanoTime() - recoveredAt)).isLessThanOrEqualTo(OPEN_WAIT.plusSeconds(3));
		}
		finally {
			running.set(false);
			traffic.shutdown();
			traffic.awaitTermination(5, TimeUnit.SECONDS);
		}
	}

	/**
	 * Parks the member's sync thread until the returned latch opens; returns once parked.
	 */
	private CountDownLatch holdSyncThread(FleetSync member) throws InterruptedException {
		CountDownLatch parked = new CountDownLatch(1);
		CountDownLatch release = holdSyncThread(member, parked);
		assertThat(parked.await(10, TimeUnit.SECONDS)).as("the sync thread is parked").isTrue();
		return release;
	}

	/**
	 * Queues a task that parks the member's sync thread, behind the work queued so far.
	 */
	private CountDownLatch holdSyncThreadLater(FleetSync member) {
		return holdSyncThread(member, new CountDownLatch(1));
	}

	private CountDownLatch holdSyncThread(FleetSync member, CountDownLatch parked) {
		CountDownLatch release = new CountDownLatch(1);
		gates.add(release);
		assertThat(member.thread().submit(() -> {
			parked.countDown();
			try {
				release.await(30, TimeUnit.SECONDS);
			}
			catch (InterruptedException e) {
				Thread.currentThread().interrupt();
			}
		})).isTrue();
		return release;
	}

	private static void failThreeTimes(Breaker breaker) throws Exception {
		for (int i = 0; i < 3; i++) {
			try {
				breaker.call(() -> {
					throw new IllegalStateException("down");
				});
			}
			catch (IllegalStateException expected) {
				// a failure
			}
		}
		assertThat(breaker.state()).isEqualTo(State.OPEN);
	}

}
