package dev.breaker.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/** A registry child that consults its parent, and a registry's lookups over time. */
class ChildBreakerTests {

	private final Fixture fixture = new Fixture();

	private BreakerRegistry registry(BreakerConfig config) {
		return BreakerRegistry.builder()
			.defaults(config)
			.children("recommendations", new BreakerRegistry.Children(10, Duration.ofMinutes(10), true))
			.build();
	}

	@Test
	void aChildRejectedByItsParentCountsTheRejectionAndHoldsNothingInFlight() {
		BreakerRegistry registry = registry(fixture.config().trackInFlight(true).build());
		Breaker child = registry.breaker("recommendations", "user-1");
		registry.breaker("recommendations").forceOpen();
		assertThat(child.acquire().granted()).isFalse();
		assertThat(child.totals().rejected()).isEqualTo(1);
		assertThat(child.snapshot().inFlight()).isZero();
	}

	@Test
	void aHalfOpenChildRejectedByItsParentGivesItsProbeSlotBack() {
		BreakerRegistry registry = registry(fixture.config().build());
		Breaker child = registry.breaker("recommendations", "user-1");
		Breaker parent = registry.breaker("recommendations");
		child.halfOpen();
		parent.forceOpen();
		assertThat(child.acquire().granted()).isFalse();
		assertThat(child.snapshot().probes().inFlight()).isZero();
		parent.reset();
		Permit probe = child.acquire();
		assertThat(probe.granted()).isTrue();
		assertThat(probe.probe()).isTrue();
	}

	@Test
	void aChildHandsTheSameCombinedPermitToEveryCallUntilTheParentChangesState() {
		BreakerRegistry registry = registry(fixture.config().build());
		Breaker child = registry.breaker("recommendations", "user-1");
		Permit first = child.acquire();
		assertThat(child.acquire()).isSameAs(first);
		registry.breaker("recommendations").reset();
		Permit after = child.acquire();
		assertThat(after).isNotSameAs(first);
		child.release(after, Outcome.FAILURE, 0);
		assertThat(registry.breaker("recommendations").snapshot().failures()).isEqualTo(1);
	}

	@Test
	void aChildWithTheStallRuleHandsOnePermitPerBucket() {
		BreakerRegistry registry = registry(fixture.config().stallCalls(5).build());
		Breaker child = registry.breaker("recommendations", "user-1");
		Permit first = child.acquire();
		assertThat(child.acquire()).isSameAs(first);
		fixture.advance(Duration.ofSeconds(1));
		Permit next = child.acquire();
		assertThat(next).isNotSameAs(first);
		assertThat(child.acquire()).isSameAs(next);
		for (Permit p : List.of(first, first, next, next)) {
			child.release(p, Outcome.SUCCESS, 0);
		}
		assertThat(child.snapshot().inFlight()).isZero();
	}

	@Test
	void aClosedBreakerWithTheStallRuleHandsOnePermitPerBucket() {
		Breaker breaker = fixture.breaker(c -> c.stallCalls(5));
		Permit first = breaker.acquire();
		assertThat(breaker.acquire()).isSameAs(first);
		fixture.advance(Duration.ofSeconds(1));
		assertThat(breaker.acquire()).isNotSameAs(first);
	}

	@Test
	void aChildsProbesAreEachTheirOwn() {
		BreakerRegistry registry = registry(fixture.config().halfOpenMaxProbes(2).build());
		Breaker child = registry.breaker("recommendations", "user-1");
		child.halfOpen();
		Fixture.succeed(child, 1);
		Permit a = child.acquire();
		Permit b = child.acquire();
		assertThat(a).isNotSameAs(b);
		child.release(a, Outcome.SUCCESS, 0);
		child.release(b, Outcome.SUCCESS, 0);
		assertThat(child.snapshot().probes().successes()).isEqualTo(3);
	}

	@Test
	void findsATopLevelBreakerByName() {
		BreakerRegistry registry = BreakerRegistry.builder()
			.defaults(fixture.config().build())
			.defaultChildren(new BreakerRegistry.Children(5, Duration.ofMinutes(1), false))
			.build();
		Breaker payments = registry.breaker("payments");
		assertThat(registry.find("payments")).containsSame(payments);
		assertThat(registry.find("nothing")).isEmpty();
	}

	@Test
	void aChildIdleForItsExpiryIsReplacedEvenBetweenSweeps() {
		BreakerRegistry registry = BreakerRegistry.builder()
			.defaults(fixture.config().build())
			.children("tenants", new BreakerRegistry.Children(10, Duration.ofMinutes(10), false))
			.build();
		List<String> removed = new ArrayList<>();
		registry.onRemoved(b -> removed.add(b.key()));
		fixture.advance(Duration.ofHours(1));
		Breaker a = registry.breaker("tenants", "a");
		fixture.advance(Duration.ofMinutes(10).minusMillis(500));
		registry.breaker("tenants", "b"); // a sweep: a is still fresh
		// a is idle for exactly its expiry; the next sweep is not due
		fixture.advance(Duration.ofMillis(500));
		assertThat(registry.breaker("tenants", "a")).isNotSameAs(a);
		assertThat(removed).containsExactly("a");
	}

