package dev.breaker.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class WaitingChildrenStressTests {

	private static final int MAX = 8;

	@Test
	void waitingChildrenStayBoundedUniqueAndNeverDuplicatedUnderRacingLookupsAndOverrides() throws Exception {
		Fixture fixture = new Fixture();
		BreakerRegistry registry = BreakerRegistry.builder()
			.defaults(fixture.config()
				.consecutiveFailures(1)
				.openWait(Duration.ofMillis(30))
				.maxOpenWait(Duration.ofMillis(200))
				.halfOpenFailuresToReopen(1)
				.build())
			.children("g", new BreakerRegistry.Children(MAX, Duration.ofMillis(10), false))
			.build();
		Map<String, Set<Breaker>> seen = new ConcurrentHashMap<>();
		AtomicReference<Throwable> error = new AtomicReference<>();
		long end = System.nanoTime() + Duration.ofSeconds(4).toNanos();
		CountDownLatch done = new CountDownLatch(4);
		List<Thread> threads = new ArrayList<>();
		for (int t = 0; t < 4; t++) {
			int id = t;
			threads.add(new Thread(() -> {
				try {
					ThreadLocalRandom r = ThreadLocalRandom.current();
					while (System.nanoTime() < end && error.get() == null) {
						String key = "k" + r.nextInt(20);
						if (id == 0) {
							fixture.ticker.advanceNanos(r.nextLong(1_000_000, 5_000_000));
						}
						int op = r.nextInt(10);
						if (op == 0) {
							registry.override("g:" + key, (b) -> {
								if (r.nextBoolean()) {
									b.forceOpen();
								}
								else {
									b.reset();
								}
								return b;
							});
							continue;
						}
						Breaker b = registry.breaker("g", key);
						seen.computeIfAbsent(key, (k) -> ConcurrentHashMap.newKeySet()).add(b);
						Permit p = b.acquire();
						if (p.granted()) {
							b.release(p, op < 4 ? Outcome.FAILURE : Outcome.SUCCESS, 0);
						}
						Collection<Breaker> listed = registry.children("g");
						assertThat(listed.size()).as("children listed").isLessThanOrEqualTo(MAX);
						Set<String> keys = new HashSet<>();
						for (Breaker c : listed) {
							assertThat(keys.add(c.key())).as("listed twice: %s", c.key()).isTrue();
						}
					}
				}
				catch (Throwable e) {
					error.compareAndSet(null, e);
				}
				finally {
					done.countDown();
				}
			}));
		}
		threads.forEach(Thread::start);
		done.await();
		assertThat(error.get()).isNull();
		for (Map.Entry<String, Set<Breaker>> e : seen.entrySet()) {
			long live = e.getValue().stream().filter((b) -> !b.removed()).count();
			assertThat(live).as("live breakers for %s", e.getKey()).isLessThanOrEqualTo(1);
		}
		Set<String> listedKeys = new HashSet<>();
		for (Breaker c : registry.children("g")) {
			assertThat(c.removed()).isFalse();
			listedKeys.add(c.key());
		}
		for (Map.Entry<String, Set<Breaker>> e : seen.entrySet()) {
			boolean anyLive = e.getValue().stream().anyMatch((b) -> !b.removed());
			assertThat(anyLive).as("%s live but listed", e.getKey()).isEqualTo(listedKeys.contains(e.getKey()));
		}
	}

}
