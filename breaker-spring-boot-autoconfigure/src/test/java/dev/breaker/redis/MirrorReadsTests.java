package dev.breaker.redis;

import java.time.Clock;
import java.util.concurrent.atomic.AtomicInteger;

import dev.breaker.core.BreakerConfig;
import dev.breaker.core.BreakerRegistry;
import dev.breaker.core.Ticker;
import io.lettuce.core.RedisURI;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.Operation;
import org.junit.jupiter.api.Test;

/**
 * Lincheck: the mirror of one breaker is written on the sync thread while callers'
 * threads read it (the endpoint's view), and what belongs to one message heard (the
 * replica that sent it and its reason) is read together, never the replica of one message
 * with the reason of the next. Model checking tries the interleavings, so the check does
 * not depend on the JIT (which merges adjacent locks of one object, and hid such a torn
 * read from a timed stress test once the view was compiled) nor on the load of the
 * machine. No Redis is needed (none is reached).
 *
 * <p>
 * Every scenario gets a breaker entry of its own on one fleet sync (a fleet sync per
 * scenario would build Lettuce's client resources thousands of times).
 */
public class MirrorReadsTests {

	private static final FleetSync SYNC = new FleetSync(
			BreakerRegistry.builder().defaults(BreakerConfig.builder().ticker(Ticker.system()).build()).build(),
			new SharedStoreStatus("a", Clock.systemUTC()), RedisURI.create("127.0.0.1", 1), FleetSettings.defaults(1));

	private static final AtomicInteger SCENARIOS = new AtomicInteger();

	private final String breaker = "payments-" + SCENARIOS.incrementAndGet();

	private final AtomicInteger episodes = new AtomicInteger();

	// an entry of its own, outside the bound on breakers only the fleet has
	private final FleetEntry entry = SYNC.entries().local(breaker);

	@Operation
	public void openedByB() {
		opened("b");
	}

	@Operation
	public void openedByC() {
		opened("c");
	}

	/**
	 * What applying a peer's open writes to the mirror (PeerMessages#apply, after its
	 * checks): written directly, so the model checker spends its interleavings on the
	 * reads, not on the checks.
	 */
	private void opened(String replica) {
		entry.opened(new FleetMessage(FleetMessage.Kind.OPEN, breaker, "e" + episodes.incrementAndGet(), 30_000, null,
				replica, 1, "tripped on " + replica, ""), Long.MAX_VALUE, SYNC.nextSequence());
	}

	@Operation
	public String view() {
		FleetBreakerView view = SYNC.view(breaker);
		return view.replica() + " / " + view.reason();
	}

	@Test
	void theViewShowsTheReasonOfTheReplicaItNames() {
		try {
			new ModelCheckingOptions().iterations(30)
				.invocationsPerIteration(500)
				.threads(2)
				.actorsPerThread(2)
				.actorsBefore(1)
				.actorsAfter(1)
				.check(MirrorReadsTests.class);
		}
		finally {
			SYNC.close();
		}
	}

}
