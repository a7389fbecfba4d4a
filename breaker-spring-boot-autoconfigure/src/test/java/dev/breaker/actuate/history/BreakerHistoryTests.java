package dev.breaker.actuate.history;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

import org.junit.jupiter.api.Test;

import dev.breaker.core.Breaker;
import dev.breaker.core.BreakerConfig;
import dev.breaker.core.BreakerRegistry;
import dev.breaker.core.BreakerRegistry.Children;
import dev.breaker.core.ManualTicker;
import dev.breaker.core.Outcome;
import dev.breaker.core.Permit;
import dev.breaker.core.State;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The per-second history: what each second held, bounded, kept from one sample to the
 * next.
 */
class BreakerHistoryTests {

	private static final long MS = 1_000_000;

	private final ManualTicker ticker = new ManualTicker();

	private final BreakerRegistry registry = BreakerRegistry.builder()
		.defaults(BreakerConfig.builder()
			.ticker(this.ticker)
			.consecutiveFailures(3)
			.openWait(Duration.ofSeconds(5))
			.openWaitJitter(0)
			.build())
		.children("http", new Children(10, Duration.ofMinutes(10), false))
		.children("recommendations", new Children(10, Duration.ofMinutes(10), true))
		.build();

	private static final Instant START = Instant.parse("2026-12-01T10:00:00.950Z");

	/** A wall clock that follows the ticker from {@link #START}, plus {@link #drift}. */
	private final Clock clock = ManualTicker.clock(() -> this.ticker.nanos() + this.drift.toNanos(), START);

	private Duration drift = Duration.ZERO;

	private final BreakerHistory history = new BreakerHistory(this.registry, this.ticker, this.clock);

	private static void calls(Breaker breaker, Outcome outcome, long nanos, int times) {
		for (int i = 0; i < times; i++) {
			Permit permit = breaker.acquire();
			if (permit.granted()) {
				breaker.release(permit, outcome, nanos);
			}
		}
	}

	private void second() {
		this.ticker.advance(Duration.ofSeconds(1));
		this.history.sampleIfDue();
	}

	@Test
	void eachSecondHoldsTheCallsThatFinishedInItWithTheirPercentiles() {
		Breaker payments = this.registry.breaker("payments");
		this.history.sampleIfDue();
		calls(payments, Outcome.SUCCESS, 20 * MS, 99);
		calls(payments, Outcome.SUCCESS, 700 * MS, 1);
		second();
		calls(payments, Outcome.SUCCESS, 40 * MS, 10);
		second();

		List<Second> seconds = this.history.of("payments");
		assertThat(seconds).hasSize(2);
		Second first = seconds.get(0);
		assertThat(first.calls()).isEqualTo(100);
		assertThat(first.state()).isEqualTo(State.CLOSED);
		assertThat(first.p50()).isBetween(Duration.ofMillis(18), Duration.ofMillis(22));
		assertThat(first.p99()).isBetween(Duration.ofMillis(18), Duration.ofMillis(22));
		assertThat(seconds.get(1).calls()).isEqualTo(10);
		assertThat(seconds.get(1).p50()).isBetween(Duration.ofMillis(36), Duration.ofMillis(44));
		assertThat(seconds.get(0).at()).isEqualTo(Instant.parse("2026-12-01T10:00:01Z"));
		assertThat(seconds.get(1).at()).isEqualTo(Instant.parse("2026-12-01T10:00:02Z"));
	}

	@Test
	void aSecondWithoutCallsHasNoPercentiles() {
		this.registry.breaker("idle");
		this.history.sampleIfDue();
		second();

		Second quiet = this.history.of("idle").get(0);
		assertThat(quiet.calls()).isZero();
		assertThat(quiet.p50()).isNull();
		assertThat(quiet.p99()).isNull();
	}

