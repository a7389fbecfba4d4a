package dev.breaker.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The outcome that must never happen: more retries than the budget allows, whatever the
 * threads race.
 */
@Tag("stress")
class RetryBudgetStressTests {

	private static final int THREADS = 4;

	private final Fixture fixture = new Fixture();

	@Test
	void withTimeStandingStillManyThreadsGetExactlyTheBudget() {
		Breaker breaker = aFifthAndTenASecond();
		int rounds = Rounds.count(200);
		AtomicInteger granted = new AtomicInteger();
		int perThread = 1_000;
		Rounds.run(rounds, aWindowLaterWith5000Calls(breaker), round -> {
			assertThat(granted.getAndSet(0)).as("retries granted in round %d", round).isEqualTo(1100);
		}, part(breaker, granted, perThread), part(breaker, granted, perThread), part(breaker, granted, perThread),
				part(breaker, granted, perThread));
		assertThat(breaker.totals().retries()).isEqualTo(1100L * rounds);
		assertThat(breaker.totals().retriesRefused()).isEqualTo((long) rounds * (THREADS * perThread - 1100));
	}

	@Test
	void retriesGivenBackWhileOthersAreGrantedLeaveExactlyTheBudgetKept() {
		Breaker breaker = aFifthAndTenASecond();
		int rounds = Rounds.count(200);
		AtomicInteger kept = new AtomicInteger();
		AtomicInteger givenBack = new AtomicInteger();
		// each thread gives back every other grant at once, in any order against the
		// others: with time standing still no checkpoint moves after the round's first,
		// so each goes back, and the grants kept are exactly the budget
		Rounds.Part part = thread -> {
			for (int i = 0; i < 1_000; i++) {
				long grant = breaker.grantRetry(false);
				if (grant < 0) {
					continue;
				}
				if (i % 2 == 0) {
					assertThat(breaker.returnRetry(grant, false)).as("a return at a standstill").isTrue();
					givenBack.incrementAndGet();
				}
				else {
					kept.incrementAndGet();
				}
			}
		};
		Rounds.Judge aWindowLater = aWindowLaterWith5000Calls(breaker);
		Rounds.run(rounds, round -> {
			aWindowLater.between(round);
			// the round's checkpoint, taken before the threads start
			assertThat(breaker.returnRetry(breaker.grantRetry(false), false)).isTrue();
		}, round -> {
			assertThat(kept.getAndSet(0)).as("retries kept in round %d", round).isEqualTo(1100);
			assertThat(givenBack.getAndSet(0)).as("retries given back in round %d", round).isPositive();
		}, part, part, part, part);
	}

	@Test
	void withTimeMovingRetriesGivenBackNeverLetAWindowHoldMoreThanTheBudget() {
		Breaker breaker = fixture.breaker(
				c -> c.consecutiveFailures(0).failureRateThreshold(0).retryBudgetRatio(0).retryBudgetMinPerSecond(10));
		int seconds = Rounds.count(40);
		AtomicInteger givenBack = new AtomicInteger();
		Queue<long[]> kept = whileTimeMoves(seconds, (running, grants) -> {
			ArrayDeque<long[]> held = new ArrayDeque<>();
			int n = 0;
			while (running.getAsBoolean()) {
				long before = second();
				long grant = breaker.grantRetry(false);
				if (grant < 0) {
					continue;
				}
				// give back some at once, some a while later (maybe after a checkpoint
				// moved): what stays spent counts in the windows it was judged in
				held.add(new long[] { grant, before, second() });
				if (++n % 3 != 0) {
					continue;
				}
				while (!held.isEmpty()) {
					long[] g = held.poll();
					if (breaker.returnRetry(g[0], false)) {
						givenBack.incrementAndGet();
					}
					else {
						grants.add(new long[] { g[1], g[2] });
					}
				}
			}
			for (long[] g : held) {
				grants.add(new long[] { g[1], g[2] });
			}
		});
		assertNoWindowHoldsMoreThan100(kept, seconds, "retries kept, surely judged in the window ending at second %d");
		assertThat(givenBack.get()).isPositive();
	}

	/** No trip rule; retries may add a fifth of the calls and ten a second. */
	private Breaker aFifthAndTenASecond() {
		return fixture.breaker(c -> c.consecutiveFailures(0)
			.failureRateThreshold(0)
			.retryBudgetRatio(0.2)
			.retryBudgetMinPerSecond(10));
	}

	/**
	 * Each round a window later, with 5000 calls: 0.2 x 5000 + 10 x 10 = 1100 retries.
	 */
	private Rounds.Judge aWindowLaterWith5000Calls(Breaker breaker) {
		return round -> {
			fixture.advance(Duration.ofSeconds(10));
			Fixture.succeed(breaker, 5_000);
		};
	}

