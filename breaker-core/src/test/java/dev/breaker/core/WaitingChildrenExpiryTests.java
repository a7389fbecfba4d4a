package dev.breaker.core;

import static dev.breaker.core.Fixture.fail;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class WaitingChildrenExpiryTests {

	private final Fixture fixture = new Fixture();

	private final List<String> removed = new ArrayList<>();

	private BreakerConfig.Builder tripsOnOne() {
		return this.fixture.config().consecutiveFailures(1).maxOpenWait(Duration.ofHours(2));
	}

	@Test
	void aFullGroupEvictsAWaitingChildWhoseEpisodeEndedBeforeOneStillInItsOpenWait() {
		BreakerRegistry registry = BreakerRegistry.builder()
			.defaults(tripsOnOne().openWait(Duration.ofHours(1)).build())
			.config("g:b", tripsOnOne().openWait(Duration.ofSeconds(1)).build())
			.children("g", new BreakerRegistry.Children(5, Duration.ofSeconds(10), false))
			.build();
		registry.onRemoved((b) -> this.removed.add(b.key()));
		Breaker a1 = registry.breaker("g", "a1");
		fail(a1, 1);
		Breaker a2 = registry.breaker("g", "a2");
		fail(a2, 1);
		Breaker a3 = registry.breaker("g", "a3");
		fail(a3, 1);
		Breaker b = registry.breaker("g", "b");
		fail(b, 1);
		this.fixture.advance(Duration.ofMillis(10_500));
		registry.breaker("g", "c"); // a1, a2, a3 (1h wait) and b (1s wait) set aside in
									// waiting
		this.fixture.advance(Duration.ofMillis(1_500)); // t=12s: b's episode ended 11s
														// ago
		assertThat(registry.find("g:b")).as("b, expired").isEmpty();

		registry.breaker("g", "d"); // 6 > 5: one child must go

		assertThat(this.removed).as("evicted for d (a3 is OPEN for another 59 min, b is expired)").containsExactly("b");
		assertThat(registry.breaker("g", "a3")).as("a3 during its open wait").isSameAs(a3);
		assertThat(a3.state()).isEqualTo(State.OPEN);
	}

	@Test
	void waitingChildrenExpireIdleExpiryAfterTheirOpenWaitEndedUnderSteadyTraffic() {
		BreakerRegistry registry = BreakerRegistry.builder()
			.defaults(tripsOnOne().openWait(Duration.ofSeconds(1)).build())
			.children("g", new BreakerRegistry.Children(1000, Duration.ofSeconds(10), false))
			.build();
		registry.onRemoved((b) -> this.removed.add(b.key()));
		for (int i = 0; i < 100; i++) {
			fail(registry.breaker("g", "k" + i), 1);
		}
		this.fixture.advance(Duration.ofMillis(10_500));
		registry.breaker("g", "hot"); // all 100 set aside in waiting (wait ended 9.5s
										// ago)
		// every one is past idleExpiry after its open wait from t=11s; traffic on "hot"
		// for 60s more
		for (int i = 0; i < 615; i++) {
			this.fixture.advance(Duration.ofMillis(100));
			registry.breaker("g", "hot");
		}
		assertThat(registry.find("g:k99")).as("k99, 61s after it expired").isEmpty();
		assertThat(registry.children("g")).as("children listed 61s after 100 of them expired").hasSize(1);
		assertThat(this.removed).as("removed (onRemoved) 61s after they expired").hasSize(100);
	}

	@Test
	void aLookAtAChildsStateDoesNotKeepItPastIdleExpiryAfterItsOpenWait() {
		BreakerRegistry registry = BreakerRegistry.builder()
			.defaults(tripsOnOne().openWait(Duration.ofHours(1)).build())
			.children("http", new BreakerRegistry.Children(1000, Duration.ofMinutes(10), false))
			.build();
		registry.onRemoved((b) -> this.removed.add(b.key()));
		fail(registry.breaker("http", "host"), 1);
		this.fixture.advance(Duration.ofMinutes(69)); // 9 min after the open wait ended
		registry.breaker("http", "other"); // sweep: host set aside, waiting
		registry.children("http").forEach(Breaker::state); // a metrics scrape / endpoint
															// listing
		this.fixture.advance(Duration.ofMinutes(6)); // 15 min after the open wait ended
		registry.breaker("http", "other2"); // sweep
		assertThat(this.removed).as("removed 15 min after the open wait ended, idleExpiry 10 min").contains("host");
	}

}
