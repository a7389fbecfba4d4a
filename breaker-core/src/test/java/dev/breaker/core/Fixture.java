package dev.breaker.core;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.UnaryOperator;

/**
 * A manual ticker, its wall clock, and helpers to drive a breaker through outcomes.
 */
final class Fixture {

	static final Instant EPOCH = Instant.parse("2026-11-29T21:00:00Z");

	final ManualTicker ticker = new ManualTicker();

	final Clock clock = ticker.clock(EPOCH);

	final List<Transition> transitions = new CopyOnWriteArrayList<>();

	/** Defaults, on the manual ticker, without jitter. */
	BreakerConfig.Builder config() {
		return BreakerConfig.builder().ticker(ticker).clock(clock).openWaitJitter(0);
	}

	Breaker breaker(UnaryOperator<BreakerConfig.Builder> settings) {
		Breaker breaker = Breaker.of("payments", settings.apply(config()).build());
		breaker.onTransition(transitions::add);
		return breaker;
	}

	/**
	 * Only the slow-call-rate rule: 50% of the calls slower than 1 s trip it;
	 * {@code more} sets the minimum calls and anything else.
	 */
	Breaker slowCallRateOnly(UnaryOperator<BreakerConfig.Builder> more) {
		return breaker((c) -> more.apply(c.consecutiveFailures(0)
			.failureRateThreshold(0)
			.slowCallRateThreshold(50)
			.slowCallDuration(Duration.ofSeconds(1))));
	}

	void advance(Duration d) {
		ticker.advance(d);
	}

	static void record(Breaker breaker, Outcome outcome, int times) {
		for (int i = 0; i < times; i++) {
			timed(breaker, outcome, 0L);
		}
	}

	static void timed(Breaker breaker, Outcome outcome, long elapsedNanos) {
		Permit permit = breaker.acquire();
		if (!permit.granted()) {
			throw new AssertionError(breaker + " rejected a call that the test meant to make");
		}
		breaker.release(permit, outcome, elapsedNanos);
	}

	static void succeed(Breaker breaker, int times) {
		record(breaker, Outcome.SUCCESS, times);
	}

	static void fail(Breaker breaker, int times) {
		record(breaker, Outcome.FAILURE, times);
	}

}