	@Test
	void failuresTimeoutsSlowCallsAndRejectionsAreCountedPerSecondWithTheWindowsFailureRate() {
		Breaker ledger = this.registry.breaker("ledger");
		this.history.sampleIfDue();
		calls(ledger, Outcome.TIMEOUT, 3_000 * MS, 1);
		calls(ledger, Outcome.SUCCESS, 0, 3);
		calls(ledger, Outcome.FAILURE, 0, 2);
		second();
		calls(ledger, Outcome.FAILURE, 0, 1); // the third failure in a row trips it
		calls(ledger, Outcome.SUCCESS, 0, 4); // rejected
		second();

		List<Second> seconds = this.history.of("ledger");
		assertThat(seconds.get(0).calls()).isEqualTo(6);
		assertThat(seconds.get(0).failures()).isEqualTo(2);
		assertThat(seconds.get(0).timeouts()).isEqualTo(1);
		assertThat(seconds.get(0).slowCalls()).isEqualTo(1);
		assertThat(seconds.get(0).failureRate()).isEqualTo(50.0);
		assertThat(seconds.get(1).rejected()).isEqualTo(4);
		assertThat(seconds.get(1).state()).isEqualTo(State.OPEN);
	}

	@Test
	void aStateHeldForPartOfASecondColoursThatSecond() {
		Breaker orders = this.registry.breaker("orders");
		this.history.sampleIfDue();
		orders.forceOpen();
		orders.reset();
		second();

		assertThat(orders.state()).isEqualTo(State.CLOSED);
		assertThat(this.history.of("orders").get(0).state()).isEqualTo(State.FORCED_OPEN);
		second();
		assertThat(this.history.of("orders").get(1).state()).isEqualTo(State.CLOSED);
	}

	@Test
	void aWedgeShowsAsOpenSecondsBetweenClosedOnes() {
		Breaker payments = this.registry.breaker("payments");
		this.history.sampleIfDue();
		calls(payments, Outcome.SUCCESS, 20 * MS, 5);
		second();
		calls(payments, Outcome.TIMEOUT, 1_000 * MS, 3);
		second();
		second();
		second();
		second();
		second(); // the 5 s open wait is over: probes go through, and succeed
		calls(payments, Outcome.SUCCESS, 20 * MS, 5);
		second();
		second();

		assertThat(this.history.of("payments")).extracting(Second::state)
			.containsExactly(State.CLOSED, State.OPEN, State.OPEN, State.OPEN, State.OPEN, State.OPEN, State.HALF_OPEN,
					State.CLOSED);
	}

	@Test
	void keepsTheLastFiveMinutesOnly() {
		this.registry.breaker("payments");
		this.history.sampleIfDue();
		for (int i = 0; i < 400; i++) {
			second();
		}
		assertThat(this.history.of("payments")).hasSize(BreakerHistory.SECONDS);
		assertThat(BreakerHistory.SECONDS).isEqualTo(300);
	}

	@Test
	void aSampleIsTakenAtMostOncePerSecondOfTheBreakersTime() {
		this.registry.breaker("payments");
		this.history.sampleIfDue();
		this.ticker.advance(Duration.ofMillis(999));
		this.history.sampleIfDue();
		this.history.sampleIfDue();
		assertThat(this.history.of("payments")).isEmpty();
		this.ticker.advance(Duration.ofMillis(1));
		this.history.sampleIfDue();
		this.history.sampleIfDue();
		assertThat(this.history.of("payments")).hasSize(1);
	}

	@Test
	void checksThatComeLateDoNotStretchTheSeconds() {
		this.registry.breaker("payments");
		this.history.sampleIfDue();
		for (int i = 0; i < 10; i++) {
			this.ticker.advance(Duration.ofMillis(600));
			this.history.sampleIfDue();
		}
		// 6 s in checks 600 ms apart: six seconds, not one per 1.2 s
		assertThat(this.history.of("payments")).hasSize(6);
	}