	@Test
	void aFreshChildIsFoundAndKeptAtAnyTime() {
		BreakerRegistry registry = BreakerRegistry.builder()
			.defaults(fixture.config().build())
			.children("tenants", new BreakerRegistry.Children(10, Duration.ofMinutes(10), false))
			.build();
		fixture.advance(Duration.ofHours(1));
		Breaker a = registry.breaker("tenants", "a");
		fixture.advance(Duration.ofMinutes(9));
		assertThat(registry.find("tenants:a")).containsSame(a);
		// a sweep is due: the slow path keeps it too
		assertThat(registry.breaker("tenants", "a")).isSameAs(a);
		registry.breaker("tenants", "b");
		assertThat(registry.children("tenants")).extracting(Breaker::key).containsExactlyInAnyOrder("a", "b");
	}

	@Test
	void aChildSaysItWasRemovedOnceEvictedOrExpiredAndBeforeTheRemovalListenersRun() {
		BreakerRegistry registry = BreakerRegistry.builder()
			.defaults(fixture.config().build())
			.children("tenants", new BreakerRegistry.Children(2, Duration.ofMinutes(10), false))
			.build();
		List<String> seenRemoved = new ArrayList<>();
		registry.onRemoved(b -> seenRemoved.add(b.key() + "=" + b.removed()));
		Breaker top = registry.breaker("tenants");
		Breaker a = registry.breaker("tenants", "a");
		Breaker b = registry.breaker("tenants", "b");
		assertThat(a.removed()).isFalse();
		registry.breaker("tenants", "c"); // evicts a
		assertThat(a.removed()).isTrue();
		assertThat(b.removed()).isFalse();
		fixture.advance(Duration.ofMinutes(10));
		registry.breaker("tenants", "d"); // b and c expired
		assertThat(b.removed()).isTrue();
		assertThat(top.removed()).isFalse();
		assertThat(registry.breaker("tenants", "d").removed()).isFalse();
		assertThat(seenRemoved).containsExactly("a=true", "b=true", "c=true");
	}

	/**
	 * The lookup expires a's child, then fails to make b's (here the user's clock
	 * throws): a is gone from the group, so its removal must still be heard, or its
	 * meters and history stay for good.
	 */
	@Test
	void childrenExpiredByALookupWhoseChildCannotBeMadeAreStillHeardRemoved() {
		AtomicBoolean broken = new AtomicBoolean();
		Clock clock = new Clock() {
			@Override
			public ZoneId getZone() {
				return ZoneOffset.UTC;
			}

			@Override
			public Clock withZone(ZoneId zone) {
				return this;
			}

			@Override
			public Instant instant() {
				if (broken.get()) {
					throw new IllegalStateException("clock is broken");
				}
				return fixture.clock.instant();
			}
		};
		BreakerRegistry registry = BreakerRegistry.builder()
			.defaults(fixture.config().clock(clock).build())
			.children("tenants", new BreakerRegistry.Children(10, Duration.ofMinutes(10), false))
			.build();
		List<String> removed = new ArrayList<>();
		registry.onRemoved(b -> removed.add(b.key()));
		Breaker a = registry.breaker("tenants", "a");
		fixture.advance(Duration.ofMinutes(11));
		broken.set(true);

		assertThatIllegalStateException().isThrownBy(() -> registry.breaker("tenants", "b"))
			.withMessage("clock is broken");
		assertThat(a.removed()).isTrue();
		assertThat(registry.children("tenants")).isEmpty();
		assertThat(removed).as("removals heard").containsExactly("a");
	}

	@Test
	void findingAChildLeavesItsPlaceInTheEvictionOrder() {
		BreakerRegistry registry = BreakerRegistry.builder()
			.defaults(fixture.config().build())
			.children("tenants", new BreakerRegistry.Children(2, Duration.ofMinutes(10), false))
			.build();
		Breaker a = registry.breaker("tenants", "a");
		registry.breaker("tenants", "b");
		assertThat(registry.find("tenants:a")).containsSame(a);
		assertThat(registry.find("tenants:nobody")).isEmpty();
		registry.breaker("tenants", "c");
		assertThat(a.removed()).as("a, the least recently used, is evicted").isTrue();
		assertThat(registry.children("tenants")).extracting(Breaker::key).containsExactlyInAnyOrder("b", "c");
	}

	/**
	 * A child whose ticker is another object reading the same clock counts from its own
	 * origin; it must still feed its group's retry budget at the group's time, not at its
	 * own engine time (which would put the parent's window an hour in the past).
	 */
	@Test
	void aChildOnAnotherTickerObjectOfTheSameClockFeedsItsGroupsRetryBudget() {
		Ticker sameClock = this.fixture.ticker::nanos;
		BreakerRegistry registry = BreakerRegistry.builder()
			.defaults(this.fixture.config().build())
			.config("recommendations:u1", this.fixture.config().ticker(sameClock).build())
			.children("recommendations", new BreakerRegistry.Children(10, Duration.ofMinutes(10), true))
			.build();
		Breaker parent = registry.breaker("recommendations");
		this.fixture.advance(Duration.ofHours(1));
		Breaker child = registry.breaker("recommendations", "u1");
		Fixture.succeed(child, 100);
		assertThat(parent.snapshot().retryBudget().firstAttempts()).as("parent's first attempts").isEqualTo(100);
		assertThat(child.snapshot().retryBudget()).as("the child's view of its group's budget")
			.isEqualTo(parent.snapshot().retryBudget());
	}

}