	private static Rounds.Part part(Breaker breaker, AtomicInteger granted, int attempts) {
		return thread -> {
			for (int i = 0; i < attempts; i++) {
				if (breaker.tryRetry(false)) {
					granted.incrementAndGet();
				}
			}
		};
	}

	@Test
	void withTimeMovingNoWindowEverHoldsMoreRetriesThanTheBudget() {
		// a floor of 10 a second only: 100 per 10-second window; each round is one bucket
		Breaker breaker = fixture.breaker(
				c -> c.consecutiveFailures(0).failureRateThreshold(0).retryBudgetRatio(0).retryBudgetMinPerSecond(10));
		int rounds = Rounds.count(300);
		AtomicIntegerArray perBucket = new AtomicIntegerArray(rounds);
		AtomicInteger round = new AtomicInteger();
		Rounds.Part part = thread -> {
			int r = round.get();
			for (int i = 0; i < 60; i++) {
				if (breaker.tryRetry(false)) {
					perBucket.incrementAndGet(r);
				}
			}
		};
		Rounds.run(rounds, r -> round.set(r), r -> fixture.advance(Duration.ofSeconds(1)), part, part, part, part);
		for (int end = 0; end < rounds; end++) {
			int inWindow = 0;
			for (int b = Math.max(0, end - 9); b <= end; b++) {
				inWindow += perBucket.get(b);
			}
			assertThat(inWindow).as("retries in the window ending at bucket %d", end).isLessThanOrEqualTo(100);
		}
		// and the budget is used, not just withheld: every bucket that starts a window
		// with room fills it
		for (int b = 0; b < rounds; b += 10) {
			assertThat(perBucket.get(b)).as("retries in bucket %d", b).isEqualTo(100);
		}
	}

	@Test
	void withTimeMovingUnderTheThreadsNoWindowHoldsMoreThanTheBudget() {
		Breaker breaker = fixture.breaker(
				c -> c.consecutiveFailures(0).failureRateThreshold(0).retryBudgetRatio(0).retryBudgetMinPerSecond(10));
		int seconds = Rounds.count(40);
		Queue<long[]> grants = whileTimeMoves(seconds, (running, granted) -> {
			while (running.getAsBoolean()) {
				long before = second();
				if (breaker.tryRetry(false)) {
					granted.add(new long[] { before, second() });
				}
			}
		});
		assertNoWindowHoldsMoreThan100(grants, seconds, "retries surely judged in the window ending at second %d");
		assertThat(breaker.totals().retries()).isEqualTo(grants.size()).isGreaterThanOrEqualTo(100);
	}

	/** What one of the threads does while time moves under it. */
	private interface Retrying {

		/**
		 * Asks for retries while {@code running}, adding each one it keeps to
		 * {@code kept} as {seconds read before it was asked for, after}.
		 */
		void run(BooleanSupplier running, Queue<long[]> kept);

	}

	/**
	 * Runs {@code retrying} on {@link #THREADS} threads while another moves the clock a
	 * millisecond at a time for {@code seconds}; answers the retries they kept.
	 */
	private Queue<long[]> whileTimeMoves(int seconds, Retrying retrying) {
		long stepNanos = Duration.ofMillis(1).toNanos();
		Queue<long[]> kept = new ConcurrentLinkedQueue<>();
		AtomicInteger done = new AtomicInteger();
		Concurrently.run(THREADS + 1, i -> {
			if (i == THREADS) {
				for (long t = 0; t < seconds * 1000L; t++) {
					fixture.ticker.advanceNanos(stepNanos);
					long until = System.nanoTime() + 1_000;
					while (System.nanoTime() < until) {
						Thread.onSpinWait();
					}
				}
				done.set(1);
				return;
			}
			retrying.run(() -> done.get() == 0, kept);
		});
		return kept;
	}

	private long second() {
		return fixture.ticker.nanos() / 1_000_000_000L;
	}

	/**
	 * A retry was judged at a time between the two reads around it: in every window, the
	 * retries surely judged inside it (both reads in it) are at most the budget, 100.
	 */
	private static void assertNoWindowHoldsMoreThan100(Queue<long[]> retries, int seconds, String description) {
		for (int end = 0; end <= seconds; end++) {
			int first = end - 9;
			int last = end;
			long surelyInside = retries.stream().filter(g -> g[0] >= first && g[1] <= last).count();
			assertThat(surelyInside).as(description, end).isLessThanOrEqualTo(100);
		}
	}

}