	@Test
	void eachSecondIsStampedOneSecondAfterTheOneBeforeWhateverTheChecksJitter() {
		this.registry.breaker("payments");
		this.history.sampleIfDue();
		long[] late = { 1_050, 990, 1_090, 900, 1_000, 1_080, 920 };
		for (long ms : late) {
			this.ticker.advance(Duration.ofMillis(ms));
			this.history.sampleIfDue();
		}
		assertThat(this.history.of("payments")).extracting(Second::at)
			.containsExactly(Instant.parse("2026-12-01T10:00:01Z"), Instant.parse("2026-12-01T10:00:02Z"),
					Instant.parse("2026-12-01T10:00:03Z"), Instant.parse("2026-12-01T10:00:04Z"),
					Instant.parse("2026-12-01T10:00:05Z"), Instant.parse("2026-12-01T10:00:06Z"),
					Instant.parse("2026-12-01T10:00:07Z"));
	}

	@Test
	void whenTheWallClockJumpsTheStampsFollowIt() {
		this.registry.breaker("payments");
		this.history.sampleIfDue();
		second();
		this.drift = Duration.ofHours(1);
		second();
		assertThat(this.history.of("payments")).extracting(Second::at)
			.containsExactly(Instant.parse("2026-12-01T10:00:01Z"), Instant.parse("2026-12-01T11:00:02Z"));
	}

	@Test
	void afterAPauseSamplingStartsAgainFromNow() {
		this.registry.breaker("payments");
		this.history.sampleIfDue();
		this.ticker.advance(Duration.ofSeconds(30));
		this.history.sampleIfDue();
		this.history.sampleIfDue();
		assertThat(this.history.of("payments")).hasSize(1);
	}

	@Test
	void aPerHostBreakerHasAHistoryAndATenantChildHasNone() {
		this.registry.breaker("http", "api.acme.com");
		this.registry.breaker("recommendations", "user-42");
		this.history.sampleIfDue();
		second();

		assertThat(this.history.of("http:api.acme.com")).hasSize(1);
		assertThat(this.history.of("recommendations")).hasSize(1);
		assertThat(this.history.of("recommendations:user-42")).isEmpty();
		assertThat(this.history.tracked()).containsExactlyInAnyOrder("http:api.acme.com", "recommendations");
	}

	@Test
	void aBreakerCreatedLaterStartsItsHistoryWhenItIsCreated() {
		this.history.sampleIfDue();
		second();
		Breaker late = this.registry.breaker("late");
		calls(late, Outcome.SUCCESS, 0, 7);
		second();
		calls(late, Outcome.SUCCESS, 0, 2);
		second();

		assertThat(this.history.of("late")).extracting(Second::calls).containsExactly(7L, 2L);
	}

	@Test
	void anEvictedPerHostBreakerLeavesNoHistoryBehind() {
		BreakerRegistry small = BreakerRegistry.builder()
			.defaults(BreakerConfig.builder().ticker(this.ticker).build())
			.children("http", new Children(1, Duration.ofMinutes(10), false))
			.build();
		BreakerHistory history = new BreakerHistory(small, this.ticker, java.time.Clock.systemUTC());
		small.breaker("http", "a.example");
		history.sampleIfDue();
		small.breaker("http", "b.example");
		this.ticker.advance(Duration.ofSeconds(1));
		history.sampleIfDue();

		assertThat(history.tracked()).containsExactly("http:b.example");
	}

	@Test
	void aPerHostBreakerReCreatedBeforeItsPredecessorsEvictionIsHeardHasAHistory() {
		BreakerRegistry small = BreakerRegistry.builder()
			.defaults(BreakerConfig.builder().ticker(this.ticker).build())
			.children("http", new Children(2, Duration.ofMinutes(10), false))
			.build();
		AtomicBoolean recreated = new AtomicBoolean();
		// listeners run in the order they were added: this one, on another caller's
		// behalf, asks for a.example again before the history hears of its eviction
		small.onRemoved((evicted) -> {
			if (evicted.name().equals("http:a.example") && !recreated.getAndSet(true)) {
				small.breaker("http", "a.example");
			}
		});
		BreakerHistory history = new BreakerHistory(small, this.ticker, java.time.Clock.systemUTC());
		small.breaker("http", "a.example");
		small.breaker("http", "b.example");
		small.breaker("http", "c.example");
		assertThat(recreated).isTrue();
		Breaker current = small.find("http:a.example").orElseThrow();
		history.sampleIfDue();
		calls(current, Outcome.SUCCESS, 0, 3);
		this.ticker.advance(Duration.ofSeconds(1));
		history.sampleIfDue();

		assertThat(history.tracked()).contains("http:a.example");
		assertThat(history.of("http:a.example")).extracting(Second::calls).containsExactly(3L);
	}

