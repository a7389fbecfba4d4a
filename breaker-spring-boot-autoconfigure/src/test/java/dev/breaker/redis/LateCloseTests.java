package dev.breaker.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import dev.breaker.core.Breaker;
import dev.breaker.core.BreakerConfig;
import dev.breaker.core.BreakerRegistry;
import dev.breaker.core.Outcome;
import dev.breaker.core.Permit;
import dev.breaker.core.State;
import dev.breaker.core.Ticker;
import io.lettuce.core.RedisURI;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A close ends only the episode it belongs to: heard by the fleet's listener after a
 * later trip of the same breaker (another thread's transition delivered first: a slow
 * listener before the fleet's), it is not sent, and the other replicas stay open with the
 * tripping one. Without the slow listener (the control) the close is told first, and the
 * trip after it opens the fleet again.
 */
class LateCloseTests {

	static BreakerRegistry registry() {
		return BreakerRegistry.builder()
			.defaults(BreakerConfig.builder()
				.ticker(Ticker.system())
				.consecutiveFailures(1)
				.openWait(Duration.ofSeconds(3))
				.openWaitJitter(0)
				.halfOpenMaxProbes(1)
				.halfOpenSuccessesToClose(1)
				.build())
			.build();
	}

	static FleetSync start(RedisServerHarness redis, BreakerRegistry registry, String id) throws Exception {
		FleetSync sync = new FleetSync(registry, new SharedStoreStatus(id, Clock.systemUTC()),
				RedisURI.create("127.0.0.1", redis.port()), FleetSettings.defaults(1));
		sync.start();
		assertThat(sync.awaitFirstSync(Duration.ofSeconds(10))).isTrue();
		return sync;
	}

	static void failOnce(Breaker breaker) {
		try {
			breaker.call(() -> {
				throw new IllegalStateException("payments down");
			});
		}
		catch (Exception expected) {
		}
	}

	@ParameterizedTest(name = "slow listener {0}")
	@ValueSource(booleans = { false, true })
	void aCloseDeliveredAfterTheNextTripDoesNotCloseTheFleetOverThatTrip(boolean slow) throws Exception {
		try (RedisServerHarness redis = RedisServerHarness.start(); RedisAdmin admin = new RedisAdmin(redis)) {
			BreakerRegistry ra = registry();
			CountDownLatch tripped = new CountDownLatch(1);
			AtomicBoolean armed = new AtomicBoolean();
			// a slow listener (an audit log, a chat hook) registered before fleet mode
			ra.onTransition(t -> {
				if (t.from() == State.HALF_OPEN && t.to() == State.CLOSED && armed.compareAndSet(true, false)) {
					try {
						if (slow) {
							tripped.await(10, TimeUnit.SECONDS);
						}
					}
					catch (InterruptedException e) {
						Thread.currentThread().interrupt();
					}
				}
			});
			BreakerRegistry rb = registry();
			try (FleetSync a = start(redis, ra, "checkout-1"); FleetSync b = start(redis, rb, "checkout-2")) {
				Breaker pa = ra.breaker("payments");
				Breaker pb = rb.breaker("payments");
				failOnce(pa);
				await().atMost(Duration.ofSeconds(10)).until(() -> pb.state() == State.OPEN);
				// a's probe succeeds: HALF_OPEN -> CLOSED on this thread, whose delivery
				// is slow
				Permit probe = null;
				long end = System.nanoTime() + Duration.ofSeconds(10).toNanos();
				while (System.nanoTime() < end) {
					Permit p = pa.acquire();
					if (p.granted()) {
						probe = p;
						break;
					}
					Thread.sleep(20);
				}
				assertThat(probe).as("a's probe").isNotNull();
				armed.set(true);
				Permit closing = probe;
				Thread prober = new Thread(() -> pa.release(closing, Outcome.SUCCESS, 0));
				prober.start();
				await().atMost(Duration.ofSeconds(10)).until(() -> pa.state() == State.CLOSED);
				if (!slow) {
					prober.join(10_000);
					// the close told first, as without a slow listener
					await().atMost(Duration.ofSeconds(10)).until(() -> pb.state() == State.CLOSED);
				}
				// the next call fails at once: a trips again, delivered on this thread
				// first
				failOnce(pa);
				assertThat(pa.state()).isEqualTo(State.OPEN);
				tripped.countDown();
				prober.join(10_000);
				Thread.sleep(1000);
				assertThat(pb.state())
					.as("slow listener %s: b, while a's latest verdict is OPEN (a: %s; stored open key: %s)", slow,
							pa.state(), admin.redis().exists("breaker:{payments}:open"))
					.isEqualTo(State.OPEN);
			}
		}
	}

}
