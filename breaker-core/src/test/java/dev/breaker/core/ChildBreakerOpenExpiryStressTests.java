package dev.breaker.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.Test;

/**
 * A group's bookkeeping (eviction order, pinned and waiting children) stays consistent
 * while threads look up, trip, close, pin and unpin children, time runs through open
 * waits and idle expiry, and the group is full.
 */
class ChildBreakerOpenExpiryStressTests {

	private static final int ROUNDS = Integer.getInteger("breaker.stress.rounds",
			"long".equals(System.getProperty("breaker.stress")) ? 200_000 : 20_000);

	private static final int MAX = 16;

	private static final int KEYS = 40;

	private final Fixture fixture = new Fixture();

	@Test
	void aFullGroupOfOpeningAndClosingChildrenStaysBoundedAndConsistent() {
		BreakerRegistry registry = BreakerRegistry.builder()
			.defaults(this.fixture.config()
				.consecutiveFailures(1)
				.openWait(Duration.ofMinutes(2))
				.maxOpenWait(Duration.ofMinutes(4))
				.halfOpenMaxProbes(1)
				.build())
			.children("http", new BreakerRegistry.Children(MAX, Duration.ofSeconds(20), false))
			.build();
		Concurrently.run(4, (thread) -> {
			ThreadLocalRandom random = ThreadLocalRandom.current();
			for (int i = 0; i < ROUNDS; i++) {
				// a few hot keys, and cold ones idle for longer than their expiry
				String key = "k" + (random.nextBoolean() ? random.nextInt(4) : random.nextInt(KEYS));
				Breaker child = registry.breaker("http", key);
				int move = random.nextInt(100);
				if (move < 40) {
					record(child, Outcome.FAILURE);
				}
				else if (move < 80) {
					record(child, Outcome.SUCCESS);
				}
				else if (move < 82) {
					registry.override("http:" + key, (b) -> {
						b.forceOpen();
						return null;
					});
				}
				else if (move < 86) {
					registry.override("http:" + key, (b) -> {
						b.reset();
						return null;
					});
				}
				else if (move < 88 && thread == 0) {
					this.fixture.advance(Duration.ofSeconds(random.nextInt(5, 40)));
				}
				else {
					registry.find("http:" + key);
				}
				if (i % 64 == 0) {
					assertConsistent(registry, false);
				}
			}
		});
		assertConsistent(registry, true);

		// nothing pinned any more, past every open wait and idle expiry: all expire
		for (Breaker child : registry.children("http")) {
			registry.override(child.name(), (b) -> {
				b.reset();
				return null;
			});
		}
		this.fixture.advance(Duration.ofMinutes(10));
		for (int i = 0; i < 2 * MAX; i++) {
			registry.breaker("http", "late-" + i);
		}
		assertThat(registry.children("http")).extracting(Breaker::key).allMatch((k) -> k.startsWith("late-"));
	}

	private static void record(Breaker child, Outcome outcome) {
		Permit permit = child.acquire();
		if (permit.granted()) {
			child.release(permit, outcome, 0);
		}
	}

	/**
	 * At most MAX children, one per key; {@code quiet} (no other thread running), none of
	 * them removed.
	 */
	private static void assertConsistent(BreakerRegistry registry, boolean quiet) {
		List<Breaker> children = new ArrayList<>(registry.children("http"));
		assertThat(children).as("children kept").hasSizeLessThanOrEqualTo(MAX);
		Set<String> keys = new HashSet<>();
		for (Breaker child : children) {
			assertThat(keys.add(child.key())).as("one child per key: %s", child.key()).isTrue();
			if (quiet) {
				assertThat(child.removed()).as("a child kept is not removed: %s", child).isFalse();
			}
		}
	}

}
