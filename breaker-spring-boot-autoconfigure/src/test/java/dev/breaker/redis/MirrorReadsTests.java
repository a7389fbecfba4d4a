package dev.breaker.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import dev.breaker.core.BreakerConfig;
import dev.breaker.core.BreakerRegistry;
import dev.breaker.core.Ticker;
import io.lettuce.core.RedisURI;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The mirror of one breaker is written on the sync thread while callers' threads read it
 * (the endpoint's view): what belongs to one message heard (the replica that sent it and
 * its reason) is read together, never the replica of one message with the reason of the
 * next. Driven by hand on the sync side; no Redis is needed (none is reached).
 * {@code -Dbreaker.stress=long} runs ten times longer.
 */
class MirrorReadsTests {

	private static final long RUN_NANOS = Duration
		.ofMillis("long".equals(System.getProperty("breaker.stress")) ? 50_000 : 5_000)
		.toNanos();

	private static final int READERS = 2;

	private final BreakerRegistry registry = BreakerRegistry.builder()
		.defaults(BreakerConfig.builder().ticker(Ticker.system()).build())
		.build();

	private final FleetSync sync = new FleetSync(registry, new SharedStoreStatus("a", Clock.systemUTC()),
			RedisURI.create("127.0.0.1", 1), FleetSettings.defaults(1));

	@AfterEach
	void close() {
		sync.close();
	}

	@Test
	void theViewShowsTheReasonOfTheReplicaItNames() throws Exception {
		AtomicBoolean done = new AtomicBoolean();
		AtomicLong reads = new AtomicLong();
		AtomicReference<FleetBreakerView> torn = new AtomicReference<>();
		List<Thread> readers = new ArrayList<>();
		for (int i = 0; i < READERS; i++) {
			Thread reader = new Thread(() -> {
				while (!done.get() && torn.get() == null) {
					FleetBreakerView view = sync.view("payments");
					if (!view.replica().isEmpty() && !view.reason().equals("tripped on " + view.replica())) {
						torn.set(view);
					}
					reads.incrementAndGet();
				}
			}, "mirror-reader-" + i);
			reader.start();
			readers.add(reader);
		}
		long end = System.nanoTime() + RUN_NANOS;
		for (int episode = 0; System.nanoTime() - end < 0 && torn.get() == null; episode++) {
			String replica = (episode % 2 == 0) ? "b" : "c";
			sync.peers()
				.apply(new FleetMessage(FleetMessage.Kind.OPEN, "payments", "e" + episode, 30_000, null, replica, 1,
						"tripped on " + replica, ""), sync.nextSequence(), Long.MAX_VALUE, true);
		}
		done.set(true);
		for (Thread reader : readers) {
			reader.join();
		}
		assertThat(reads.get()).isPositive();
		assertThat(torn.get()).as("a view read while peers' opens were applied").isNull();
	}

}
