package dev.breaker.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;

/**
 * An operator's override of a child ({@link BreakerRegistry#override}) is never lost to
 * an eviction racing it: the endpoint (and a user) finds the child, then overrides it,
 * while other keys' calls evict the least recently used child.
 */
class ChildOverrideEvictionTests {

	private final ManualTicker ticker = new ManualTicker();

	/** Host breakers: at most 3, idle for 10 minutes expire. */
	private final BreakerRegistry registry = BreakerRegistry.builder()
		.defaults(BreakerConfig.builder().ticker(this.ticker).build())
		.children("http", new BreakerRegistry.Children(3, Duration.ofMinutes(10), false))
		.build();

	private Breaker host(String host) {
		return this.registry.breaker("http", host);
	}

	@Test
	void aForceOpenOfAChildThatOtherTrafficWouldEvictWhileItIsAppliedIsKept() {
		List<String> removed = new CopyOnWriteArrayList<>();
		this.registry.onRemoved((b) -> removed.add(b.name()));
		host("payments.acme.com");
		Optional<State> answered = this.registry.override("http:payments.acme.com", (found) -> {
			host("a.example");
			host("b.example");
			host("c.example"); // other traffic meanwhile: payments is the least recently
								// used
			found.forceOpen();
			return found.state();
		});
		assertThat(answered).as("what the endpoint answers").contains(State.FORCED_OPEN);
		assertThat(host("payments.acme.com").state()).as("the next request to the host the operator forced open")
			.isEqualTo(State.FORCED_OPEN);
		assertThat(this.registry.children("http")).as("still at most maxEntries").hasSize(3);
		assertThat(removed).as("evicted instead, once").containsExactly("http:a.example");
	}

	@Test
	void aChildResetWhileOtherTrafficWouldEvictItIsEvictedAfterwardsAsAnyOther() {
		List<String> removed = new CopyOnWriteArrayList<>();
		this.registry.onRemoved((b) -> removed.add(b.name()));
		host("payments.acme.com").forceOpen();
		this.registry.override("http:payments.acme.com", (found) -> {
			host("a.example");
			host("b.example");
			host("c.example");
			found.reset();
			return found.state();
		});
		host("d.example");
		host("e.example");
		host("f.example");
		assertThat(this.registry.find("http:payments.acme.com")).as("unpinned by the reset, then evicted").isEmpty();
		assertThat(this.registry.children("http")).hasSize(3);
		assertThat(removed).as("each child removed once")
			.containsExactlyInAnyOrder("http:a.example", "http:b.example", "http:c.example", "http:payments.acme.com");
	}

	@Test
	void anOverrideOfANameThatIsNotThereFindsNothing() {
		assertThat(this.registry.override("http:nowhere.example", (found) -> found)).isEmpty();
		assertThat(this.registry.children("http")).as("an override creates no child").isEmpty();
	}

	/**
	 * As it happens: an operator thread doing the endpoint's override while a request
	 * thread calls other hosts. Whenever the override answers FORCED_OPEN, the host is
	 * forced open for its next request.
	 */
	@Test
	void aForceOpenRacingOtherHostsRequestsIsNeverLost() throws Exception {
		BreakerRegistry two = BreakerRegistry.builder()
			.defaults(BreakerConfig.builder().ticker(this.ticker).build())
			.children("http", new BreakerRegistry.Children(2, Duration.ofMinutes(10), false))
			.build();
		AtomicBoolean stop = new AtomicBoolean();
		Thread traffic = new Thread(() -> {
			for (long i = 0; !stop.get(); i++) {
				two.breaker("http", "other-" + i);
			}
		});
		traffic.setDaemon(true);
		traffic.start();
		AtomicReference<String> lost = new AtomicReference<>();
		int overridden = 0;
		try {
			for (int i = 0; i < 200_000 && lost.get() == null; i++) {
				two.breaker("http", "payments.acme.com");
				Optional<State> answered = two.override("http:payments.acme.com", (b) -> {
					b.forceOpen();
					return b.state();
				});
				if (answered.isPresent()) {
					overridden++;
					Breaker next = two.breaker("http", "payments.acme.com");
					if (next.state() != State.FORCED_OPEN) {
						lost.set("iteration " + i + ": answered " + answered.get() + ", next request got " + next);
					}
					next.reset();
				}
			}
		}
		finally {
			stop.set(true);
			traffic.join(10_000);
		}
		assertThat(lost.get()).as("a FORCED_OPEN answered, then lost").isNull();
		assertThat(overridden).as("overrides that found the child").isPositive();
		assertThat(two.children("http").size()).isLessThanOrEqualTo(2);
	}

}