	@Test
	void aTransitionOfAnEvictedPerHostBreakerDoesNotColourItsReplacementsHistory() {
		BreakerRegistry small = BreakerRegistry.builder()
			.defaults(BreakerConfig.builder().ticker(this.ticker).build())
			.children("http", new Children(1, Duration.ofMinutes(10), false))
			.build();
		BreakerHistory history = new BreakerHistory(small, this.ticker, java.time.Clock.systemUTC());
		Breaker evicted = small.breaker("http", "a.example");
		small.breaker("http", "b.example");
		Breaker current = small.breaker("http", "a.example");
		history.sampleIfDue();
		evicted.forceOpen();
		this.ticker.advance(Duration.ofSeconds(1));
		history.sampleIfDue();

		assertThat(current.state()).isEqualTo(State.CLOSED);
		assertThat(history.of("http:a.example")).extracting(Second::state).containsExactly(State.CLOSED);
	}

	@Test
	void aPerHostBreakerEvictedBeforeItsCreationIsHeardLeavesNoHistoryBehind() {
		BreakerRegistry small = BreakerRegistry.builder()
			.defaults(BreakerConfig.builder().ticker(this.ticker).build())
			.children("http", new Children(1, Duration.ofMinutes(10), false))
			.build();
		small.onCreated((created) -> {
			if (created.name().equals("http:a.example")) {
				small.breaker("http", "b.example");
			}
		});
		BreakerHistory history = new BreakerHistory(small, this.ticker, java.time.Clock.systemUTC());
		small.breaker("http", "a.example");

		assertThat(small.find("http:a.example")).isEmpty();
		assertThat(history.tracked()).containsExactly("http:b.example");
	}

	@Test
	void aPerHostBreakerEvictedAndReCreatedBeforeItsFirstCreationIsHeardKeepsTheReplacementsHistory() {
		BreakerRegistry small = BreakerRegistry.builder()
			.defaults(BreakerConfig.builder().ticker(this.ticker).build())
			.children("http", new Children(1, Duration.ofMinutes(10), false))
			.build();
		AtomicBoolean churned = new AtomicBoolean();
		small.onCreated((created) -> {
			if (created.name().equals("http:a.example") && !churned.getAndSet(true)) {
				small.breaker("http", "b.example");
				small.breaker("http", "a.example");
			}
		});
		BreakerHistory history = new BreakerHistory(small, this.ticker, java.time.Clock.systemUTC());
		small.breaker("http", "a.example");
		Breaker current = small.find("http:a.example").orElseThrow();
		history.sampleIfDue();
		calls(current, Outcome.SUCCESS, 0, 2);
		this.ticker.advance(Duration.ofSeconds(1));
		history.sampleIfDue();

		assertThat(history.tracked()).containsExactly("http:a.example");
		assertThat(history.of("http:a.example")).extracting(Second::calls).containsExactly(2L);
	}

	@Test
	void aBreakerThatKeepsNoLatencyStillHasItsCountsAndStates() {
		BreakerRegistry plain = BreakerRegistry.builder()
			.defaults(BreakerConfig.builder().ticker(this.ticker).recordLatency(false).build())
			.build();
		BreakerHistory history = new BreakerHistory(plain, this.ticker, java.time.Clock.systemUTC());
		Breaker bulk = plain.breaker("bulk");
		history.sampleIfDue();
		calls(bulk, Outcome.SUCCESS, 20 * MS, 4);
		this.ticker.advance(Duration.ofSeconds(1));
		history.sampleIfDue();

		Second second = history.of("bulk").get(0);
		assertThat(second.calls()).isEqualTo(4);
		assertThat(second.p50()).isNull();
	}

}
