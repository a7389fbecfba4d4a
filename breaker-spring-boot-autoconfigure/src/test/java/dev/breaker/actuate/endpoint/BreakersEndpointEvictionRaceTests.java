package dev.breaker.actuate.endpoint;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;

import dev.breaker.actuate.BreakerTree;
import dev.breaker.core.Breaker;
import dev.breaker.core.BreakerRegistry;
import dev.breaker.core.State;
import org.junit.jupiter.api.Test;

/**
 * The endpoint's POST {"state": "FORCED_OPEN"} on a host breaker, racing other hosts'
 * requests that evict the least recently used children: what it answers holds.
 */
class BreakersEndpointEvictionRaceTests {

	@Test
	void aForcedOpenTheEndpointAnswersIsNeverLostToAConcurrentEviction() throws Exception {
		BreakerRegistry registry = BreakerRegistry.builder()
			.children("http", new BreakerRegistry.Children(2, Duration.ofMinutes(10), false))
			.build();
		BreakersEndpoint endpoint = new BreakersEndpoint(registry, new BreakerTree(registry));
		AtomicBoolean stop = new AtomicBoolean();
		Thread traffic = new Thread(() -> {
			for (long i = 0; !stop.get(); i++) {
				registry.breaker("http", "other-" + i);
			}
		});
		traffic.setDaemon(true);
		traffic.start();
		String lost = null;
		int answeredForcedOpen = 0;
		try {
			for (int i = 0; i < 200_000 && lost == null; i++) {
				registry.breaker("http", "payments.acme.com");
				SnapshotDescriptor answered = endpoint.override("http:payments.acme.com", "FORCED_OPEN", null);
				if (answered != null && "FORCED_OPEN".equals(answered.state())) {
					answeredForcedOpen++;
					Breaker next = registry.breaker("http", "payments.acme.com");
					if (next.state() != State.FORCED_OPEN) {
						lost = "iteration " + i + ": the endpoint answered " + answered.state()
								+ "; the host's next request got " + next;
					}
					next.reset();
				}
			}
		}
		finally {
			stop.set(true);
			traffic.join(10_000);
		}
		assertThat(lost).as("a FORCED_OPEN the endpoint answered, lost").isNull();
		assertThat(answeredForcedOpen).as("overrides the endpoint answered").isPositive();
	}

}
