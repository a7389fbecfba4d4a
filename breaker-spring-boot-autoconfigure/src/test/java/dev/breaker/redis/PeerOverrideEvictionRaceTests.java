package dev.breaker.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import dev.breaker.core.Breaker;
import dev.breaker.core.BreakerConfig;
import dev.breaker.core.BreakerRegistry;
import dev.breaker.core.State;
import dev.breaker.core.Ticker;
import io.lettuce.core.RedisURI;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

/**
 * A peer's fleet-wide FORCED_OPEN of a host breaker (a child of {@code http}) arrives
 * while other hosts' requests evict the least recently used children. Once the sync
 * thread applied it, the host's next request must find its breaker FORCED_OPEN: the
 * override may neither land on a child evicted between its lookup and its application,
 * nor in a mirror entry the eviction swept away meanwhile. A real Redis; the peer's
 * announcement is handed to the sync thread exactly as the subscription hands it on.
 */
class PeerOverrideEvictionRaceTests {

	private static final String HOST = "payments.acme.com";

	private static final String NAME = "http:" + HOST;

	@AutoClose
	private final RedisServerHarness redis = RedisServerHarness.start();

	private final BreakerRegistry registry = BreakerRegistry.builder()
		.defaults(BreakerConfig.builder().ticker(Ticker.system()).build())
		.children("http", new BreakerRegistry.Children(2, Duration.ofMinutes(10), false))
		.build();

	@AutoClose
	private final FleetSync sync = new FleetSync(registry, new SharedStoreStatus("a", Clock.systemUTC()),
			RedisURI.create("127.0.0.1", redis.port()), FleetSettings.defaults(1));

	@Test
	void aPeersForcedOpenOfAHostBreakerIsNeverLostToAConcurrentEviction() throws Exception {
		sync.start();
		assertThat(sync.awaitFirstSync(Duration.ofSeconds(10))).isTrue();
		AtomicBoolean stop = new AtomicBoolean();
		Thread traffic = new Thread(() -> {
			for (long i = 0; !stop.get(); i++) {
				registry.breaker("http", "other-" + i);
			}
		}, "other-hosts");
		traffic.setDaemon(true);
		traffic.start();
		String lost = null;
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
		try {
			for (int i = 0; i < 20_000 && lost == null && System.nanoTime() < deadline; i++) {
				registry.breaker("http", HOST);
				heard(State.FORCED_OPEN, i);
				Breaker next = registry.breaker("http", HOST);
				if (next.state() != State.FORCED_OPEN) {
					lost = "iteration " + i + ": the fleet applied FORCED_OPEN; the host's next request got " + next
							+ "; the mirror shows " + sync.view(NAME).override();
				}
				heard(State.CLOSED, i);
			}
		}
		finally {
			stop.set(true);
			traffic.join(10_000);
		}
		assertThat(lost).as("a peer's FORCED_OPEN the fleet applied, lost").isNull();
	}

	/**
	 * Hands a peer's override to the sync thread as the subscription does, and returns
	 * once the sync thread applied it.
	 */
	private void heard(State state, int round) throws Exception {
		String text = new FleetMessage(FleetMessage.Kind.OVERRIDE, NAME, "", 0, state, "checkout-2",
				System.currentTimeMillis(), "operator: " + state + " on every replica (" + round + ")", "")
			.encode();
		CompletableFuture<Void> applied = new CompletableFuture<>();
		sync.thread().submit(() -> {
			sync.peers().received(text);
			applied.complete(null);
		});
		applied.get(10, TimeUnit.SECONDS);
	}

}
